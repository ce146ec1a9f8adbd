package io.duetdb.cli.ctl;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.store.SplitRegionRequest;
import io.duetdb.proto.store.SplitRegionResponse;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "split", description = "Split a region at a key, or at the middle of its data.")
final class SplitCommand extends PlacementQuery {
    @Parameters(paramLabel = "REGION_ID")
    long regionId;

    @Option(names = "--key", paramLabel = "KEY", description = "split key (raw text; hex with --hex); default: the middle")
    String key;

    @Option(names = "--hex", description = "KEY is hexadecimal")
    boolean hex;

    @Override
    Object query(PlacementClient client) {
        ByteString splitKey = ByteString.EMPTY;
        if (key != null) {
            try {
                splitKey = ByteString.copyFrom(hex ? HexFormat.of().parseHex(key) : key.getBytes(StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "'" + key + "' is not hexadecimal");
            }
        }
        try (RegionLeaders.LeaderStub leader = RegionLeaders.connect(client, regionId)) {
            SplitRegionResponse response = leader.stub().splitRegion(SplitRegionRequest.newBuilder()
                    .setRegionId(regionId).setSplitKey(splitKey).build());
            if (response.hasRegionError()) {
                throw new DuetException(ErrorCode.REGION_UNAVAILABLE, response.getRegionError().getMessage());
            }
            if (!response.getError().isEmpty()) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, response.getError());
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("split", regionId);
            json.put("regions", response.getRegionsList().stream()
                    .map(region -> Json.region(RegionInfo.newBuilder().setRegion(region).build())).toList());
            return json;
        }
    }
}
