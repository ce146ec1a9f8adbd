package io.duetdb.placement.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.LabelConstraint;
import io.duetdb.proto.placement.LabelOperator;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.StoreLiveness;

/** Scheduler decisions on synthetic clusters: what each checker proposes given stores and regions. */
class SchedulerTest {
    private static final SchedulingConfig CONFIG = new SchedulingConfig(3, 4, 2, Duration.ofMinutes(10), 20 << 20,
            Duration.ofHours(1), 8);
    private final AtomicLong peerIds = new AtomicLong(1000);
    private final LongSupplier newPeerId = peerIds::incrementAndGet;

    private static StoreView store(long id, StoreLiveness liveness, int regions, int leaders, String... labels) {
        Store.Builder store = Store.newBuilder().setId(id).setAddress("127.0.0." + id + ":20160").setState(StoreState.SERVING);
        for (int i = 0; i + 1 < labels.length; i += 2) {
            store.addLabels(StoreLabel.newBuilder().setKey(labels[i]).setValue(labels[i + 1]));
        }
        return new StoreView(store.build(), liveness, regions, leaders);
    }

    private static Peer voter(long id, long store) {
        return Peer.newBuilder().setId(id).setStoreId(store).setRole(PeerRole.VOTER).build();
    }

    private static Peer learner(long id, long store) {
        return Peer.newBuilder().setId(id).setStoreId(store).setRole(PeerRole.LEARNER).build();
    }

    private static Region region(long id, Peer... peers) {
        return Region.newBuilder().setId(id).setEpoch(RegionEpoch.newBuilder().setConfVersion(1).setVersion(1))
                .addAllPeers(List.of(peers)).build();
    }

    private static ClusterView cluster(List<StoreView> stores, List<RegionView> regions, List<PlacementRule> rules) {
        Map<Long, StoreView> byId = new HashMap<>();
        stores.forEach(store -> byId.put(store.id(), store));
        return new ClusterView(byId, regions, rules, CONFIG);
    }

    @Test
    void addsVotersOnTheLeastLoadedStoresUntilThereAreThree() {
        RegionView region = RegionView.of(region(1, voter(11, 1)), voter(11, 1));
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 1, 1), store(2, StoreLiveness.UP, 5, 0),
                store(3, StoreLiveness.UP, 2, 0), store(4, StoreLiveness.DISCONNECTED, 0, 0)), List.of(region), List.of());
        Operator operator = ReplicaChecker.check(region, cluster, newPeerId, 0).orElseThrow();
        assertThat(operator.steps()).hasSize(2);
        assertThat(operator.steps().get(0)).isInstanceOf(OperatorStep.AddLearner.class);
        assertThat(((OperatorStep.AddLearner) operator.steps().get(0)).peer().getStoreId())
                .as("store 3 has fewer regions than store 2; store 4 is disconnected").isEqualTo(3);
        assertThat(operator.steps().get(1)).isInstanceOf(OperatorStep.PromoteLearner.class);
    }

    @Test
    void replacesTheVoterOfADownStore() {
        RegionView region = RegionView.of(region(1, voter(11, 1), voter(12, 2), voter(13, 3)), voter(11, 1));
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 1, 1), store(2, StoreLiveness.UP, 1, 0),
                store(3, StoreLiveness.DOWN, 1, 0), store(4, StoreLiveness.UP, 0, 0)), List.of(region), List.of());
        Operator operator = ReplicaChecker.check(region, cluster, newPeerId, 0).orElseThrow();
        assertThat(operator.steps()).extracting(Object::getClass).containsExactly(OperatorStep.AddLearner.class,
                OperatorStep.PromoteLearner.class, OperatorStep.RemovePeer.class);
        assertThat(((OperatorStep.AddLearner) operator.steps().get(0)).peer().getStoreId()).isEqualTo(4);
        assertThat(((OperatorStep.RemovePeer) operator.steps().get(2)).peer().getId()).isEqualTo(13);
    }

    @Test
    void leavesADisconnectedStoreAloneAndAHealthyRegionUntouched() {
        RegionView region = RegionView.of(region(1, voter(11, 1), voter(12, 2), voter(13, 3)), voter(11, 1));
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 1, 1), store(2, StoreLiveness.UP, 1, 0),
                store(3, StoreLiveness.DISCONNECTED, 1, 0), store(4, StoreLiveness.UP, 0, 0)), List.of(region), List.of());
        assertThat(ReplicaChecker.check(region, cluster, newPeerId, 0)).isEmpty();
        assertThat(RuleChecker.check(region, cluster, newPeerId, 0)).isEmpty();
    }

    @Test
    void removesSurplusVotersButNeverTheLeader() {
        RegionView region = RegionView.of(region(1, voter(11, 1), voter(12, 2), voter(13, 3), voter(14, 4)), voter(14, 4));
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 1, 0), store(2, StoreLiveness.UP, 3, 0),
                store(3, StoreLiveness.UP, 2, 0), store(4, StoreLiveness.UP, 9, 1)), List.of(region), List.of());
        Operator operator = ReplicaChecker.check(region, cluster, newPeerId, 0).orElseThrow();
        assertThat(operator.steps()).containsExactly(new OperatorStep.RemovePeer(voter(12, 2)));
    }

    @Test
    void neverPutsVotersOnColumnarStores() {
        RegionView region = RegionView.of(region(1, voter(11, 1)), voter(11, 1));
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 1, 1),
                store(2, StoreLiveness.UP, 0, 0, "engine", "columnar")), List.of(region), List.of());
        assertThat(ReplicaChecker.check(region, cluster, newPeerId, 0)).isEmpty();
    }

    @Test
    void placementRulesAddAndRemoveColumnarLearners() {
        PlacementRule rule = PlacementRule.newBuilder().setId("table-42").setRole(PeerRole.LEARNER).setCount(1)
                .setStartKey(ByteString.copyFromUtf8("t42")).setEndKey(ByteString.copyFromUtf8("t43"))
                .addLabelConstraints(LabelConstraint.newBuilder().setKey("engine").setOp(LabelOperator.IN).addValues("columnar"))
                .build();
        Region covered = region(1, voter(11, 1), voter(12, 2), voter(13, 3)).toBuilder()
                .setStartKey(ByteString.copyFromUtf8("t42_a")).setEndKey(ByteString.copyFromUtf8("t42_z")).build();
        List<StoreView> stores = List.of(store(1, StoreLiveness.UP, 1, 1), store(2, StoreLiveness.UP, 1, 0),
                store(3, StoreLiveness.UP, 1, 0), store(7, StoreLiveness.UP, 0, 0, "engine", "columnar"));
        RegionView region = RegionView.of(covered, voter(11, 1));
        Operator add = RuleChecker.check(region, cluster(stores, List.of(region), List.of(rule)), newPeerId, 0).orElseThrow();
        assertThat(add.steps()).hasSize(1);
        assertThat(((OperatorStep.AddLearner) add.steps().get(0)).peer().getStoreId()).isEqualTo(7);

        // Once the learner exists the rule is satisfied; without the rule the learner goes away.
        RegionView withLearner = RegionView.of(covered.toBuilder().addPeers(learner(99, 7)).build(), voter(11, 1));
        assertThat(RuleChecker.check(withLearner, cluster(stores, List.of(withLearner), List.of(rule)), newPeerId, 0)).isEmpty();
        Operator remove = RuleChecker.check(withLearner, cluster(stores, List.of(withLearner), List.of()), newPeerId, 0)
                .orElseThrow();
        assertThat(remove.steps()).containsExactly(new OperatorStep.RemovePeer(learner(99, 7)));

        // A region outside the rule's range gets no learner.
        Region outside = covered.toBuilder().setStartKey(ByteString.copyFromUtf8("t50")).setEndKey(ByteString.copyFromUtf8("t51")).build();
        RegionView other = RegionView.of(outside, voter(11, 1));
        assertThat(RuleChecker.check(other, cluster(stores, List.of(other), List.of(rule)), newPeerId, 0)).isEmpty();
    }

    @Test
    void aLearnerOnADownStoreIsReplacedBeforeItIsRemoved() {
        PlacementRule rule = PlacementRule.newBuilder().setId("table-42").setRole(PeerRole.LEARNER).setCount(1)
                .setStartKey(ByteString.copyFromUtf8("t42")).setEndKey(ByteString.copyFromUtf8("t43"))
                .addLabelConstraints(LabelConstraint.newBuilder().setKey("engine").setOp(LabelOperator.IN).addValues("columnar"))
                .build();
        Region covered = region(1, voter(11, 1)).toBuilder().setStartKey(ByteString.copyFromUtf8("t42_a"))
                .setEndKey(ByteString.copyFromUtf8("t42_z")).addPeers(learner(99, 7)).build();
        RegionView region = RegionView.of(covered, voter(11, 1));
        StoreView down = store(7, StoreLiveness.DOWN, 1, 0, "engine", "columnar");
        List<StoreView> alone = List.of(store(1, StoreLiveness.UP, 1, 1), down);
        // No other learner store: the learner on the down store stays, waiting for its store.
        assertThat(RuleChecker.check(region, cluster(alone, List.of(region), List.of(rule)), newPeerId, 0)).isEmpty();

        List<StoreView> stores = List.of(store(1, StoreLiveness.UP, 1, 1), down,
                store(8, StoreLiveness.UP, 0, 0, "engine", "columnar"));
        Operator add = RuleChecker.check(region, cluster(stores, List.of(region), List.of(rule)), newPeerId, 0).orElseThrow();
        assertThat(((OperatorStep.AddLearner) add.steps().get(0)).peer().getStoreId()).isEqualTo(8);

        RegionView replaced = RegionView.of(covered.toBuilder().addPeers(learner(100, 8)).build(), voter(11, 1));
        Operator remove = RuleChecker.check(replaced, cluster(stores, List.of(replaced), List.of(rule)), newPeerId, 0)
                .orElseThrow();
        assertThat(remove.steps()).containsExactly(new OperatorStep.RemovePeer(learner(99, 7)));
    }

    @Test
    void balancesLeadersTowardTheStoreLeadingFewest() {
        List<RegionView> regions = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
            regions.add(RegionView.of(region(id, voter(id * 10 + 1, 1), voter(id * 10 + 2, 2), voter(id * 10 + 3, 3)),
                    voter(id * 10 + 1, 1)));
        }
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 4, 4), store(2, StoreLiveness.UP, 4, 0),
                store(3, StoreLiveness.UP, 4, 0)), regions, List.of());
        Operator operator = Balancers.balanceLeaders(cluster, id -> false, 0).orElseThrow();
        assertThat(operator.steps()).containsExactly(new OperatorStep.TransferLeaderTo(voter(12, 2)));
        assertThat(Balancers.balanceLeaders(cluster, id -> true, 0)).as("every region busy").isEmpty();
        ClusterView balanced = cluster(List.of(store(1, StoreLiveness.UP, 4, 2), store(2, StoreLiveness.UP, 4, 1),
                store(3, StoreLiveness.UP, 4, 1)), regions, List.of());
        assertThat(Balancers.balanceLeaders(balanced, id -> false, 0)).isEmpty();
    }

    @Test
    void balancesRegionsByMovingAReplicaAndItsLeadership() {
        List<RegionView> regions = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            regions.add(RegionView.of(region(id, voter(id * 10 + 1, 1), voter(id * 10 + 2, 2), voter(id * 10 + 3, 3)),
                    voter(id * 10 + 1, 1)));
        }
        ClusterView cluster = cluster(List.of(store(1, StoreLiveness.UP, 4, 3), store(2, StoreLiveness.UP, 3, 0),
                store(3, StoreLiveness.UP, 3, 0), store(4, StoreLiveness.UP, 0, 0)), regions, List.of());
        Operator operator = Balancers.balanceRegions(cluster, id -> false, newPeerId, 0).orElseThrow();
        assertThat(operator.steps()).extracting(Object::getClass).containsExactly(OperatorStep.AddLearner.class,
                OperatorStep.PromoteLearner.class, OperatorStep.TransferLeaderTo.class, OperatorStep.RemovePeer.class);
        assertThat(((OperatorStep.AddLearner) operator.steps().get(0)).peer().getStoreId()).isEqualTo(4);
        assertThat(((OperatorStep.RemovePeer) operator.steps().get(3)).peer().getStoreId()).isEqualTo(1);
    }

    @Test
    void operatorsAdvanceWithHeartbeatsAndEndWhenDoneStaleOrLate() {
        OperatorController controller = new OperatorController(new OperatorController.Listener() {
            @Override
            public void created(Operator operator) {
            }

            @Override
            public void ended(Operator operator) {
            }
        });
        List<StoreView> stores = List.of(store(1, StoreLiveness.UP, 1, 1), store(2, StoreLiveness.UP, 0, 0),
                store(3, StoreLiveness.UP, 0, 0));
        Region one = region(1, voter(11, 1));
        RegionView view = RegionView.of(one, voter(11, 1));
        Optional<OperatorStep> first = controller.onRegionHeartbeat(view, cluster(stores, List.of(view), List.of()), newPeerId, 0);
        assertThat(first).containsInstanceOf(OperatorStep.AddLearner.class);
        Peer added = ((OperatorStep.AddLearner) first.get()).peer();

        // The learner appears: next step is its promotion.
        Region withLearner = one.toBuilder().addPeers(added)
                .setEpoch(RegionEpoch.newBuilder().setConfVersion(2).setVersion(1)).build();
        RegionView second = RegionView.of(withLearner, voter(11, 1));
        assertThat(controller.onRegionHeartbeat(second, cluster(stores, List.of(second), List.of()), newPeerId, 1))
                .contains(new OperatorStep.PromoteLearner(added));

        // A split (version change) cancels the operator; the checker then plans afresh.
        Region split = withLearner.toBuilder().setEpoch(RegionEpoch.newBuilder().setConfVersion(2).setVersion(2)).build();
        RegionView third = RegionView.of(split, voter(11, 1));
        Optional<OperatorStep> afterSplit = controller.onRegionHeartbeat(third, cluster(stores, List.of(third), List.of()),
                newPeerId, 2);
        assertThat(afterSplit).contains(new OperatorStep.PromoteLearner(added));
        assertThat(controller.operator(1).orElseThrow().description()).contains("promote learner");

        // Past the timeout the operator ends.
        long late = Duration.ofMinutes(11).toNanos();
        controller.expire(late, Duration.ofMinutes(10).toNanos(), Map.of(1L, third));
        assertThat(controller.operator(1)).isEmpty();
    }

    private static RegionView sized(Region region, Peer leader, long size, Duration rangeAge) {
        return new RegionView(region, leader, List.of(), List.of(), size, rangeAge.toNanos());
    }

    private static Region ranged(long id, String start, String end, Peer... peers) {
        return region(id, peers).toBuilder().setStartKey(ByteString.copyFromUtf8(start))
                .setEndKey(ByteString.copyFromUtf8(end)).build();
    }

    @Test
    void mergesSmallOldRegionsIntoASmallNeighbourOnTheSameStores() {
        List<StoreView> stores = List.of(store(1, StoreLiveness.UP, 3, 1), store(2, StoreLiveness.UP, 3, 1),
                store(3, StoreLiveness.UP, 3, 1), store(4, StoreLiveness.UP, 1, 0));
        RegionView small = sized(ranged(1, "", "k", voter(11, 1), voter(12, 2), voter(13, 3)), voter(11, 1), 1 << 20,
                Duration.ofHours(2));
        RegionView neighbour = sized(ranged(2, "k", "t", voter(21, 1), voter(22, 2), voter(23, 3)), voter(21, 1), 2 << 20,
                Duration.ofHours(2));
        RegionView big = sized(ranged(3, "t", "", voter(31, 1), voter(32, 2), voter(33, 3)), voter(31, 1), 500L << 20,
                Duration.ofHours(2));
        ClusterView cluster = cluster(stores, List.of(small, neighbour, big), List.of());
        Operator merge = MergeChecker.check(small, cluster, id -> false, 0).orElseThrow();
        assertThat(merge.steps()).containsExactly(new OperatorStep.MergeInto(neighbour.region()));
        assertThat(MergeChecker.check(big, cluster, id -> false, 0)).as("too big").isEmpty();

        RegionView justSplit = sized(small.region(), voter(11, 1), 1 << 20, Duration.ofMinutes(1));
        assertThat(MergeChecker.check(justSplit, cluster(stores, List.of(justSplit, neighbour, big), List.of()),
                id -> false, 0)).as("range changed recently").isEmpty();

        RegionView elsewhere = sized(ranged(2, "k", "t", voter(21, 1), voter(22, 2), voter(24, 4)), voter(21, 1), 1 << 20,
                Duration.ofHours(2));
        assertThat(MergeChecker.check(small, cluster(stores, List.of(small, elsewhere, big), List.of()), id -> false, 0))
                .as("neighbour on other stores").isEmpty();
        assertThat(MergeChecker.check(small, cluster, id -> id == 2, 0)).as("neighbour busy").isEmpty();
    }
}
