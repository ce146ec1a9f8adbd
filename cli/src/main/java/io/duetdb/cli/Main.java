package io.duetdb.cli;

import java.io.PrintWriter;
import java.sql.SQLException;

import org.slf4j.LoggerFactory;

import io.duetdb.cli.bulk.ExportCommand;
import io.duetdb.cli.bulk.ImportCommand;
import io.duetdb.cli.ctl.CtlCommand;
import io.duetdb.cli.logging.LogSetup;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.error.DuetException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/duet}: the one launcher for every component and for cluster inspection. */
@Command(name = "duet", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "DuetDB: a distributed HTAP SQL database.",
        subcommands = {PlaygroundCommand.class, PdCommand.class, StoreCommand.class, LearnerCommand.class, SqlCommand.class,
                CtlCommand.class, ExportCommand.class, ImportCommand.class})
public final class Main implements Runnable {
    static final int EXIT_ERROR = 1;
    static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("export") || args[0].equals("import"))) {
            // A client command: warnings only, so its own output (progress, summary) is what the user reads. Set
            // here, in the program's entry, not in the command, which tests and benchmarks run in shared JVMs.
            LogSetup.quiet();
        }
        System.exit(commandLine().execute(args));
    }

    /** The command line with DuetDB's error handling: one line per error, never a bare stack trace. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setParameterExceptionHandler((error, args) -> {
            CommandLine failed = error.getCommandLine();
            PrintWriter err = failed.getErr();
            String message = error.getMessage();
            if (error instanceof CommandLine.UnmatchedArgumentException unmatched
                    && !unmatched.getUnmatched().isEmpty() && failed.getSubcommands().size() > 0
                    && !unmatched.getUnmatched().get(0).startsWith("-")) {
                message = "unknown command '" + unmatched.getUnmatched().get(0) + "' (expected one of: "
                        + String.join(", ", failed.getSubcommands().keySet()) + ")";
            }
            err.println("error: " + message + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            err.flush();
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((error, failed, parseResult) -> {
            PrintWriter err = failed.getErr();
            if (error instanceof DuetException duet) {
                err.println("error: " + duet.getMessage());
            } else if (error instanceof SQLException sqlError) {
                // What a SQL server answered: its message, MySQL code and state, as the mysql client prints them.
                err.println("error: ERROR " + sqlError.getErrorCode() + " (" + sqlError.getSQLState() + "): "
                        + sqlError.getMessage());
            } else {
                err.println("error: " + error);
                LoggerFactory.getLogger(Main.class).debug("command failed", error);
            }
            err.flush();
            return EXIT_ERROR;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"DuetDB " + BuildInfo.version()};
        }
    }
}
