package io.duetdb.cli.ctl;

import java.util.concurrent.TimeUnit;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** Finds the store that leads a region, for operations only the leader can carry out. */
final class RegionLeaders {
    private RegionLeaders() {
    }

    record LeaderStub(RegionInfo region, StoreAdminGrpc.StoreAdminBlockingStub stub, ManagedChannel channel)
            implements AutoCloseable {
        @Override
        public void close() {
            channel.shutdownNow();
        }
    }

    static LeaderStub connect(PlacementClient placement, long regionId) {
        RegionInfo region = placement.getRegionById(regionId).orElseThrow(() ->
                new DuetException(ErrorCode.INVALID_ARGUMENT, "no region with id " + regionId));
        if (!region.hasLeader()) {
            throw new DuetException(ErrorCode.REGION_UNAVAILABLE, "region " + regionId
                    + " has not reported a leader to placement yet; try again in a few seconds");
        }
        StoreInfo store = placement.getStore(region.getLeader().getStoreId()).orElseThrow(() ->
                new DuetException(ErrorCode.REGION_UNAVAILABLE, "placement does not know store " + region.getLeader().getStoreId()));
        HostAndPort address = HostAndPort.parse(store.getStore().getAddress());
        ManagedChannel channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
        return new LeaderStub(region, StoreAdminGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS), channel);
    }
}
