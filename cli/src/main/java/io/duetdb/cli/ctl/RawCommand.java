package io.duetdb.cli.ctl;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code ctl raw ...}: the raw key-value API from the shell, for trying a cluster out and for scripts. */
@Command(name = "raw", description = "Read and write raw keys (not transactional).",
        subcommands = {RawGetCommand.class, RawPutCommand.class, RawDeleteCommand.class, RawScanCommand.class})
final class RawCommand implements Runnable {
    @ParentCommand
    CtlCommand ctl;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (expected one of: "
                + String.join(", ", spec.commandLine().getSubcommands().keySet()) + ")");
    }
}
