package io.duetdb.placement.internal.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.StoreLiveness;
import io.duetdb.proto.placement.StoreStats;

/**
 * What the leader learns from heartbeats and keeps only in memory: when each store last reported and with
 * what load, and who leads each region. A new leader starts empty and gives every store a grace period
 * as if it had just reported.
 */
public final class ClusterRuntime {
    public record StoreReport(long receivedNanos, StoreStats stats) {
    }

    public record RegionReport(long receivedNanos, Peer leader, List<Peer> downPeers, List<Peer> pendingPeers,
            long approximateSize, long approximateKeys, long version, long versionSinceNanos) {
    }

    private final Map<Long, StoreReport> stores = new ConcurrentHashMap<>();
    private final Map<Long, RegionReport> regions = new ConcurrentHashMap<>();
    private final Map<Long, StoreLiveness> lastLiveness = new ConcurrentHashMap<>();
    private volatile long leaderSinceNanos;

    /** Forgets everything; called when this member becomes leader. */
    public void reset(long nowNanos) {
        stores.clear();
        regions.clear();
        lastLiveness.clear();
        leaderSinceNanos = nowNanos;
    }

    public void storeReported(StoreStats stats, long nowNanos) {
        stores.put(stats.getStoreId(), new StoreReport(nowNanos, stats));
    }

    /** Registration counts as a sign of life. */
    public void storeRegistered(long storeId, long nowNanos) {
        stores.compute(storeId, (id, previous) -> new StoreReport(nowNanos,
                previous == null ? StoreStats.newBuilder().setStoreId(storeId).build() : previous.stats()));
    }

    public void regionReported(RegionHeartbeatRequest request, long nowNanos) {
        long version = request.getRegion().getEpoch().getVersion();
        regions.compute(request.getRegion().getId(), (id, previous) -> new RegionReport(nowNanos, request.getLeader(),
                request.getDownPeersList(), request.getPendingPeersList(), request.getApproximateSize(),
                request.getApproximateKeys(), version,
                previous != null && previous.version() == version ? previous.versionSinceNanos() : nowNanos));
    }

    public Optional<StoreReport> store(long storeId) {
        return Optional.ofNullable(stores.get(storeId));
    }

    public Optional<RegionReport> region(long regionId) {
        return Optional.ofNullable(regions.get(regionId));
    }

    public void forgetRegion(long regionId) {
        regions.remove(regionId);
    }

    /** Milliseconds since the store's last report, or -1 if it has not reported to this leader. */
    public long heartbeatAgeMillis(long storeId, long nowNanos) {
        StoreReport report = stores.get(storeId);
        return report == null ? -1 : (nowNanos - report.receivedNanos()) / 1_000_000L;
    }

    public StoreLiveness liveness(long storeId, long nowNanos, long disconnectNanos, long downNanos) {
        StoreReport report = stores.get(storeId);
        long since = report == null ? leaderSinceNanos : report.receivedNanos();
        long age = nowNanos - since;
        if (age < disconnectNanos) {
            return StoreLiveness.UP;
        }
        return age < downNanos ? StoreLiveness.DISCONNECTED : StoreLiveness.DOWN;
    }

    /** Records a store's liveness and returns the previous one when it changed. */
    public Optional<StoreLiveness> noteLiveness(long storeId, StoreLiveness current) {
        StoreLiveness previous = lastLiveness.put(storeId, current);
        return previous == null || previous == current ? Optional.empty() : Optional.of(previous);
    }
}
