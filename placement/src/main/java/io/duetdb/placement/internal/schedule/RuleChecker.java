package io.duetdb.placement.internal.schedule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.placement.LabelConstraint;
import io.duetdb.proto.placement.PlacementRule;

/**
 * Places the learners that placement rules ask for (column learners on a table's key range): adds missing
 * ones on matching stores, replaces those on stores that are down or drained (the old one goes once its
 * replacement is in place), and removes learners that no rule wants any more. One change per call.
 */
public final class RuleChecker {
    private RuleChecker() {
    }

    public static Optional<Operator> check(RegionView region, ClusterView cluster, LongSupplier newPeerId, long nowNanos) {
        long version = region.region().getEpoch().getVersion();
        byte[] start = region.region().getStartKey().toByteArray();
        byte[] end = region.region().getEndKey().toByteArray();
        Set<Long> claimed = new HashSet<>();
        Set<Long> stranded = new HashSet<>();
        boolean satisfied = true;
        List<Peer> learners = new ArrayList<>(region.learners());
        for (PlacementRule rule : cluster.rules()) {
            if (rule.getRole() != PeerRole.LEARNER
                    || !KeyRanges.overlaps(rule.getStartKey().toByteArray(), rule.getEndKey().toByteArray(), start, end)) {
                continue;
            }
            int have = 0;
            for (Peer learner : learners) {
                Optional<StoreView> store = cluster.store(learner.getStoreId());
                if (have < rule.getCount() && !claimed.contains(learner.getId())
                        && store.map(view -> matches(rule, view)).orElse(false)) {
                    claimed.add(learner.getId());
                    if (store.get().mustBeVacated()) {
                        // A learner on a store that is down (or being drained) keeps its place until another
                        // learner store holds a replacement.
                        stranded.add(learner.getId());
                    } else {
                        have++;
                    }
                }
            }
            if (have < rule.getCount()) {
                satisfied = false;
                Optional<StoreView> target = cluster.bestTarget(region,
                        store -> store.acceptsReplicas() && matches(rule, store));
                if (target.isPresent()) {
                    Peer added = Peer.newBuilder().setId(newPeerId.getAsLong()).setStoreId(target.get().id())
                            .setRole(PeerRole.LEARNER).build();
                    return Optional.of(new Operator(region.id(), Operator.Kind.RULE,
                            "add learner for rule " + rule.getId(), List.of(new OperatorStep.AddLearner(added)),
                            version, nowNanos));
                }
            }
        }
        for (Peer learner : learners) {
            boolean onLearnerStore = cluster.store(learner.getStoreId()).map(store -> !store.acceptsVoters()).orElse(true);
            boolean replaced = stranded.contains(learner.getId()) && satisfied;
            if ((!claimed.contains(learner.getId()) || replaced) && onLearnerStore) {
                return Optional.of(new Operator(region.id(), Operator.Kind.RULE,
                        replaced ? "remove learner on a lost store (replaced)" : "remove learner no rule asks for",
                        List.of(new OperatorStep.RemovePeer(learner)), version, nowNanos));
            }
        }
        return Optional.empty();
    }

    static boolean matches(PlacementRule rule, StoreView store) {
        for (LabelConstraint constraint : rule.getLabelConstraintsList()) {
            String value = store.label(constraint.getKey());
            boolean ok = switch (constraint.getOp()) {
                case IN -> value != null && constraint.getValuesList().contains(value);
                case NOT_IN -> value == null || !constraint.getValuesList().contains(value);
                case EXISTS -> value != null;
                case NOT_EXISTS -> value == null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
