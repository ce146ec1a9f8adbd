package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.store.TransferLeaderRequest;
import io.duetdb.proto.store.TransferLeaderResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "transfer-leader", description = "Move a region's leadership to the voter on another store.")
final class TransferLeaderCommand extends PlacementQuery {
    @Parameters(index = "0", paramLabel = "REGION_ID")
    long regionId;

    @Parameters(index = "1", paramLabel = "STORE_ID")
    long storeId;

    @Override
    Object query(PlacementClient client) {
        try (RegionLeaders.LeaderStub leader = RegionLeaders.connect(client, regionId)) {
            TransferLeaderResponse response = leader.stub().transferLeader(TransferLeaderRequest.newBuilder()
                    .setRegionId(regionId).setToStoreId(storeId).build());
            if (response.hasRegionError()) {
                throw new DuetException(ErrorCode.REGION_UNAVAILABLE, response.getRegionError().getMessage());
            }
            if (!response.getError().isEmpty()) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, response.getError());
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("region", regionId);
            json.put("from_store", leader.region().getLeader().getStoreId());
            json.put("to_store", storeId);
            return json;
        }
    }
}
