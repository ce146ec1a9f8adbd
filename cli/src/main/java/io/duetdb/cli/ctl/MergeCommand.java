package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.store.MergeRegionRequest;
import io.duetdb.proto.store.MergeRegionResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "merge", description = "Merge a region into an adjacent region on the same stores.")
final class MergeCommand extends PlacementQuery {
    @Parameters(index = "0", paramLabel = "SOURCE_REGION_ID")
    long sourceId;

    @Parameters(index = "1", paramLabel = "TARGET_REGION_ID")
    long targetId;

    @Override
    Object query(PlacementClient client) {
        try (RegionLeaders.LeaderStub leader = RegionLeaders.connect(client, sourceId)) {
            MergeRegionResponse response = leader.stub().mergeRegion(MergeRegionRequest.newBuilder()
                    .setSourceRegionId(sourceId).setTargetRegionId(targetId).build());
            if (response.hasRegionError()) {
                throw new DuetException(ErrorCode.REGION_UNAVAILABLE, response.getRegionError().getMessage());
            }
            if (!response.getError().isEmpty()) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, response.getError());
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("merged", sourceId);
            json.put("region", Json.region(RegionInfo.newBuilder().setRegion(response.getRegion()).build()));
            return json;
        }
    }
}
