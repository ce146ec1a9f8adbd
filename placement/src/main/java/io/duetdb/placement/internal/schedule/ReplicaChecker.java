package io.duetdb.placement.internal.schedule;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;

/**
 * Keeps every region at {@code maxReplicas} voters on distinct, live row stores: replaces voters on
 * stores that are down or being drained, adds missing voters, removes surplus ones.
 */
public final class ReplicaChecker {
    private ReplicaChecker() {
    }

    public static Optional<Operator> check(RegionView region, ClusterView cluster, LongSupplier newPeerId, long nowNanos) {
        List<Peer> voters = region.voters();
        int wanted = cluster.config().maxReplicas();
        long version = region.region().getEpoch().getVersion();

        for (Peer voter : voters) {
            Optional<StoreView> store = cluster.store(voter.getStoreId());
            if (store.isEmpty() || store.get().mustBeVacated()) {
                Optional<StoreView> target = cluster.bestTarget(region, StoreView::acceptsVoters);
                if (target.isPresent()) {
                    Peer added = Peer.newBuilder().setId(newPeerId.getAsLong()).setStoreId(target.get().id())
                            .setRole(PeerRole.LEARNER).build();
                    return Optional.of(new Operator(region.id(), Operator.Kind.REPLICA,
                            "replace voter on store " + voter.getStoreId() + " ("
                                    + store.map(s -> s.liveness() + "/" + s.store().getState()).orElse("unknown store") + ")",
                            List.of(new OperatorStep.AddLearner(added), new OperatorStep.PromoteLearner(added),
                                    new OperatorStep.RemovePeer(voter)),
                            version, nowNanos));
                }
                if (voters.size() > wanted / 2 + 1 && !region.isLeader(voter)) {
                    // Nowhere to move it, but the survivors keep a majority without it.
                    return Optional.of(new Operator(region.id(), Operator.Kind.REPLICA,
                            "remove voter on vacated store " + voter.getStoreId() + " (no replacement store)",
                            List.of(new OperatorStep.RemovePeer(voter)), version, nowNanos));
                }
            }
        }

        if (voters.size() < wanted) {
            // Promote a row-store learner that is already there before adding a new one.
            Optional<Peer> learner = region.learners().stream()
                    .filter(peer -> cluster.store(peer.getStoreId()).map(StoreView::acceptsVoters).orElse(false))
                    .filter(peer -> !region.isPendingOrDown(peer))
                    .findFirst();
            if (learner.isPresent()) {
                return Optional.of(new Operator(region.id(), Operator.Kind.REPLICA, "promote learner to reach "
                        + wanted + " voters", List.of(new OperatorStep.PromoteLearner(learner.get())), version, nowNanos));
            }
            Optional<StoreView> target = cluster.bestTarget(region, StoreView::acceptsVoters);
            if (target.isPresent()) {
                Peer added = Peer.newBuilder().setId(newPeerId.getAsLong()).setStoreId(target.get().id())
                        .setRole(PeerRole.LEARNER).build();
                return Optional.of(new Operator(region.id(), Operator.Kind.REPLICA,
                        "add voter (" + voters.size() + " of " + wanted + ")",
                        List.of(new OperatorStep.AddLearner(added), new OperatorStep.PromoteLearner(added)),
                        version, nowNanos));
            }
            return Optional.empty();
        }

        if (voters.size() > wanted) {
            Comparator<Peer> worstFirst = Comparator
                    .comparing((Peer peer) -> !region.isPendingOrDown(peer))
                    .thenComparing(peer -> -cluster.store(peer.getStoreId()).map(StoreView::regionCount).orElse(0));
            Optional<Peer> victim = voters.stream().filter(peer -> !region.isLeader(peer)).min(worstFirst);
            if (victim.isPresent()) {
                return Optional.of(new Operator(region.id(), Operator.Kind.REPLICA,
                        "remove surplus voter (" + voters.size() + " of " + wanted + ")",
                        List.of(new OperatorStep.RemovePeer(victim.get())), version, nowNanos));
            }
        }
        return Optional.empty();
    }
}
