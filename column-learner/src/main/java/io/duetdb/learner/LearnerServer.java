package io.duetdb.learner;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.placement.PlacementReadiness;
import io.duetdb.client.region.RegionCache;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.coprocessor.CoprocessorGrpcEndpoint;
import io.duetdb.common.datadir.DataDirectory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.net.ListenAddresses;
import io.duetdb.common.region.StorePeers;
import io.duetdb.common.status.Readiness;
import io.duetdb.common.status.Readiness.NotReady;
import io.duetdb.common.status.StatusServer;
import io.duetdb.common.time.Timestamp;
import io.duetdb.learner.internal.LearnerCoprocessor;
import io.duetdb.learner.internal.LearnerNode;
import io.duetdb.learner.internal.ReplicationLag;
import io.duetdb.learner.internal.metrics.LearnerMetrics;
import io.duetdb.learner.internal.mpp.MppGrpcEndpoint;
import io.duetdb.learner.internal.mpp.MppTaskManager;
import io.duetdb.learner.internal.proto.LearnerIdent;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.learner.internal.rpc.LearnerAdminGrpcEndpoint;
import io.duetdb.learner.internal.schema.CatalogSchemaSource;
import io.duetdb.learner.internal.schema.TableSchemas;
import io.duetdb.learner.internal.stable.PackFiles;
import io.duetdb.learner.internal.stable.StableMerger;
import io.duetdb.learner.internal.snapshot.SnapshotFetcher;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreLabel;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.StoreStats;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftNode;
import io.duetdb.raft.RaftNodeOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

/**
 * One column learner: a store that placement gives learner replicas only (label engine = columnar). It hosts a
 * Raft listener per replicated region, replays the regions' logs into its own storage, and serves coprocessor
 * reads at a timestamp. It waits for placement at start, as the other components do.
 */
public final class LearnerServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerServer.class);
    private static final String COMPONENT = "learner";
    private static final Duration READINESS_CHECK = Duration.ofMillis(500);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final LearnerConfig config;
    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());
    private final Map<HostAndPort, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final Readiness readiness = new Readiness(LOG);
    private final long startTimeMillis = System.currentTimeMillis();
    private volatile long storeId;
    private volatile LearnerNode node;
    private Server grpcServer;
    private StatusServer statusServer;

    public LearnerServer(LearnerConfig config) {
        this.config = requireNonNull(config, "config is null").validate();
    }

    public LearnerServer start() {
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
        ListenAddresses.requireFree(config.address(), "learner address");
        ListenAddresses.requireFree(config.raftAddress(), "learner Raft address");
        LearnerMetrics metrics = new LearnerMetrics();
        statusServer = new StatusServer(COMPONENT, config.advertisedAddress().toString(), config.statusAddress(),
                metrics.registry(), this::status);
        statusServer.start();
        resources.add(statusServer);

        PlacementClient placement = new GrpcPlacementClient(PlacementClientConfig.of(config.pd()), COMPONENT);
        resources.add(placement);
        Path identFile = dataDirectory.resolve("ident");
        LearnerIdent ident = readIdent(identFile);
        RegisterStoreResponse registration = readiness.await(() -> register(placement, ident), READINESS_CHECK);
        storeId = registration.getStore().getId();
        String nodeName = "learner-" + storeId;
        MDC.put(NamedThreadFactory.MDC_NODE, nodeName);
        if (ident == null) {
            writeIdent(identFile, LearnerIdent.newBuilder().setClusterId(placement.clusterId()).setStoreId(storeId).build());
        } else if (ident.getClusterId() != placement.clusterId()) {
            throw new DuetException(ErrorCode.CLUSTER_ID_MISMATCH, "data directory " + config.dataDir()
                    + " belongs to cluster " + Long.toUnsignedString(ident.getClusterId()) + ", but placement at "
                    + config.pd() + " runs cluster " + Long.toUnsignedString(placement.clusterId()));
        }
        resources.add(this::closeChannels);

        ScheduledExecutorService background = Executors.newScheduledThreadPool(2,
                new NamedThreadFactory(COMPONENT, nodeName, "background"));
        resources.add(background::shutdownNow);
        ExecutorService snapshots = Executors.newFixedThreadPool(2, new NamedThreadFactory(COMPONENT, nodeName, "snapshot"));
        resources.add(snapshots::shutdownNow);
        RegionCache directory = new RegionCache(placement);
        TxnClient catalogClient = new TxnClient(placement);
        resources.add(catalogClient);
        TableSchemas schemas = new TableSchemas(new CatalogSchemaSource(catalogClient));
        BufferAllocator packMemory = new RootAllocator(256L << 20);
        resources.add(packMemory);
        PackFiles packs = new PackFiles(dataDirectory.resolve("packs"), packMemory);
        StableMerger merger = new StableMerger(schemas, packs::nextId);
        SnapshotFetcher fetcher = new SnapshotFetcher(id -> storeAddress(directory, id),
                id -> StoreAdminGrpc.newBlockingStub(channel(storeAddress(directory, id))), snapshots,
                metrics.snapshotsInstalled::inc);
        LearnerNode learner = new LearnerNode(storeId, config.advertisedRaftAddress(), dataDirectory.resolve("replicas"),
                packs, merger, directory, fetcher, background, metrics);
        RaftNode raftNode = new RaftNode(new RaftNodeOptions(StorePeers.raftPeerId(storeId), config.raftAddress().host(),
                config.raftAddress().port(), dataDirectory.resolve("raft"), Duration.ofSeconds(1), Duration.ofSeconds(2),
                config.raftSnapshotThreshold(), Duration.ofSeconds(10), 0, RaftNodeOptions.SnapshotTransfer.STATE_MACHINE),
                learner::stateMachineFor);
        resources.add(learner);
        try {
            learner.start(raftNode);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "learner " + storeId
                    + ": its replicas under " + config.dataDir() + " cannot be recovered: " + e.getMessage(), e);
        }
        this.node = learner;

        BufferAllocator arrowMemory = new RootAllocator(config.coprocessorMemory().bytes());
        resources.add(() -> {
            try {
                arrowMemory.close();
            } catch (IllegalStateException e) {
                LOG.info("learner {}: coprocessor memory still held at close: {}", storeId, e.getMessage());
            }
        });
        ExecutorService coprocessorExecutor = Executors.newFixedThreadPool(4,
                new NamedThreadFactory(COMPONENT, nodeName, "coprocessor"));
        resources.add(coprocessorExecutor::shutdownNow);
        ExecutorService rpcExecutor = Executors.newFixedThreadPool(8, new NamedThreadFactory(COMPONENT, nodeName, "rpc"));
        resources.add(rpcExecutor::shutdownNow);
        LearnerCoprocessor coprocessor = new LearnerCoprocessor(learner, arrowMemory, coprocessorExecutor,
                config.readWaitTimeout(), metrics);
        ExecutorService mppThreads = Executors.newCachedThreadPool(new NamedThreadFactory(COMPONENT, nodeName, "mpp"));
        resources.add(mppThreads::shutdownNow);
        MppTaskManager mpp = new MppTaskManager(learner, arrowMemory, mppThreads, config.readWaitTimeout(), metrics);
        resources.add(mpp::close);
        metrics.gauge("duet_learner_mpp_running_tasks", "MPP tasks whose operators are running",
                mpp::runningTasks);
        try {
            grpcServer = NettyServerBuilder.forAddress(new InetSocketAddress(config.address().host(), config.address().port()))
                    .executor(rpcExecutor)
                    .maxInboundMessageSize(64 << 20)
                    .addService(new CoprocessorGrpcEndpoint(coprocessor))
                    .addService(new MppGrpcEndpoint(mpp))
                    .addService(new LearnerAdminGrpcEndpoint(learner, rpcExecutor))
                    .build()
                    .start();
        } catch (IOException e) {
            throw new DuetException(isAddressInUse(e) ? ErrorCode.ADDRESS_IN_USE : ErrorCode.UNKNOWN_ERROR,
                    "learner " + storeId + ": cannot listen on " + config.address() + ": " + e.getMessage(), e);
        }
        resources.add(() -> {
            grpcServer.shutdownNow();
            grpcServer.awaitTermination(5, TimeUnit.SECONDS);
        });

        metrics.gauge("duet_learner_regions", "Region replicas on this learner", () -> learner.replicas().size());
        metrics.gauge("duet_learner_delta_versions", "Row versions in the replicas' deltas (not yet in column packs)",
                () -> learner.replicas().stream().mapToLong(replica -> replica.layers().deltaVersions()).sum());
        metrics.gauge("duet_learner_stable_versions", "Row versions in the replicas' column packs",
                () -> learner.replicas().stream().mapToLong(replica -> replica.layers().stable().rows()).sum());
        metrics.gauge("duet_learner_stable_bytes", "Memory the replicas' column packs take (approximate)",
                () -> learner.replicas().stream().mapToLong(replica -> replica.layers().stable().bytes()).sum());
        metrics.gauge("duet_learner_pending_prewrites", "Prewrites held until their transactions commit or roll back",
                () -> learner.replicas().stream().mapToLong(replica -> replica.layers().active().pendingCount()).sum());
        metrics.gauge("duet_learner_schema_version", "The catalog schema version the learner decodes rows with",
                schemas::version);
        metrics.gaugeByRegion("duet_learner_replication_lag_entries",
                "Log entries committed in the region but not yet applied by this learner", callback -> {
                    for (ColumnarRegion replica : learner.replicas()) {
                        callback.call(learner.lag(replica).entries(), Long.toString(replica.regionId()));
                    }
                });
        metrics.gaugeByRegion("duet_learner_replication_lag_seconds",
                "How long the region's replica has been behind its committed entries (0 when caught up)", callback -> {
                    for (ColumnarRegion replica : learner.replicas()) {
                        callback.call(learner.lag(replica).seconds(), Long.toString(replica.regionId()));
                    }
                });
        metrics.gaugeByRegion("duet_learner_resolved_ts_lag_seconds",
                "How far the replica's resolved timestamp (reads at or below it need no leader) is behind the clock;"
                        + " absent while none is known", callback -> {
                    for (ColumnarRegion replica : learner.replicas()) {
                        if (replica.resolvedTs() > 0) {
                            callback.call(resolvedTsLagSeconds(replica), Long.toString(replica.regionId()));
                        }
                    }
                });
        background.scheduleWithFixedDelay(guard("store heartbeat", () -> sendStoreHeartbeat(placement)), 0,
                config.storeHeartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("replica collection", () -> collectReplicas(placement)),
                config.replicaGcInterval().toMillis(), config.replicaGcInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("garbage collection",
                () -> learner.collectGarbage(placement.getGcSafePoint().getSafePoint())),
                config.gcRunInterval().toMillis(), config.gcRunInterval().toMillis(), TimeUnit.MILLISECONDS);
        ScheduledExecutorService merges = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory(COMPONENT, nodeName, "merge"));
        resources.add(merges::shutdownNow);
        merges.scheduleWithFixedDelay(guard("delta merge", () -> learner.mergeDeltas(config.deltaMergeRows(),
                config.deltaMergeRatio())),
                config.mergeCheckInterval().toMillis(), config.mergeCheckInterval().toMillis(), TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("schema sync", schemas::sync), 0, config.schemaSyncInterval().toMillis(),
                TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("missing replicas", () -> createMissingReplicas(placement)),
                config.storeHeartbeatInterval().toMillis(), config.storeHeartbeatInterval().toMillis(),
                TimeUnit.MILLISECONDS);
        readiness.serving();
        LOG.info("learner {} started: address {} raft {} status http://{}/ data {} ({} replicas)", storeId, address(),
                config.raftAddress(), statusServer.boundAddress(), config.dataDir(), learner.replicas().size());
    }

    private static HostAndPort storeAddress(RegionCache directory, long storeId) {
        return HostAndPort.parse(directory.store(storeId).getStore().getAddress());
    }

    private ManagedChannel channel(HostAndPort address) {
        return channels.computeIfAbsent(address, a -> NettyChannelBuilder.forAddress(a.host(), a.port()).usePlaintext()
                .maxInboundMessageSize(64 << 20).build());
    }

    private void closeChannels() {
        List<ManagedChannel> open = List.copyOf(channels.values());
        channels.clear();
        open.forEach(ManagedChannel::shutdownNow);
    }

    private RegisterStoreResponse register(PlacementClient placement, LearnerIdent ident) throws NotReady {
        PlacementReadiness.check(config.pd(), PROBE_TIMEOUT);
        Store.Builder store = Store.newBuilder()
                .setId(ident == null ? 0 : ident.getStoreId())
                .setAddress(config.advertisedAddress().toString())
                .setRaftAddress(config.advertisedRaftAddress().toString())
                .setStatusAddress(config.advertisedStatusAddress().toString())
                .setVersion(BuildInfo.version());
        for (Map.Entry<String, String> label : config.storeLabels().entrySet()) {
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
        LOG.info("registered with placement as learner store {} (cluster {})", response.getStore().getId(),
                Long.toUnsignedString(placement.clusterId()));
        return response;
    }

    private void sendStoreHeartbeat(PlacementClient placement) {
        LearnerNode current = node;
        long regions = current == null ? 0 : current.replicas().stream().filter(replica -> replica.region() != null).count();
        long used = 0;
        try {
            used = Files.size(config.dataDir());
        } catch (IOException e) {
            // Reported as unknown.
        }
        placement.storeHeartbeat(StoreStats.newBuilder().setStoreId(storeId).setRegionCount((int) regions)
                .setLeaderCount(0).setUsedBytes(used).setStartTimeMs(startTimeMillis).build());
    }

    /**
     * Removes replicas whose regions no longer list this learner (placement removed it while this learner was away)
     * and regions that placement no longer knows (merged away).
     */
    private void collectReplicas(PlacementClient placement) {
        LearnerNode current = node;
        if (current == null) {
            return;
        }
        for (ColumnarRegion replica : current.replicas()) {
            Region local = replica.region();
            if (local == null) {
                continue;
            }
            Optional<RegionInfo> known = placement.getRegionById(local.getId());
            if (known.isEmpty()) {
                continue;
            }
            Region region = known.get().getRegion();
            Optional<Long> own = peerIdOnThisStore(local);
            boolean listed = own.isPresent() && own.equals(peerIdOnThisStore(region));
            if (!listed && region.getEpoch().getConfVersion() > local.getEpoch().getConfVersion()) {
                current.destroy(replica, peerIdOnThisStore(region).isEmpty()
                        ? "placement's record of the region no longer lists this learner"
                        : "placement's record of the region lists a newer peer on this learner");
            }
        }
    }

    private Optional<Long> peerIdOnThisStore(Region region) {
        return region.getPeersList().stream().filter(peer -> peer.getStoreId() == storeId).map(Peer::getId).findFirst();
    }

    /** Creates replicas that placement lists on this learner but that it does not host (see LearnerNode#createMissing). */
    private void createMissingReplicas(PlacementClient placement) {
        LearnerNode current = node;
        if (current == null) {
            return;
        }
        for (RegionInfo region : placement.scanRegions(new byte[0], new byte[0], 0)) {
            if (current.replica(region.getRegion().getId()).isEmpty()) {
                current.createMissing(region.getRegion());
            }
        }
    }

    private static LearnerIdent readIdent(Path file) {
        try {
            return Files.exists(file) ? LearnerIdent.parseFrom(Files.readAllBytes(file)) : null;
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeIdent(Path file, LearnerIdent ident) {
        try {
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(temporary, ident.toByteArray());
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("learner {}: {} failed: {}", storeId, what, e.toString());
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
        status.put("component", COMPONENT);
        status.put("store_id", storeId);
        status.put("version", BuildInfo.version());
        status.put("address", config.advertisedAddress().toString());
        status.put("raft_address", config.advertisedRaftAddress().toString());
        LearnerNode current = node;
        if (current != null) {
            status.put("regions", current.replicas().size());
            List<Map<String, Object>> replicas = new ArrayList<>();
            for (ColumnarRegion replica : current.replicas()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("region_id", replica.regionId());
                Region region = replica.region();
                entry.put("start_key", region == null ? null : HexFormat.of().formatHex(region.getStartKey().toByteArray()));
                entry.put("end_key", region == null ? null : HexFormat.of().formatHex(region.getEndKey().toByteArray()));
                entry.put("applied_index", replica.applied().index());
                entry.put("commit_index", current.group(replica.regionId()).map(RaftGroupHandle::commitIndex).orElse(-1L));
                ReplicationLag lag = current.lag(replica);
                entry.put("lag_entries", lag.entries());
                entry.put("lag_seconds", lag.seconds());
                entry.put("delta_versions", replica.layers().deltaVersions());
                entry.put("stable_versions", replica.layers().stable().rows());
                entry.put("stable_slices", replica.layers().stable().slices().size());
                entry.put("pending_prewrites", replica.layers().active().pendingCount());
                entry.put("resolved_ts", replica.resolvedTs());
                entry.put("resolved_ts_lag_seconds", replica.resolvedTs() > 0 ? resolvedTsLagSeconds(replica) : null);
                replicas.add(entry);
            }
            status.put("replicas", replicas);
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

    public LearnerConfig config() {
        return config;
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
                LOG.warn("learner {}: error while stopping: {}", storeId, e.toString());
            }
        }
        if (node != null) {
            LOG.info("learner {} stopped", storeId);
            node = null;
        }
    }

    private static double resolvedTsLagSeconds(ColumnarRegion replica) {
        return (System.currentTimeMillis() - Timestamp.fromPacked(replica.resolvedTs()).physical()) / 1e3;
    }
}
