package io.duetdb.cli.ctl;

import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "tso", description = "Take one timestamp from the oracle and show its parts.")
final class TsoCommand implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (PlacementClient client = ctl.connect()) {
            Json.print(spec.commandLine().getOut(), Json.timestamp(client.getTimestamp()));
        }
        return 0;
    }
}
