package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.RegionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "regions", description = "Every region in key order: range, epoch, peers, leader, size.")
final class RegionsCommand extends PlacementQuery {
    @Option(names = "--limit", defaultValue = "0", description = "at most this many (0: all)")
    int limit;

    @Override
    Object query(PlacementClient client) {
        List<RegionInfo> regions = client.scanRegions(new byte[0], new byte[0], limit);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("count", regions.size());
        json.put("regions", regions.stream().map(Json::region).toList());
        return json;
    }
}
