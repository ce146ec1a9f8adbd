package io.duetdb.cli.ctl;

import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** A ctl command that asks the placement driver one thing and prints the answer as JSON. */
abstract class PlacementQuery implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        Object answer;
        try (PlacementClient client = ctl.connect()) {
            answer = query(client);
        }
        Json.print(spec.commandLine().getOut(), answer);
        return 0;
    }

    /** The JSON-ready answer (maps, lists, strings and numbers). */
    abstract Object query(PlacementClient client);
}
