package io.duetdb.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.placement.PlacementException;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.GetRegionRequest;
import io.duetdb.proto.placement.GetRegionResponse;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.LabelConstraint;
import io.duetdb.proto.placement.LabelOperator;
import io.duetdb.proto.placement.PeerChangeType;
import io.duetdb.proto.placement.PlacementGrpc;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.RequestHeader;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreLiveness;
import io.duetdb.proto.placement.StoreStats;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** A three-member placement cluster in this JVM, reached through the real gRPC client. */
class ItPlacementCluster {
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path root;
    private LocalPlacementCluster cluster;
    private PlacementClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void startCluster() {
        cluster = new LocalPlacementCluster(root, 3, config -> config.setScheduleInterval(Duration.ofMillis(200))).start();
        cluster.awaitLeader(LEADER_TIMEOUT);
        client = cluster.newClient();
    }

    @Test
    void timestampsStayUniqueAndIncreasingAcrossALeaderKill() throws Exception {
        startCluster();
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        AtomicLong highestBeforeKill = new AtomicLong();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong afterKill = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            futures.add(callers.submit(() -> {
                long previous = 0;
                while (!stop.get()) {
                    boolean wasKilled = killed.get();
                    long ts = client.getTimestamp().packed();
                    assertThat(ts).isGreaterThan(previous);
                    assertThat(seen.add(ts)).as("timestamp %d handed out twice", ts).isTrue();
                    previous = ts;
                    if (!wasKilled) {
                        highestBeforeKill.accumulateAndGet(ts, Math::max);
                    } else {
                        afterKill.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        Thread.sleep(1_000);
        int leader = cluster.leaderIndex().orElseThrow();
        cluster.stop(leader);
        killed.set(true);
        long highest = highestBeforeKill.get();
        Timestamp firstAfter = client.getTimestamp();
        assertThat(firstAfter.packed()).isGreaterThan(highest);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (afterKill.get() < 1_000 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Future<?> future : futures) {
            future.get(30, TimeUnit.SECONDS);
        }
        callers.shutdown();
        assertThat(afterKill.get()).isGreaterThanOrEqualTo(1_000);
        assertThat(cluster.leaderIndex()).isPresent().get().isNotEqualTo(leader);

        // The old leader rejoins on its data and the timestamps keep growing.
        cluster.start(leader);
        Timestamp later = client.getTimestamp();
        assertThat(later).isGreaterThan(firstAfter);
    }

    @Test
    void idsAreUniqueAcrossLeaderChanges() {
        startCluster();
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            assertThat(ids.add(client.allocateIds(IdKind.TABLE_ID, 1))).isTrue();
        }
        long block = client.allocateIds(IdKind.REGION_ID, 3000);
        for (long id = block; id < block + 3000; id++) {
            assertThat(ids.add(id)).isTrue();
        }
        cluster.stop(cluster.leaderIndex().orElseThrow());
        for (int i = 0; i < 50; i++) {
            assertThat(ids.add(client.allocateIds(IdKind.PEER_ID, 1))).isTrue();
        }
    }

    private static Store store(String address, String... labels) {
        Store.Builder store = Store.newBuilder().setAddress(address).setStatusAddress(address.replace("20160", "20180"));
        for (int i = 0; i + 1 < labels.length; i += 2) {
            store.addLabels(StoreLabel.newBuilder().setKey(labels[i]).setValue(labels[i + 1]));
        }
        return store.build();
    }

    private RegionHeartbeatResponse heartbeat(Region region, Peer leader) {
        return client.regionHeartbeat(RegionHeartbeatRequest.newBuilder().setRegion(region).setLeader(leader)
                .setApproximateSize(1 << 20).build());
    }

    @Test
    void registersStoresBootstrapsTheFirstRegionAndSchedulesReplicas() {
        startCluster();
        RegisterStoreResponse first = client.registerStore(store("127.0.0.11:20160"));
        long store1 = first.getStore().getId();
        assertThat(store1).isPositive();
        Region bootstrap = first.getBootstrapRegion();
        assertThat(bootstrap.getStartKey().isEmpty() && bootstrap.getEndKey().isEmpty()).isTrue();
        assertThat(bootstrap.getPeersList()).singleElement().satisfies(peer -> assertThat(peer.getStoreId()).isEqualTo(store1));
        assertThatThrownBy(() -> client.registerStore(store("127.0.0.11:20160")))
                .isInstanceOf(PlacementException.class).hasMessageContaining("already registered by store " + store1);

        // The only region is found for any key, and its leader shows once it reports.
        Peer leader = bootstrap.getPeers(0);
        assertThat(heartbeat(bootstrap, leader).hasChangePeer()).as("a single store cannot take more replicas").isFalse();
        RegionInfo info = client.getRegion("any key".getBytes()).orElseThrow();
        assertThat(info.getRegion().getId()).isEqualTo(bootstrap.getId());
        assertThat(info.getLeader()).isEqualTo(leader);

        // More stores arrive: the replica checker asks the leader to add a learner, then promote it.
        long store2 = client.registerStore(store("127.0.0.12:20160")).getStore().getId();
        long store3 = client.registerStore(store("127.0.0.13:20160")).getStore().getId();
        assertThat(client.registerStore(store("127.0.0.13:20160", "zone", "z1").toBuilder().setId(store3).build())
                .getStore().getLabels(0).getValue()).isEqualTo("z1");
        RegionHeartbeatResponse add = heartbeat(bootstrap, leader);
        assertThat(add.getChangePeer().getChangeType()).isEqualTo(PeerChangeType.ADD_LEARNER);
        Peer learner = add.getChangePeer().getPeer();
        assertThat(learner.getStoreId()).isIn(store2, store3);
        Region withLearner = bootstrap.toBuilder().addPeers(learner)
                .setEpoch(RegionEpoch.newBuilder().setConfVersion(2).setVersion(1)).build();
        RegionHeartbeatResponse promote = heartbeat(withLearner, leader);
        assertThat(promote.getChangePeer().getChangeType()).isEqualTo(PeerChangeType.PROMOTE_LEARNER);
        assertThat(promote.getOperatorDescription()).contains("add voter");

        // An older epoch is refused and does not overwrite the newer one.
        assertThatThrownBy(() -> heartbeat(bootstrap, leader)).isInstanceOf(PlacementException.class)
                .satisfies(e -> assertThat(((PlacementException) e).type()).isEqualTo(ErrorType.STALE_REGION));
        assertThat(client.getRegionById(bootstrap.getId()).orElseThrow().getRegion().getEpoch().getConfVersion()).isEqualTo(2);

        // Stores report; their stats and liveness come back.
        client.storeHeartbeat(StoreStats.newBuilder().setStoreId(store1).setCapacityBytes(100).setRegionCount(1)
                .setLeaderCount(1).build());
        StoreInfo info1 = client.getStore(store1).orElseThrow();
        assertThat(info1.getLiveness()).isEqualTo(StoreLiveness.UP);
        assertThat(info1.getStats().getLeaderCount()).isEqualTo(1);
        assertThat(client.getAllStores()).hasSize(3);
        assertThat(client.getStore(999_999)).isEmpty();
        assertThatThrownBy(() -> client.storeHeartbeat(StoreStats.newBuilder().setStoreId(424242).build()))
                .isInstanceOf(PlacementException.class).hasMessageContaining("not registered");
    }

    @Test
    void placementRulesPutColumnarLearnersOnTheirRange() {
        startCluster();
        RegisterStoreResponse first = client.registerStore(store("127.0.0.21:20160"));
        Region region = first.getBootstrapRegion();
        Peer leader = region.getPeers(0);
        long columnar = client.registerStore(store("127.0.0.22:3930", "engine", "columnar")).getStore().getId();
        PlacementRule rule = PlacementRule.newBuilder().setId("columnar-everything").setRole(PeerRole.LEARNER)
                .setCount(1).addLabelConstraints(LabelConstraint.newBuilder().setKey("engine")
                        .setOp(LabelOperator.IN).addValues("columnar")).build();
        client.putPlacementRule(rule);
        assertThat(client.getPlacementRules()).containsExactly(rule);
        RegionHeartbeatResponse response = heartbeat(region, leader);
        assertThat(response.getChangePeer().getChangeType()).isEqualTo(PeerChangeType.ADD_LEARNER);
        assertThat(response.getChangePeer().getPeer().getStoreId()).isEqualTo(columnar);
        assertThat(client.deletePlacementRule("columnar-everything")).isTrue();
        assertThat(client.deletePlacementRule("columnar-everything")).isFalse();
        assertThatThrownBy(() -> client.putPlacementRule(rule.toBuilder().setCount(0).build()))
                .isInstanceOf(PlacementException.class).hasMessageContaining("count must be");
    }

    @Test
    void followersRedirectToTheLeaderAndClientsFollow() {
        startCluster();
        int leader = cluster.leaderIndex().orElseThrow();
        int follower = (leader + 1) % 3;
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1",
                cluster.config(follower).clientAddress().port()).usePlaintext().build();
        try {
            // Wait until the leader has published its client address, then ask a follower.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            GetRegionResponse response;
            do {
                response = PlacementGrpc.newBlockingStub(channel).getRegion(GetRegionRequest.newBuilder()
                        .setHeader(RequestHeader.getDefaultInstance()).setKey(ByteString.copyFromUtf8("k")).build());
            } while (response.getHeader().getError().getLeaderAddress().isEmpty() && System.nanoTime() < deadline);
            assertThat(response.getHeader().getError().getType()).isEqualTo(ErrorType.NOT_LEADER);
            assertThat(response.getHeader().getError().getLeaderAddress())
                    .isEqualTo(cluster.config(leader).clientAddress().toString());
        } finally {
            channel.shutdownNow();
        }
        // A client that only knows the follower finds the leader by itself.
        try (PlacementClient viaFollower = new GrpcPlacementClient(
                PlacementClientConfig.of(List.of(cluster.config(follower).clientAddress())), "follower-only")) {
            assertThat(viaFollower.getTimestamp().physical()).isPositive();
            assertThat(viaFollower.getMembers().getMembersList()).hasSize(3);
        }
    }

    @Test
    void restartingEveryMemberKeepsTheState() {
        startCluster();
        long storeId = client.registerStore(store("127.0.0.31:20160")).getStore().getId();
        Timestamp before = client.getTimestamp();
        long clusterId = client.clusterId();
        client.close();
        client = null;
        cluster.close();
        cluster.start();
        cluster.awaitLeader(LEADER_TIMEOUT);
        client = cluster.newClient();
        assertThat(client.getTimestamp()).isGreaterThan(before);
        assertThat(client.clusterId()).isEqualTo(clusterId);
        assertThat(client.getStore(storeId)).isPresent();
        assertThat(client.getRegion(new byte[0])).isPresent();
    }

    @Test
    void requestsForAnotherClusterAreRefused() {
        startCluster();
        client.getTimestamp();
        long clusterId = client.clusterId();
        assertThat(clusterId).isNotZero();
        int leader = cluster.leaderIndex().orElseThrow();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1",
                cluster.config(leader).clientAddress().port()).usePlaintext().build();
        try {
            var response = PlacementGrpc.newBlockingStub(channel).allocId(io.duetdb.proto.placement.AllocIdRequest
                    .newBuilder().setHeader(RequestHeader.newBuilder().setClusterId(clusterId + 1)).setCount(1).build());
            assertThat(response.getHeader().getError().getType()).isEqualTo(ErrorType.CLUSTER_ID_MISMATCH);
            assertThat(response.getHeader().getClusterId()).isEqualTo(clusterId);
        } finally {
            channel.shutdownNow();
        }
    }
}
