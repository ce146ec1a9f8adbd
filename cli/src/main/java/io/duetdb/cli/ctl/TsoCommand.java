package io.duetdb.cli.ctl;

import io.duetdb.client.placement.PlacementClient;
import picocli.CommandLine.Command;

@Command(name = "tso", description = "Take one timestamp from the oracle and show its parts.")
final class TsoCommand extends PlacementQuery {
    @Override
    Object query(PlacementClient client) {
        return Json.timestamp(client.getTimestamp());
    }
}
