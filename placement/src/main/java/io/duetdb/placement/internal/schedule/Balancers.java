package io.duetdb.placement.internal.schedule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.LongPredicate;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;

/**
 * Evens out leaders and replicas across row stores. Each call proposes at most one operator, moving
 * load from the busiest store to the idlest when they differ by more than one.
 */
public final class Balancers {
    private Balancers() {
    }

    /** Moves one leader from the store leading the most regions to one leading the fewest. */
    public static Optional<Operator> balanceLeaders(ClusterView cluster, LongPredicate busyRegion, long nowNanos) {
        List<StoreView> eligible = new ArrayList<>(cluster.stores().values().stream()
                .filter(StoreView::acceptsVoters).toList());
        if (eligible.size() < 2) {
            return Optional.empty();
        }
        eligible.sort(Comparator.comparingInt(StoreView::leaderCount).thenComparingLong(StoreView::id));
        StoreView target = eligible.get(0);
        StoreView source = eligible.get(eligible.size() - 1);
        if (source.leaderCount() - target.leaderCount() <= 1) {
            return Optional.empty();
        }
        for (RegionView region : cluster.regions()) {
            if (region.leader() == null || region.leader().getStoreId() != source.id() || busyRegion.test(region.id())
                    || !region.isHealthy()) {
                continue;
            }
            Optional<Peer> follower = region.peerOn(target.id()).filter(peer -> peer.getRole() == PeerRole.VOTER);
            if (follower.isPresent()) {
                return Optional.of(new Operator(region.id(), Operator.Kind.LEADER_BALANCE,
                        "balance leaders: store " + source.id() + " leads " + source.leaderCount() + ", store "
                                + target.id() + " leads " + target.leaderCount(),
                        List.of(new OperatorStep.TransferLeaderTo(follower.get())),
                        region.region().getEpoch().getVersion(), nowNanos));
            }
        }
        return Optional.empty();
    }

    /** Moves one replica from the store holding the most regions to one holding the fewest. */
    public static Optional<Operator> balanceRegions(ClusterView cluster, LongPredicate busyRegion,
            LongSupplier newPeerId, long nowNanos) {
        List<StoreView> eligible = new ArrayList<>(cluster.stores().values().stream()
                .filter(StoreView::acceptsVoters).toList());
        if (eligible.size() < 2) {
            return Optional.empty();
        }
        eligible.sort(Comparator.comparingInt(StoreView::regionCount).thenComparingLong(StoreView::id));
        StoreView target = eligible.get(0);
        StoreView source = eligible.get(eligible.size() - 1);
        if (source.regionCount() - target.regionCount() <= 1) {
            return Optional.empty();
        }
        for (RegionView region : cluster.regions()) {
            if (busyRegion.test(region.id()) || !region.isHealthy() || region.leader() == null
                    || region.peerOn(target.id()).isPresent()) {
                continue;
            }
            Optional<Peer> moving = region.peerOn(source.id()).filter(peer -> peer.getRole() == PeerRole.VOTER);
            if (moving.isEmpty()) {
                continue;
            }
            Peer added = Peer.newBuilder().setId(newPeerId.getAsLong()).setStoreId(target.id())
                    .setRole(PeerRole.LEARNER).build();
            List<OperatorStep> steps = new ArrayList<>(List.of(new OperatorStep.AddLearner(added),
                    new OperatorStep.PromoteLearner(added)));
            if (region.isLeader(moving.get())) {
                steps.add(new OperatorStep.TransferLeaderTo(added.toBuilder().setRole(PeerRole.VOTER).build()));
            }
            steps.add(new OperatorStep.RemovePeer(moving.get()));
            return Optional.of(new Operator(region.id(), Operator.Kind.REGION_BALANCE,
                    "balance regions: move replica from store " + source.id() + " (" + source.regionCount()
                            + " regions) to store " + target.id() + " (" + target.regionCount() + ")",
                    steps, region.region().getEpoch().getVersion(), nowNanos));
        }
        return Optional.empty();
    }
}
