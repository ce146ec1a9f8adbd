package io.duetdb.client.placement;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreStats;

/**
 * The placement driver as every other component uses it. Calls find the leader themselves and retry
 * across members until the request timeout; failures surface as {@link io.duetdb.common.error.DuetException}
 * with code PLACEMENT_SERVER_TIMEOUT (unreachable) or the error the leader gave.
 */
public interface PlacementClient extends AutoCloseable {
    /** The cluster id, learnt from the first answer; 0 before any call succeeded. */
    long clusterId();

    /** One timestamp, strictly greater than every timestamp handed out before this call started. */
    Timestamp getTimestamp();

    /** As {@link #getTimestamp()}, without blocking: concurrent callers share one request. */
    CompletableFuture<Timestamp> getTimestampAsync();

    /** Consecutive ids [first, first + count); never handed out twice. */
    long allocateIds(IdKind kind, int count);

    GetMembersResponse getMembers();

    RegisterStoreResponse registerStore(Store store);

    Store setStoreState(long storeId, StoreState state);

    void storeHeartbeat(StoreStats stats);

    RegionHeartbeatResponse regionHeartbeat(RegionHeartbeatRequest request);

    /** Records the regions a split produced, so that keys of the new region are found before it reports. */
    void reportSplit(List<io.duetdb.proto.meta.Region> regions);

    Optional<StoreInfo> getStore(long storeId);

    List<StoreInfo> getAllStores();

    /** The region holding {@code key}; empty only before the cluster is bootstrapped. */
    Optional<RegionInfo> getRegion(byte[] key);

    Optional<RegionInfo> getRegionById(long regionId);

    /** Regions overlapping [start, end) in key order; an empty end means the end of the key space. */
    List<RegionInfo> scanRegions(byte[] start, byte[] end, int limit);

    void putPlacementRule(PlacementRule rule);

    boolean deletePlacementRule(String ruleId);

    List<PlacementRule> getPlacementRules();

    /**
     * Records that transaction {@code waiterTs} waits for {@code holderTs}; returns the wait-for cycle it
     * would close (waiter first), or an empty list when the wait is safe.
     */
    List<Long> detectDeadlock(long waiterTs, long holderTs, long keyHash);

    /** The waiter stopped waiting for the holder (0: for anyone). */
    void cleanUpWaitFor(long waiterTs, long holderTs);

    /** Holds the GC safe point at or below {@code safePoint} for {@code ttlSeconds}; 0 removes. Returns the GC safe point. */
    long updateServiceSafePoint(String serviceId, long safePoint, long ttlSeconds);

    GetGcSafePointResponse getGcSafePoint();

    @Override
    void close();
}
