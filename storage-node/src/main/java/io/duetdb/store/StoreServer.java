package io.duetdb.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.placement.PlacementReadiness;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.datadir.DataDirectory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.net.ListenAddresses;
import io.duetdb.common.region.StorePeers;
import io.duetdb.common.status.Readiness.NotReady;
import io.duetdb.common.status.Readiness;
import io.duetdb.common.status.StatusServer;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.store.PushResolvedTsRequest;
import io.duetdb.raft.RaftNode;
import io.duetdb.raft.RaftNodeOptions;
import io.duetdb.store.engine.EngineException;
import io.duetdb.store.engine.rocksdb.RocksEngine;
import io.duetdb.store.internal.DiskMonitor;
import io.duetdb.store.internal.ImportService;
import io.duetdb.store.internal.KvService;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.TxnService;
import io.duetdb.store.internal.coprocessor.CoprocessorService;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.proto.StoreIdent;
import io.duetdb.store.internal.region.LeaderHandOver;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.region.RegionStorage;
import io.duetdb.store.internal.region.ResolvedTsAdvancer;
import io.duetdb.common.coprocessor.CoprocessorGrpcEndpoint;
import io.duetdb.store.internal.rpc.KvGrpcEndpoint;
import io.duetdb.store.internal.txn.GarbageCollector;
import io.duetdb.store.internal.txn.Latches;
import io.duetdb.store.internal.txn.LockWaits;
import io.duetdb.store.internal.txn.PlacementDeadlockDetector;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import io.duetdb.store.internal.rpc.StoreAdminGrpcEndpoint;
import io.duetdb.store.internal.rpc.StoreClients;
import io.duetdb.store.internal.schedule.Heartbeats;
import io.duetdb.store.internal.schedule.RegionMerger;
import io.duetdb.store.internal.schedule.RegionOperations;
import io.duetdb.store.internal.schedule.ReplicaCollector;
import io.duetdb.store.internal.snapshot.SnapshotTransfer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

/**
 * One storage node: its engine, one Raft server hosting a replica per region, the Kv and StoreAdmin gRPC
 * services, a status port, and the background work (heartbeats, scheduling steps, splits, replica clean-up).
 */
public final class StoreServer implements AutoCloseable {
    /** How long a resolved-timestamp round gathers its regions before pushing; later ones go alone. */
    private static final Duration RESOLVED_TS_BATCH_WAIT = Duration.ofMillis(5);
    private static final Logger LOG = LoggerFactory.getLogger(StoreServer.class);
    private static final String COMPONENT = "storage";
    private static final Duration READINESS_CHECK = Duration.ofMillis(500);
    /** Generous: a member that answers slowly (a loaded host) still counts as answering. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final StoreConfig config;
    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());
    private final Readiness readiness = new Readiness(LOG);
    private volatile long storeId;
    private StoreNode node;
    private StoreMetrics metrics;
    private Server grpcServer;
    private StatusServer statusServer;

    public StoreServer(StoreConfig config) {
        this.config = requireNonNull(config, "config is null").validate();
    }

    public StoreServer start() {
        MDC.put(NamedThreadFactory.MDC_COMPONENT, COMPONENT);
        try {
            doStart();
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        } finally {
            MDC.remove(NamedThreadFactory.MDC_COMPONENT);
            MDC.remove(NamedThreadFactory.MDC_NODE);
        }
    }

    private void doStart() {
        MDC.put(NamedThreadFactory.MDC_NODE, config.advertisedAddress().toString());
        DataDirectory dataDirectory = DataDirectory.open(config.dataDir(), COMPONENT);
        resources.add(dataDirectory);
        ListenAddresses.requireFree(config.address(), "store address");
        ListenAddresses.requireFree(config.raftAddress(), "store Raft address");
        RocksEngine engine;
        try {
            engine = RocksEngine.open(dataDirectory.resolve("db"), config.blockCacheSize().bytes());
        } catch (EngineException e) {
            throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "storage at " + config.dataDir()
                    + " cannot be opened: " + e.getMessage(), e);
        }
        resources.add(engine);
        DiskMonitor disk;
        try {
            disk = new DiskMonitor(dataDirectory.path(), config.reserveSpace().bytes());
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot read the disk of " + config.dataDir() + ": " + e);
        }
        StoreMetrics metrics = new StoreMetrics();
        this.metrics = metrics;
        // The status port comes up first: while the store waits for placement it tells what it waits for.
        statusServer = new StatusServer(COMPONENT, config.advertisedAddress().toString(), config.statusAddress(),
                metrics.registry(), this::status);
        statusServer.start();
        resources.add(statusServer);

        PlacementClient placement = new GrpcPlacementClient(PlacementClientConfig.of(config.pd()), "store");
        resources.add(placement);
        StoreIdent ident = RegionStorage.storeIdent(engine);
        RegisterStoreResponse registration = readiness.await(() -> register(placement, ident), READINESS_CHECK);
        storeId = registration.getStore().getId();
        String node = "store-" + storeId;
        MDC.put(NamedThreadFactory.MDC_NODE, node);
        if (ident == null) {
            RegionStorage.writeStoreIdent(engine, StoreIdent.newBuilder().setClusterId(placement.clusterId())
                    .setStoreId(storeId).build());
        } else if (ident.getClusterId() != placement.clusterId()) {
            throw new DuetException(ErrorCode.CLUSTER_ID_MISMATCH, "data directory " + config.dataDir()
                    + " belongs to cluster " + Long.toUnsignedString(ident.getClusterId()) + ", but placement at "
                    + config.pd() + " runs cluster " + Long.toUnsignedString(placement.clusterId()));
        }

        StoreClients clients = new StoreClients();
        resources.add(clients);
        ExecutorService proposalExecutor = Executors.newFixedThreadPool(2, new NamedThreadFactory(COMPONENT, node, "propose"));
        ScheduledExecutorService background = Executors.newScheduledThreadPool(4,
                new NamedThreadFactory(COMPONENT, node, "background"));
        ExecutorService slow = Executors.newFixedThreadPool(4, new NamedThreadFactory(COMPONENT, node, "admin"));
        ExecutorService heartbeatSenders = Executors.newFixedThreadPool(2, new NamedThreadFactory(COMPONENT, node, "heartbeat"));
        // Store heartbeats keep the store alive in placement's eyes: never behind slow background work.
        ScheduledExecutorService storeHeartbeat = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory(COMPONENT, node, "store-heartbeat"));
        resources.add(storeHeartbeat::shutdownNow);
        resources.add(proposalExecutor::shutdownNow);
        resources.add(() -> stopAndWait(background));
        resources.add(slow::shutdownNow);
        resources.add(heartbeatSenders::shutdownNow);

        SnapshotTransfer snapshots;
        try {
            snapshots = new SnapshotTransfer(engine, dataDirectory.resolve("snap"), clients, slow, metrics);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot prepare the snapshot directory: " + e);
        }
        RegionCache directory = new RegionCache(placement);
        this.node = new StoreNode(config, storeId, engine, directory, metrics, proposalExecutor, background, snapshots);
        snapshots.attach(this.node);
        RaftNode raftNode = new RaftNode(new RaftNodeOptions(StorePeers.raftPeerId(storeId), config.raftAddress().host(),
                config.raftAddress().port(), dataDirectory.resolve("raft"), config.electionTimeout(),
                config.electionTimeout().multipliedBy(2), config.raftSnapshotThreshold(), Duration.ofSeconds(10),
                config.raftServerThreads(), RaftNodeOptions.SnapshotTransfer.STATE_MACHINE), this.node::stateMachineFor);
        resources.add(() -> this.node.close());
        try {
            this.node.start(raftNode);
            if (registration.hasBootstrapRegion()) {
                this.node.bootstrap(registration.getBootstrapRegion());
            }
        } catch (IOException e) {
            throw new DuetException(e.getMessage() != null && e.getMessage().contains("already in use")
                    ? ErrorCode.ADDRESS_IN_USE : ErrorCode.UNKNOWN_ERROR,
                    "store " + storeId + ": cannot start Raft on " + config.raftAddress() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "store " + storeId
                    + ": the Raft logs under " + dataDirectory.resolve("raft") + " cannot be recovered (corrupt or unreadable): "
                    + causes(e), e);
        }

        KvService kv = new KvService(this.node, disk);
        GarbageCollector garbageCollector = new GarbageCollector(placement, engine, metrics);
        ExecutorService txnScheduler = Executors.newFixedThreadPool(4, new NamedThreadFactory(COMPONENT, node, "txn"));
        resources.add(() -> stopAndWait(txnScheduler));
        LockWaits lockWaits = new LockWaits(background, new PlacementDeadlockDetector(placement, slow),
                (nanos, outcome) -> metrics.lockWaitSeconds.labelValues(outcome.name().toLowerCase(Locale.ROOT))
                        .observe(nanos / 1e9));
        TxnService txn = new TxnService(this.node, kv, new Latches(config.latchSlots()), lockWaits, txnScheduler,
                garbageCollector::safePoint, () -> placement.getTimestampAsync().thenApply(ts -> ts.packed()),
                config.inMemoryPessimisticLocks(), metrics);
        RegionMerger merger = new RegionMerger(this.node, placement, clients);
        RegionOperations operations = new RegionOperations(this.node, placement, clients, merger, background, metrics,
                config.inMemoryPessimisticLocks() ? txn : LeaderHandOver.NONE);
        Heartbeats heartbeats = new Heartbeats(this.node, placement, operations, disk, heartbeatSenders);
        ReplicaCollector collector = new ReplicaCollector(this.node, placement);
        this.node.onMembershipChange(() -> background.execute(() -> reconcileAll(operations)));

        BufferAllocator arrowMemory = new RootAllocator(config.coprocessorMemory().bytes());
        resources.add(() -> {
            try {
                arrowMemory.close();
            } catch (IllegalStateException e) {
                LOG.info("store {}: coprocessor memory still held at close: {}", storeId, e.getMessage());
            }
        });
        ExecutorService coprocessorExecutor = Executors.newFixedThreadPool(4, new NamedThreadFactory(COMPONENT, node,
                "coprocessor"));
        resources.add(() -> stopAndWait(coprocessorExecutor));
        CoprocessorService coprocessor = new CoprocessorService(txn, arrowMemory, coprocessorExecutor, metrics);
        ExecutorService rpcExecutor = Executors.newFixedThreadPool(16, new NamedThreadFactory(COMPONENT, node, "rpc"));
        resources.add(rpcExecutor::shutdownNow);
        try {
            grpcServer = NettyServerBuilder.forAddress(new InetSocketAddress(config.address().host(), config.address().port()))
                    .executor(rpcExecutor)
                    .callExecutor(KvGrpcEndpoint.INLINE_CALLS)
                    .maxInboundMessageSize(64 << 20)
                    .addService(new KvGrpcEndpoint(kv, txn, new ImportService(kv, garbageCollector::safePoint), metrics,
                            rpcExecutor))
                    .addService(new CoprocessorGrpcEndpoint(coprocessor))
                    .addService(new StoreAdminGrpcEndpoint(this.node, operations, merger, snapshots, slow))
                    .build()
                    .start();
        } catch (IOException e) {
            if (isAddressInUse(e)) {
                throw new DuetException(ErrorCode.ADDRESS_IN_USE, "store " + storeId + ": address " + config.address()
                        + " is already in use");
            }
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "store " + storeId + ": cannot listen on " + config.address()
                    + ": " + e.getMessage(), e);
        }
        resources.add(() -> {
            grpcServer.shutdownNow();
            grpcServer.awaitTermination(5, TimeUnit.SECONDS);
        });

        metrics.gauge("duet_store_regions", "Region replicas on this store", () -> this.node.peers().size());
        metrics.gauge("duet_store_leaders", "Regions this store leads",
                () -> this.node.peers().stream().filter(RegionPeer::isLeaderReady).count());
        metrics.gauge("duet_store_disk_available_bytes", "Free bytes on the data directory's disk", disk::availableBytes);
        background.scheduleWithFixedDelay(guard("disk check", disk::refresh), 1, 1, TimeUnit.SECONDS);
        storeHeartbeat.scheduleWithFixedDelay(guard("store heartbeat", heartbeats::sendStoreHeartbeat), 0,
                config.storeHeartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("region heartbeats", heartbeats::sendRegionHeartbeats), 200, 200,
                TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("reconcile", () -> reconcileAll(operations)), 2, 2, TimeUnit.SECONDS);
        background.scheduleWithFixedDelay(guard("split check", operations::checkSplits),
                config.splitCheckInterval().toMillis(), config.splitCheckInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("replica collection", collector::collect),
                config.replicaGcInterval().toMillis(), config.replicaGcInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("garbage collection", () -> garbageCollector.collect(this.node.peers())),
                config.gcRunInterval().toMillis(), config.gcRunInterval().toMillis(), TimeUnit.MILLISECONDS);
        ResolvedTsAdvancer resolvedTs = new ResolvedTsAdvancer(this.node::peers,
                () -> placement.getTimestampAsync().thenApply(ts -> ts.packed()),
                (learnerStore, regions) -> CompletableFuture.supplyAsync(() -> this.node.addressOf(learnerStore), background)
                        .thenCompose(address -> clients.pushResolvedTs(address, PushResolvedTsRequest.newBuilder()
                                .setLeaderStoreId(storeId).addAllRegions(regions).build())),
                new ResolvedTsAdvancer.Observer() {
                    @Override
                    public void proposed() {
                        metrics.resolvedTsProposals.inc();
                    }

                    @Override
                    public void pushed(int regions) {
                        metrics.resolvedTsPushes.inc(regions);
                    }
                }, RESOLVED_TS_BATCH_WAIT);
        background.scheduleWithFixedDelay(guard("resolved timestamps", resolvedTs::advance),
                config.resolvedTsInterval().toMillis(), config.resolvedTsInterval().toMillis(), TimeUnit.MILLISECONDS);
        metrics.gauge("duet_store_lock_waiters", "Pessimistic lock requests waiting for a lock", lockWaits::waiting);
        metrics.gauge("duet_store_one_pc_inflight_keys", "Keys of one-phase commits not applied yet (their readers wait)",
                txn::inflightOnePhaseKeys);
        readiness.serving();
        LOG.info("store {} started: address {} raft {} status http://{}/ data {} ({} regions)", storeId,
                address(), config.raftAddress(), statusServer.boundAddress(), config.dataDir(), this.node.peers().size());
    }

    /** The distinct messages of an exception and its causes, innermost last. */
    private static String causes(Throwable error) {
        List<String> messages = new ArrayList<>();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String message = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : " " + cause.getMessage());
            if (messages.stream().noneMatch(message::contains)) {
                messages.add(message);
            }
        }
        return String.join(": ", messages);
    }

    /** Registers once placement serves; a placement that does not answer yet is waited for, not an error. */
    private RegisterStoreResponse register(PlacementClient placement, StoreIdent ident) throws NotReady {
        PlacementReadiness.check(config.pd(), PROBE_TIMEOUT);
        Store.Builder store = Store.newBuilder()
                .setId(ident == null ? 0 : ident.getStoreId())
                .setAddress(config.advertisedAddress().toString())
                .setRaftAddress(config.advertisedRaftAddress().toString())
                .setStatusAddress(config.advertisedStatusAddress().toString())
                .setVersion(BuildInfo.version());
        for (Map.Entry<String, String> label : config.labels().entrySet()) {
            store.addLabels(StoreLabel.newBuilder().setKey(label.getKey()).setValue(label.getValue()));
        }
        RegisterStoreResponse response;
        try {
            response = placement.registerStore(store.build());
        } catch (DuetException e) {
            if (e.code() == ErrorCode.PLACEMENT_SERVER_TIMEOUT) {
                throw new NotReady(PlacementReadiness.LEADER, e.getMessage());
            }
            throw e;
        }
        LOG.info("registered with placement as store {} (cluster {})", response.getStore().getId(),
                Long.toUnsignedString(placement.clusterId()));
        return response;
    }

    private void reconcileAll(RegionOperations operations) {
        for (RegionPeer peer : node.peers()) {
            if (peer.isLeaderReady()) {
                operations.reconcile(peer);
            }
        }
    }

    private Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("store {}: {} failed: {}", storeId, what, e.toString());
            }
        };
    }

    private static boolean isAddressInUse(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException || String.valueOf(cause.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>(readiness.status());
        status.put("component", "storage");
        status.put("store_id", storeId);
        status.put("version", BuildInfo.version());
        status.put("address", config.advertisedAddress().toString());
        status.put("raft_address", config.advertisedRaftAddress().toString());
        StoreNode current = node;
        if (current != null) {
            status.put("regions", current.peers().size());
            status.put("leaders", current.peers().stream().filter(RegionPeer::isLeaderReady).count());
        }
        StoreMetrics currentMetrics = metrics;
        if (currentMetrics != null) {
            status.put("raft_proposals", (long) currentMetrics.proposals.get());
            status.put("raft_proposed_commands", (long) currentMetrics.proposedCommands.get());
        }
        return status;
    }

    public long storeId() {
        return storeId;
    }

    public HostAndPort address() {
        return new HostAndPort(config.address().host(), grpcServer.getPort());
    }

    public HostAndPort statusAddress() {
        return statusServer.boundAddress();
    }

    public StoreConfig config() {
        return config;
    }

    /** The number of regions this store leads (for tests and the playground). */
    public long leaderCount() {
        StoreNode current = node;
        return current == null ? 0 : current.peers().stream().filter(RegionPeer::isLeaderReady).count();
    }

    /** Stops an executor and waits for its running tasks, which may be reading the engine that closes next. */
    private void stopAndWait(ExecutorService executor) throws InterruptedException {
        executor.shutdownNow();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
            LOG.warn("store {}: a task did not stop within 10 s of being interrupted", storeId);
        }
    }

    @Override
    public void close() {
        readiness.stop();
        List<AutoCloseable> reversed;
        synchronized (resources) {
            reversed = new ArrayList<>(resources);
            resources.clear();
        }
        Collections.reverse(reversed);
        for (AutoCloseable resource : reversed) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("store {}: error while stopping: {}", storeId, e.toString());
            }
        }
        if (node != null) {
            LOG.info("store {} stopped", storeId);
            node = null;
        }
    }
}
