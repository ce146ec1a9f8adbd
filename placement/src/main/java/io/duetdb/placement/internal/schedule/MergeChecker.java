package io.duetdb.placement.internal.schedule;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;

/**
 * Merges small regions into a small neighbour that lives on the same stores, so that the region count (and
 * with it the Raft groups every store runs) stays low after data is deleted. Regions whose range changed
 * recently are left alone, so that a split is not undone at once.
 */
public final class MergeChecker {
    private MergeChecker() {
    }

    public static Optional<Operator> check(RegionView region, ClusterView cluster, LongPredicate busy, long nowNanos) {
        SchedulingConfig config = cluster.config();
        if (config.maxMergeRegionSize() <= 0 || !mergeable(region, cluster)
                || region.rangeAgeNanos() < config.splitMergeInterval().toNanos()) {
            return Optional.empty();
        }
        for (RegionView neighbour : neighbours(region, cluster)) {
            if (busy.test(neighbour.id()) || !mergeable(neighbour, cluster)
                    || !stores(neighbour).equals(stores(region))) {
                continue;
            }
            return Optional.of(new Operator(region.id(), Operator.Kind.MERGE,
                    "merge small region " + region.id() + " (" + (region.approximateSize() >> 10) + " KiB) into region "
                            + neighbour.id() + " (" + (neighbour.approximateSize() >> 10) + " KiB)",
                    List.of(new OperatorStep.MergeInto(neighbour.region())), region.region().getEpoch().getVersion(),
                    nowNanos));
        }
        return Optional.empty();
    }

    private static boolean mergeable(RegionView region, ClusterView cluster) {
        return region.leader() != null && region.isHealthy()
                && region.approximateSize() < cluster.config().maxMergeRegionSize()
                && region.learners().isEmpty()
                && region.voters().size() == cluster.config().maxReplicas()
                && region.voters().stream().allMatch(peer -> cluster.store(peer.getStoreId())
                        .map(StoreView::acceptsVoters).orElse(false));
    }

    /** The right neighbour first (merging into it keeps ids of left regions stable), then the left one. */
    private static List<RegionView> neighbours(RegionView region, ClusterView cluster) {
        Optional<RegionView> right = region.region().getEndKey().isEmpty() ? Optional.empty()
                : cluster.regions().stream().filter(r -> r.region().getStartKey().equals(region.region().getEndKey())).findFirst();
        Optional<RegionView> left = region.region().getStartKey().isEmpty() ? Optional.empty()
                : cluster.regions().stream().filter(r -> r.region().getEndKey().equals(region.region().getStartKey())).findFirst();
        return Stream.concat(right.stream(), left.stream()).toList();
    }

    private static Set<Long> stores(RegionView region) {
        return region.region().getPeersList().stream().filter(peer -> peer.getRole() == PeerRole.VOTER)
                .map(Peer::getStoreId).collect(Collectors.toSet());
    }
}
