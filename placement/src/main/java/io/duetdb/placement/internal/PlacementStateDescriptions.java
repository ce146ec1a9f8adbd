package io.duetdb.placement.internal;

import java.util.stream.Collectors;

import io.duetdb.common.keys.Keys;
import io.duetdb.proto.meta.Region;

/** How regions read in log lines. */
final class PlacementStateDescriptions {
    private PlacementStateDescriptions() {
    }

    static String range(Region region) {
        String start = region.getStartKey().isEmpty() ? "-inf" : Keys.describe(region.getStartKey().toByteArray());
        String end = region.getEndKey().isEmpty() ? "+inf" : Keys.describe(region.getEndKey().toByteArray());
        return "[" + start + ", " + end + ")";
    }

    static String peers(Region region) {
        return region.getPeersList().stream()
                .map(peer -> peer.getId() + "@store" + peer.getStoreId() + (peer.getRoleValue() == 1 ? "(learner)" : ""))
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
