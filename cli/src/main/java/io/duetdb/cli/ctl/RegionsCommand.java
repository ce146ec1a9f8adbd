package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.RegionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "regions", description = "Every region in key order: range, epoch, peers, leader, size.")
final class RegionsCommand implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", defaultValue = "0", description = "at most this many (0: all)")
    int limit;

    @Override
    public Integer call() {
        try (PlacementClient client = ctl.connect()) {
            List<RegionInfo> regions = client.scanRegions(new byte[0], new byte[0], limit);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("count", regions.size());
            json.put("regions", regions.stream().map(Json::region).toList());
            Json.print(spec.commandLine().getOut(), json);
        }
        return 0;
    }
}
