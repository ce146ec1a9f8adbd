package io.duetdb.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.learner.LearnerConfig;
import io.duetdb.learner.LearnerServer;
import io.duetdb.placement.PlacementConfig;
import io.duetdb.store.StoreConfig;
import io.duetdb.store.StoreServer;

/**
 * Placement members, storage nodes and column learners in this JVM on free loopback ports: real Ratis, RocksDB
 * and gRPC. Stores and learners can be stopped and started again on their data.
 */
public final class LocalCluster implements AutoCloseable {
    private final Path root;
    private final LocalPlacementCluster placement;
    private final List<StoreConfig> storeConfigs = new ArrayList<>();
    private final List<StoreServer> stores = new ArrayList<>();
    private final Consumer<StoreConfig> customiseStore;
    private final List<LearnerConfig> learnerConfigs = new ArrayList<>();
    private final List<LearnerServer> learners = new ArrayList<>();

    public LocalCluster(Path root, int placementMembers, Consumer<PlacementConfig> customisePlacement,
            Consumer<StoreConfig> customiseStore) {
        this.root = root;
        this.placement = new LocalPlacementCluster(root.resolve("pd"), placementMembers, config -> {
            config.setStoreDisconnectTime(Duration.ofSeconds(5)).setMaxStoreDownTime(Duration.ofSeconds(20))
                    .setScheduleInterval(Duration.ofSeconds(1));
            customisePlacement.accept(config);
        });
        this.customiseStore = customiseStore;
    }

    public LocalCluster start(int storeCount) {
        placement.start();
        placement.awaitLeader(Duration.ofSeconds(60));
        for (int i = 0; i < storeCount; i++) {
            addStore();
        }
        return this;
    }

    /** Adds and starts one more store; returns its index. */
    public int addStore() {
        int index = storeConfigs.size();
        StoreConfig config = new StoreConfig()
                .setDataDir(root.resolve("store-" + index))
                .setPd(placement.clientAddresses())
                .setAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setRaftAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setStatusAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setElectionTimeout(Duration.ofMillis(500))
                .setRegionHeartbeatInterval(Duration.ofSeconds(1))
                .setStoreHeartbeatInterval(Duration.ofSeconds(1))
                .setReplicaGcInterval(Duration.ofSeconds(5))
                .setBlockCacheSize(DataSize.ofMebibytes(16))
                .setReserveSpace(DataSize.ofMebibytes(64));
        customiseStore.accept(config);
        storeConfigs.add(config);
        stores.add(null);
        startStore(index);
        return index;
    }

    /** Adds and starts a column learner (a store for learner replicas only); returns its index. */
    public int addLearner() {
        return addLearner(UnaryOperator.identity());
    }

    /** Adds and starts a column learner with settings changed by {@code tuning}; returns its index. */
    public int addLearner(UnaryOperator<LearnerConfig> tuning) {
        int index = learnerConfigs.size();
        LearnerConfig config = new LearnerConfig()
                .setDataDir(root.resolve("learner-" + index))
                .setPd(placement.clientAddresses())
                .setAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setRaftAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setStatusAddress(new HostAndPort("127.0.0.1", LocalPlacementCluster.freePort()))
                .setStoreHeartbeatInterval(Duration.ofSeconds(1))
                .setReplicaGcInterval(Duration.ofSeconds(5));
        config = tuning.apply(config);
        learnerConfigs.add(config);
        learners.add(null);
        startLearner(index);
        return index;
    }

    public LearnerServer startLearner(int index) {
        LearnerServer server = new LearnerServer(learnerConfigs.get(index)).start();
        learners.set(index, server);
        return server;
    }

    public void stopLearner(int index) {
        LearnerServer server = learners.get(index);
        if (server != null) {
            server.close();
            learners.set(index, null);
        }
    }

    public LearnerConfig learnerConfig(int index) {
        return learnerConfigs.get(index);
    }

    public Optional<LearnerServer> learner(int index) {
        return Optional.ofNullable(learners.get(index));
    }

    public StoreServer startStore(int index) {
        StoreServer server = new StoreServer(storeConfigs.get(index)).start();
        stores.set(index, server);
        return server;
    }

    public void stopStore(int index) {
        StoreServer server = stores.get(index);
        if (server != null) {
            server.close();
            stores.set(index, null);
        }
    }

    public Optional<StoreServer> store(int index) {
        return Optional.ofNullable(stores.get(index));
    }

    public StoreConfig storeConfig(int index) {
        return storeConfigs.get(index);
    }

    /** Raft entries the running stores' region leaders have proposed so far (their status counters summed). */
    public long raftProposals() {
        long proposals = 0;
        for (int i = 0; i < storeCount(); i++) {
            Optional<StoreServer> store = store(i);
            if (store.isPresent()) {
                proposals += (Long) store.get().status().get("raft_proposals");
            }
        }
        return proposals;
    }

    public int storeCount() {
        return storeConfigs.size();
    }

    public LocalPlacementCluster placement() {
        return placement;
    }

    public PlacementClient newPlacementClient() {
        return placement.newClient();
    }

    public RawKvClient newRawKvClient(PlacementClient placementClient) {
        return new RawKvClient(placementClient);
    }

    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what);
            }
        }
    }

    @Override
    public void close() {
        for (int i = learners.size() - 1; i >= 0; i--) {
            stopLearner(i);
        }
        for (int i = stores.size() - 1; i >= 0; i--) {
            stopStore(i);
        }
        placement.close();
    }
}
