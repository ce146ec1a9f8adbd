package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.StoreInfo;

/**
 * The regions of a key range as placement knows them now, read in pages of one batched scan of the region map
 * (not one lookup per region), each clipped to the range, with the hosts of its leader and of its column learners.
 */
final class RegionRanges {
    private static final int PAGE = 1024;
    private static final String ENGINE_LABEL = "engine";
    private static final String COLUMNAR_ENGINE = "columnar";

    /** A region's part of the range. */
    record RegionRange(long regionId, byte[] start, byte[] end, List<String> leaderHosts, List<String> learnerHosts) {
        RegionRange {
            requireNonNull(start, "start is null");
            requireNonNull(end, "end is null");
            leaderHosts = List.copyOf(leaderHosts);
            learnerHosts = List.copyOf(learnerHosts);
        }
    }

    private RegionRanges() {
    }

    static List<RegionRange> of(PlacementClient placement, byte[] start, byte[] end) {
        Map<Long, StoreInfo> stores = new HashMap<>();
        for (StoreInfo store : placement.getAllStores()) {
            stores.put(store.getStore().getId(), store);
        }
        List<RegionRange> ranges = new ArrayList<>();
        byte[] cursor = start;
        while (true) {
            List<RegionInfo> page = placement.scanRegions(cursor, end, PAGE);
            if (page.isEmpty()) {
                break;
            }
            for (RegionInfo info : page) {
                Region region = info.getRegion();
                byte[] regionStart = region.getStartKey().toByteArray();
                byte[] regionEnd = region.getEndKey().toByteArray();
                byte[] from = KeyRanges.compare(regionStart, cursor) > 0 ? regionStart : cursor;
                boolean last = regionEnd.length == 0 || KeyRanges.compare(regionEnd, end) >= 0;
                byte[] to = last ? end : regionEnd;
                if (KeyRanges.compare(from, to) < 0) {
                    ranges.add(new RegionRange(region.getId(), from, to, leaderHosts(info, stores), learnerHosts(region, stores)));
                }
                if (last) {
                    return ranges;
                }
                cursor = regionEnd;
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        if (ranges.isEmpty() || !Arrays.equals(ranges.get(ranges.size() - 1).end(), end)) {
            // Placement's map has a gap (a split not reported yet): the readers locate the rest themselves.
            byte[] from = ranges.isEmpty() ? start : ranges.get(ranges.size() - 1).end();
            ranges.add(new RegionRange(0, from, end, List.of(), List.of()));
        }
        return ranges;
    }

    private static List<String> leaderHosts(RegionInfo info, Map<Long, StoreInfo> stores) {
        if (!info.hasLeader()) {
            return List.of();
        }
        StoreInfo store = stores.get(info.getLeader().getStoreId());
        return store == null ? List.of() : List.of(host(store));
    }

    private static List<String> learnerHosts(Region region, Map<Long, StoreInfo> stores) {
        Set<String> hosts = new LinkedHashSet<>();
        for (Peer peer : region.getPeersList()) {
            StoreInfo store = stores.get(peer.getStoreId());
            if (peer.getRole() == PeerRole.LEARNER && store != null && isColumnar(store)) {
                hosts.add(host(store));
            }
        }
        return List.copyOf(hosts);
    }

    private static boolean isColumnar(StoreInfo store) {
        for (StoreLabel label : store.getStore().getLabelsList()) {
            if (label.getKey().equals(ENGINE_LABEL) && label.getValue().equals(COLUMNAR_ENGINE)) {
                return true;
            }
        }
        return false;
    }

    private static String host(StoreInfo store) {
        return HostAndPort.parse(store.getStore().getAddress()).host();
    }
}
