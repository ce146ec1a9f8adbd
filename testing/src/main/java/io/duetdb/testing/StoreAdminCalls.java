package io.duetdb.testing;

import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.proto.kv.KvGrpc;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.store.SplitRegionRequest;
import io.duetdb.proto.store.SplitRegionResponse;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.duetdb.proto.store.TransferLeaderRequest;
import io.duetdb.proto.store.TransferLeaderResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** Direct calls to stores for tests: administrative operations on a region's leader, raw Kv stubs. */
public final class StoreAdminCalls implements AutoCloseable {
    private final PlacementClient placement;
    private final java.util.Map<HostAndPort, ManagedChannel> channels = new java.util.concurrent.ConcurrentHashMap<>();

    public StoreAdminCalls(PlacementClient placement) {
        this.placement = placement;
    }

    public HostAndPort storeAddress(long storeId) {
        return HostAndPort.parse(placement.getStore(storeId).orElseThrow().getStore().getAddress());
    }

    private ManagedChannel channel(HostAndPort address) {
        return channels.computeIfAbsent(address, a -> NettyChannelBuilder.forAddress(a.host(), a.port()).usePlaintext().build());
    }

    public StoreAdminGrpc.StoreAdminBlockingStub admin(long storeId) {
        return StoreAdminGrpc.newBlockingStub(channel(storeAddress(storeId))).withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    public KvGrpc.KvBlockingStub kv(long storeId) {
        return KvGrpc.newBlockingStub(channel(storeAddress(storeId))).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    /** The region holding {@code key}, once placement knows its leader. */
    public RegionInfo regionWithLeader(byte[] key) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            RegionInfo info = placement.getRegion(key).orElseThrow();
            if (info.hasLeader()) {
                return info;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("region of the key never reported a leader");
            }
            sleep(100);
        }
    }

    /** Splits the region holding {@code splitKey} there; retries while leadership or epochs move. */
    public List<Region> split(byte[] splitKey) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            RegionInfo info = regionWithLeader(splitKey);
            try {
                SplitRegionResponse response = admin(info.getLeader().getStoreId()).splitRegion(SplitRegionRequest.newBuilder()
                        .setRegionId(info.getRegion().getId()).setSplitKey(ByteString.copyFrom(splitKey)).build());
                if (!response.hasRegionError() && response.getError().isEmpty()) {
                    return response.getRegionsList();
                }
                if (!response.getError().isEmpty() && System.nanoTime() > deadline) {
                    throw new AssertionError("split failed: " + response.getError());
                }
            } catch (io.grpc.StatusRuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("split at the key never succeeded");
            }
            sleep(200);
        }
    }

    /** Merges the region holding {@code sourceKey} into the region holding {@code targetKey}; returns the result. */
    public io.duetdb.proto.store.MergeRegionResponse merge(byte[] sourceKey, byte[] targetKey) {
        RegionInfo source = regionWithLeader(sourceKey);
        RegionInfo target = regionWithLeader(targetKey);
        return admin(source.getLeader().getStoreId()).mergeRegion(io.duetdb.proto.store.MergeRegionRequest.newBuilder()
                .setSourceRegionId(source.getRegion().getId()).setTargetRegionId(target.getRegion().getId()).build());
    }

    /** Moves the leadership of the region holding {@code key} to {@code storeId}; false if that failed. */
    public boolean transferLeader(byte[] key, long storeId) {
        RegionInfo info = regionWithLeader(key);
        if (info.getLeader().getStoreId() == storeId) {
            return true;
        }
        try {
            TransferLeaderResponse response = admin(info.getLeader().getStoreId()).transferLeader(TransferLeaderRequest.newBuilder()
                    .setRegionId(info.getRegion().getId()).setToStoreId(storeId).build());
            return !response.hasRegionError() && response.getError().isEmpty();
        } catch (io.grpc.StatusRuntimeException e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
