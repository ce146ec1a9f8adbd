package io.duetdb.client.region;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;

/**
 * Which region holds a key, and which store holds a peer, remembered between calls. Entries are dropped
 * when a store answers with a region error (the caller reports it here) and fetched again from placement.
 */
public final class RegionCache {
    /** A cached region and the peer believed to lead it (null when unknown). */
    public record CachedRegion(Region region, Peer leader) {
        public CachedRegion {
            requireNonNull(region, "region is null");
        }

        public boolean contains(byte[] key) {
            return KeyRanges.contains(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), key);
        }
    }

    private final PlacementClient placement;
    private final ConcurrentSkipListMap<byte[], CachedRegion> byStartKey = new ConcurrentSkipListMap<>(KeyRanges.KEY_ORDER);
    private final Map<Long, CachedRegion> byId = new ConcurrentHashMap<>();
    private final Map<Long, StoreInfo> stores = new ConcurrentHashMap<>();

    public RegionCache(PlacementClient placement) {
        this.placement = requireNonNull(placement, "placement is null");
    }

    /** The region holding {@code key}, from the cache or from placement. */
    public CachedRegion locate(byte[] key) {
        Map.Entry<byte[], CachedRegion> entry = byStartKey.floorEntry(key);
        if (entry != null && entry.getValue().contains(key)) {
            return entry.getValue();
        }
        RegionInfo info = placement.getRegion(key).orElseThrow(() -> new DuetException(ErrorCode.REGION_UNAVAILABLE,
                "no region holds key " + io.duetdb.common.keys.Keys.describe(key) + " (cluster not bootstrapped?)"));
        return insert(info.getRegion(), info.hasLeader() ? info.getLeader() : null);
    }

    /** The cached region holding {@code key}, without asking placement. */
    public Optional<CachedRegion> cachedLocation(byte[] key) {
        Map.Entry<byte[], CachedRegion> entry = byStartKey.floorEntry(key);
        return entry != null && entry.getValue().contains(key) ? Optional.of(entry.getValue()) : Optional.empty();
    }

    /** The regions covering [start, end) in key order, fetching from placement what the cache lacks. */
    public List<CachedRegion> locateRange(byte[] start, byte[] end) {
        List<CachedRegion> result = new ArrayList<>();
        byte[] cursor = start;
        while (true) {
            CachedRegion region = locate(cursor);
            result.add(region);
            byte[] regionEnd = region.region().getEndKey().toByteArray();
            if (regionEnd.length == 0 || (end.length != 0 && KeyRanges.compare(regionEnd, end) >= 0)) {
                return result;
            }
            cursor = regionEnd;
        }
    }

    public Optional<CachedRegion> cached(long regionId) {
        return Optional.ofNullable(byId.get(regionId));
    }

    /** Forgets a region, after a store said it is gone, moved, or changed its epoch. */
    public void invalidate(long regionId) {
        CachedRegion removed = byId.remove(regionId);
        if (removed != null) {
            byStartKey.remove(removed.region().getStartKey().toByteArray(), removed);
        }
    }

    /** Records that another peer leads the region (a NotLeader answer that named the leader). */
    public void updateLeader(long regionId, Peer leader) {
        CachedRegion current = byId.get(regionId);
        if (current != null) {
            insert(current.region(), leader);
        }
    }

    /** Replaces what the cache knows with regions a store reported as current (EpochNotMatch). */
    public void updateRegions(List<Region> regions) {
        for (Region region : regions) {
            insert(region, null);
        }
    }

    /** Where a store listens, from the cache or from placement. */
    public StoreInfo store(long storeId) {
        StoreInfo cached = stores.get(storeId);
        if (cached != null) {
            return cached;
        }
        StoreInfo info = placement.getStore(storeId).orElseThrow(() -> new DuetException(ErrorCode.REGION_UNAVAILABLE,
                "placement does not know store " + storeId));
        stores.put(storeId, info);
        return info;
    }

    /** Where a store listens, if the cache knows, without asking placement. */
    public Optional<StoreInfo> cachedStore(long storeId) {
        return Optional.ofNullable(stores.get(storeId));
    }

    public void invalidateStore(long storeId) {
        stores.remove(storeId);
    }

    private CachedRegion insert(Region region, Peer leader) {
        CachedRegion entry = new CachedRegion(region, leader);
        byte[] start = region.getStartKey().toByteArray();
        byte[] end = region.getEndKey().toByteArray();
        synchronized (this) {
            // Drop every cached region the new one overlaps: they are older views of the same keys.
            Map.Entry<byte[], CachedRegion> before = byStartKey.lowerEntry(start);
            if (before != null && overlaps(before.getValue().region(), start, end)) {
                remove(before.getValue());
            }
            var tail = end.length == 0 ? byStartKey.tailMap(start, true) : byStartKey.subMap(start, true, end, false);
            for (CachedRegion overlapped : List.copyOf(tail.values())) {
                remove(overlapped);
            }
            CachedRegion previous = byId.get(region.getId());
            if (previous != null) {
                remove(previous);
            }
            byStartKey.put(start, entry);
            byId.put(region.getId(), entry);
        }
        return entry;
    }

    private void remove(CachedRegion region) {
        byStartKey.remove(region.region().getStartKey().toByteArray(), region);
        byId.remove(region.region().getId(), region);
    }

    private static boolean overlaps(Region region, byte[] start, byte[] end) {
        return KeyRanges.overlaps(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), start, end);
    }
}
