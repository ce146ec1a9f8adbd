package io.duetdb.common.region;

import java.util.stream.Collectors;

import io.duetdb.common.keys.Keys;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;

/** How regions read in log lines. */
public final class RegionDescriptions {
    private RegionDescriptions() {
    }

    public static String describe(Region region) {
        String start = region.getStartKey().isEmpty() ? "-inf" : Keys.describe(region.getStartKey().toByteArray());
        String end = region.getEndKey().isEmpty() ? "+inf" : Keys.describe(region.getEndKey().toByteArray());
        String peers = region.getPeersList().stream()
                .map(peer -> "store" + peer.getStoreId() + (peer.getRole() == PeerRole.LEARNER ? "(learner)" : ""))
                .collect(Collectors.joining(",", "[", "]"));
        return "region " + region.getId() + " [" + start + ", " + end + ") epoch (conf " + region.getEpoch().getConfVersion()
                + ", version " + region.getEpoch().getVersion() + ") peers " + peers;
    }
}
