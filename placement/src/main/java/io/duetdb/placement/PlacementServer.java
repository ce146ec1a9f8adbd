package io.duetdb.placement;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.datadir.DataDirectory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.net.ListenAddresses;
import io.duetdb.common.status.Readiness;
import io.duetdb.common.status.StatusServer;
import io.duetdb.placement.internal.MemberReachability;
import io.duetdb.placement.internal.PlacementService;
import io.duetdb.placement.internal.metrics.PlacementMetrics;
import io.duetdb.placement.internal.rpc.PlacementGrpcEndpoint;
import io.duetdb.placement.internal.state.PlacementStateMachine;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftGroupKey;
import io.duetdb.raft.RaftNode;
import io.duetdb.raft.RaftNodeOptions;
import io.duetdb.raft.RaftPeerSpec;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

/**
 * One placement member: its Raft replica of the placement state, the client gRPC service, the status
 * port, and the leader's background work (TSO window and lease, liveness, balancing).
 */
public final class PlacementServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementServer.class);
    private static final String COMPONENT = "placement";
    private static final long TICK_MILLIS = 20;
    private static final Duration READINESS_CHECK = Duration.ofMillis(500);
    private static final Duration PEER_PROBE_TIMEOUT = Duration.ofMillis(200);

    private final PlacementConfig config;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Readiness readiness = new Readiness(LOG);
    private volatile PlacementService service;
    private Server grpcServer;
    private StatusServer statusServer;
    private RaftNode raftNode;

    public PlacementServer(PlacementConfig config) {
        this.config = requireNonNull(config, "config is null").validate();
    }

    /** Starts every part; on failure closes what started and throws a one-line {@link DuetException}. */
    public PlacementServer start() {
        MDC.put(NamedThreadFactory.MDC_COMPONENT, COMPONENT);
        MDC.put(NamedThreadFactory.MDC_NODE, config.name());
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
        DataDirectory dataDirectory = DataDirectory.open(config.dataDir(), COMPONENT);
        resources.add(dataDirectory);
        String version = BuildInfo.version();
        PlacementMetrics metrics = new PlacementMetrics();
        PlacementStateMachine stateMachine = new PlacementStateMachine();
        service = new PlacementService(config, stateMachine, metrics, version);
        ListenAddresses.requireFree(config.clientAddress(), "placement " + config.name() + ": client address");
        // The status port comes up first: while this member waits for a leader it tells what it waits for.
        statusServer = new StatusServer(COMPONENT, config.name(), config.statusAddress(), metrics.registry(), this::status);
        statusServer.start();
        resources.add(statusServer);

        List<RaftPeerSpec> peers = new ArrayList<>();
        for (Map.Entry<String, HostAndPort> member : config.initialClusterMembers().entrySet()) {
            peers.add(RaftPeerSpec.voter(member.getKey(), member.getValue().toString()));
        }
        raftNode = new RaftNode(new RaftNodeOptions(config.name(), config.peerAddress().host(),
                config.peerAddress().port(), dataDirectory.resolve("raft"), config.electionTimeout(),
                config.electionTimeout().multipliedBy(2), config.snapshotThreshold(),
                config.electionTimeout().multipliedBy(5), 0, RaftNodeOptions.SnapshotTransfer.RATIS_FILES), key -> {
                    if (!key.equals(RaftGroupKey.placement())) {
                        throw new IllegalStateException("placement data directory holds a foreign Raft group " + key);
                    }
                    return stateMachine;
                });
        resources.add(() -> raftNode.close());
        RaftGroupHandle handle;
        try {
            handle = raftNode.start(RaftGroupKey.placement(), peers);
        } catch (IOException e) {
            throw new DuetException(e.getMessage() != null && e.getMessage().contains("already in use")
                    ? ErrorCode.ADDRESS_IN_USE : ErrorCode.UNKNOWN_ERROR,
                    "placement " + config.name() + ": cannot start Raft on " + config.peerAddress() + ": " + e.getMessage(), e);
        }
        service.attach(handle);
        checkReadiness(handle);

        ExecutorService rpcExecutor = Executors.newFixedThreadPool(8, new NamedThreadFactory(COMPONENT, config.name(), "rpc"));
        resources.add(rpcExecutor::shutdownNow);
        try {
            grpcServer = NettyServerBuilder.forAddress(new InetSocketAddress(config.clientAddress().host(),
                            config.clientAddress().port()))
                    .executor(rpcExecutor)
                    .addService(new PlacementGrpcEndpoint(service, metrics))
                    .build()
                    .start();
        } catch (IOException e) {
            if (isAddressInUse(e)) {
                throw new DuetException(ErrorCode.ADDRESS_IN_USE, "placement " + config.name() + ": client address "
                        + config.clientAddress() + " is already in use");
            }
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "placement " + config.name() + ": cannot listen on "
                    + config.clientAddress() + ": " + e.getMessage(), e);
        }
        resources.add(() -> {
            grpcServer.shutdownNow();
            grpcServer.awaitTermination(5, TimeUnit.SECONDS);
        });

        metrics.gauge("duet_placement_is_leader", "1 when this member is the ready leader",
                () -> service.isReadyLeader() ? 1 : 0);
        metrics.gauge("duet_placement_raft_term", "Current Raft term", () -> handle.currentTerm());
        metrics.gauge("duet_placement_raft_applied_index", "Last applied Raft index", () -> handle.lastAppliedIndex());
        metrics.gauge("duet_placement_regions", "Regions in the registry", () -> service.regionCount());
        metrics.gauge("duet_placement_operators", "Scheduling operators running", () -> service.operatorCount());

        ScheduledExecutorService background = Executors.newScheduledThreadPool(2,
                new NamedThreadFactory(COMPONENT, config.name(), "background"));
        resources.add(background::shutdownNow);
        background.scheduleWithFixedDelay(guard("tick", service::tick), TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("liveness", service::checkLiveness), 1, 1, TimeUnit.SECONDS);
        background.scheduleWithFixedDelay(guard("publish member", service::publishMember), 0, 1, TimeUnit.SECONDS);
        long interval = config.scheduleInterval().toMillis();
        background.scheduleWithFixedDelay(guard("balance", service::balance), interval, interval, TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(guard("readiness", () -> checkReadiness(handle)), READINESS_CHECK.toMillis(),
                READINESS_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("placement {} started: client {} peer {} status http://{}/ data {}", config.name(),
                clientAddress(), config.peerAddress(), statusServer.boundAddress(), config.dataDir());
    }

    /** Until a leader is known this member waits for one, reporting which members it can reach. */
    private void checkReadiness(RaftGroupHandle handle) {
        if (readiness.isServing()) {
            return;
        }
        if (handle.leaderId().isPresent()) {
            readiness.serving();
        } else {
            readiness.waitingFor("placement leader", MemberReachability.describe(config.name(),
                    config.initialClusterMembers(), PEER_PROBE_TIMEOUT));
        }
    }

    private Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>(readiness.status());
        PlacementService current = service;
        if (current != null) {
            status.putAll(current.status());
        }
        return status;
    }

    private static boolean isAddressInUse(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException || String.valueOf(cause.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    private Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("placement {} {} failed: {}", config.name(), what, e.toString());
            }
        };
    }

    /** The client address actually bound. */
    public HostAndPort clientAddress() {
        return new HostAndPort(config.clientAddress().host(), grpcServer.getPort());
    }

    public HostAndPort statusAddress() {
        return statusServer.boundAddress();
    }

    public PlacementConfig config() {
        return config;
    }

    public boolean isLeader() {
        return service != null && service.isReadyLeader();
    }

    /** Whether a placement leader has been elected since this member started. */
    public boolean isServing() {
        return readiness.isServing();
    }

    @Override
    public void close() {
        readiness.stop();
        List<AutoCloseable> reversed = new ArrayList<>(resources);
        java.util.Collections.reverse(reversed);
        resources.clear();
        for (AutoCloseable resource : reversed) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("placement {}: error while stopping: {}", config.name(), e.toString());
            }
        }
        if (service != null) {
            LOG.info("placement {} stopped", config.name());
            service = null;
        }
    }
}
