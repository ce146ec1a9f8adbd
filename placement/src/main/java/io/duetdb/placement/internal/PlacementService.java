package io.duetdb.placement.internal;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.placement.PlacementConfig;
import io.duetdb.placement.internal.cluster.ClusterRuntime;
import io.duetdb.placement.internal.id.IdAllocator;
import io.duetdb.placement.internal.metrics.PlacementMetrics;
import io.duetdb.placement.internal.proto.Bootstrap;
import io.duetdb.placement.internal.proto.DeleteRule;
import io.duetdb.placement.internal.proto.InitCluster;
import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.PutMember;
import io.duetdb.placement.internal.proto.PutRegion;
import io.duetdb.placement.internal.proto.PutRule;
import io.duetdb.placement.internal.proto.PutStore;
import io.duetdb.placement.internal.schedule.ClusterView;
import io.duetdb.placement.internal.schedule.Operator;
import io.duetdb.placement.internal.schedule.OperatorController;
import io.duetdb.placement.internal.schedule.OperatorStep;
import io.duetdb.placement.internal.schedule.RegionView;
import io.duetdb.placement.internal.schedule.SchedulingConfig;
import io.duetdb.placement.internal.schedule.StoreView;
import io.duetdb.placement.internal.state.PlacementState;
import io.duetdb.placement.internal.state.PlacementStateMachine;
import io.duetdb.placement.internal.state.RuleValidation;
import io.duetdb.placement.internal.tso.TimestampOracle;
import io.duetdb.placement.internal.tso.TimestampService;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.Member;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreLiveness;
import io.duetdb.proto.placement.StoreStats;
import io.duetdb.common.time.Timestamp;
import io.duetdb.placement.internal.proto.AdvanceGcSafePoint;
import io.duetdb.placement.internal.proto.PutServiceSafePoint;
import io.duetdb.placement.internal.txn.WaitForGraph;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.ServiceSafePoint;
import io.duetdb.raft.NotLeaderException;
import io.duetdb.raft.RaftGroupHandle;

/**
 * What a placement member does for its clients, independent of gRPC. Leader-only operations throw
 * {@link PlacementError} NOT_LEADER (with the leader's client address) on followers.
 */
public final class PlacementService implements PlacementStateMachine.LeadershipListener, TimestampService.Proposer {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementService.class);
    private static final long ID_STEP = 1_000;
    private static final long TSO_WAIT_MILLIS = 500;

    private final PlacementConfig config;
    private final PlacementStateMachine stateMachine;
    private final PlacementMetrics metrics;
    private final String version;
    private final ClusterRuntime runtime = new ClusterRuntime();
    private final OperatorController operators;
    private final TimestampService timestamps;
    private final IdAllocator ids;
    private final SchedulingConfig schedulingConfig;
    private final WaitForGraph waits = new WaitForGraph(TimeUnit.MINUTES.toNanos(2));
    private volatile RaftGroupHandle raft;

    public PlacementService(PlacementConfig config, PlacementStateMachine stateMachine, PlacementMetrics metrics,
            String version) {
        this.config = requireNonNull(config, "config is null");
        this.stateMachine = requireNonNull(stateMachine, "stateMachine is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.version = requireNonNull(version, "version is null");
        long leaseNanos = config.electionTimeout().toNanos() * 9 / 10;
        this.timestamps = new TimestampService(new TimestampOracle(System::currentTimeMillis, System::nanoTime,
                config.tsoSaveInterval().toMillis()), this, leaseNanos, System::currentTimeMillis, System::nanoTime);
        this.ids = new IdAllocator(this, ID_STEP);
        this.operators = new OperatorController(new OperatorController.Listener() {
            @Override
            public void created(Operator operator) {
                metrics.operatorsCreated.labelValues(operator.kind().name()).inc();
            }

            @Override
            public void ended(Operator operator) {
                metrics.operatorsEnded.labelValues(operator.kind().name(), operator.status().name()).inc();
            }
        });
        this.schedulingConfig = new SchedulingConfig(config.maxReplicas(), config.leaderScheduleLimit(),
                config.regionScheduleLimit(), config.operatorTimeout(), config.maxMergeRegionSize().bytes(),
                config.splitMergeInterval(), config.mergeScheduleLimit());
        stateMachine.setLeadershipListener(this);
    }

    /** Connects the service to its Raft group once the group has started. */
    public void attach(RaftGroupHandle handle) {
        this.raft = requireNonNull(handle, "handle is null");
    }

    // ---- leadership ----

    @Override
    public void leaderChanged(String leaderId, boolean self) {
        LOG.info("{}: placement leader is now {}", config.name(),
                leaderId == null ? "unknown" : self ? leaderId + " (this member)" : leaderId);
        if (!self) {
            stepDown();
        }
    }

    @Override
    public void leaderReady() {
        LOG.info("this member leads the placement cluster and has applied all earlier entries");
        runtime.reset(System.nanoTime());
        waits.clear();
        operators.clear();
        ids.reset();
        timestamps.leaderReady();
    }

    private void stepDown() {
        timestamps.leaderLost();
        ids.reset();
        operators.clear();
    }

    @Override
    public CompletableFuture<PlacementCommandResult> propose(PlacementCommand command) {
        RaftGroupHandle handle = raft;
        if (handle == null) {
            return CompletableFuture.failedFuture(new PlacementError(ErrorType.UNAVAILABLE, "placement is starting"));
        }
        return handle.propose(command.toByteArray()).thenApply(PlacementService::decodeResult);
    }

    @Override
    public CompletableFuture<Void> confirmLeadership() {
        RaftGroupHandle handle = raft;
        return handle == null ? CompletableFuture.failedFuture(new IllegalStateException("not attached"))
                : handle.confirmLeadership();
    }

    private static PlacementCommandResult decodeResult(byte[] bytes) {
        try {
            return PlacementCommandResult.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new PlacementError(ErrorType.INTERNAL, "undecodable placement result");
        }
    }

    /** Runs every few milliseconds: keeps the TSO window and lease fresh, initialises the cluster id. */
    public void tick() {
        if (!isReadyLeader()) {
            return;
        }
        timestamps.tick();
        if (stateMachine.read(PlacementState::clusterId) == 0) {
            long clusterId = (System.currentTimeMillis() << 20) | (new SecureRandom().nextInt(1 << 20));
            proposeAndWait(PlacementCommand.newBuilder().setInitCluster(InitCluster.newBuilder().setClusterId(clusterId)).build());
            LOG.info("cluster id is {}", stateMachine.read(PlacementState::clusterId));
        }
    }

    /** Publishes this member's client and status addresses through the leader until they are recorded. */
    public void publishMember() {
        Member wanted = Member.newBuilder().setName(config.name()).setPeerAddress(config.peerAddress().toString())
                .setClientAddress(config.advertisedClientAddress().toString()).setStatusAddress(config.statusAddress().toString())
                .setVersion(version).build();
        boolean recorded = stateMachine.read(state -> state.members().contains(wanted));
        RaftGroupHandle handle = raft;
        if (recorded || handle == null || handle.leaderId().isEmpty()) {
            return;
        }
        PlacementCommand command = PlacementCommand.newBuilder().setPutMember(PutMember.newBuilder().setMember(wanted)).build();
        try {
            if (handle.isLeaderReady()) {
                await(propose(command));
            } else {
                handle.submitToLeader(command.toByteArray());
            }
            LOG.info("published member {} (client {}, status {})", wanted.getName(), wanted.getClientAddress(),
                    wanted.getStatusAddress());
        } catch (RuntimeException e) {
            LOG.debug("member publication will be retried: {}", e.toString());
        }
    }

    public boolean isReadyLeader() {
        RaftGroupHandle handle = raft;
        return handle != null && handle.isLeaderReady();
    }

    private void requireLeader(long clusterId) {
        RaftGroupHandle handle = raft;
        if (handle == null) {
            throw new PlacementError(ErrorType.UNAVAILABLE, "placement member " + config.name() + " is starting");
        }
        if (!handle.isLeaderReady()) {
            Optional<String> leader = handle.leaderId();
            if (leader.isEmpty() || leader.get().equals(config.name())) {
                throw new PlacementError(ErrorType.UNAVAILABLE, "no placement leader yet (election in progress)");
            }
            throw new PlacementError(ErrorType.NOT_LEADER, config.name() + " is not the placement leader",
                    clientAddressOf(leader.get()));
        }
        long known = stateMachine.read(PlacementState::clusterId);
        if (known == 0) {
            throw new PlacementError(ErrorType.UNAVAILABLE, "the cluster id is being initialised");
        }
        if (clusterId != 0 && clusterId != known) {
            throw new PlacementError(ErrorType.CLUSTER_ID_MISMATCH, "request for cluster " + clusterId
                    + " reached cluster " + known);
        }
    }

    private String clientAddressOf(String memberName) {
        return stateMachine.read(state -> state.members().stream()
                .filter(member -> member.getName().equals(memberName))
                .map(Member::getClientAddress).findFirst().orElse(""));
    }

    public long clusterId() {
        return stateMachine.read(PlacementState::clusterId);
    }

    // ---- members ----

    public GetMembersResponse members() {
        Map<String, Member> published = new HashMap<>();
        stateMachine.read(state -> {
            state.members().forEach(member -> published.put(member.getName(), member));
            return null;
        });
        GetMembersResponse.Builder response = GetMembersResponse.newBuilder().setResponderName(config.name());
        for (Map.Entry<String, HostAndPort> entry : config.initialClusterMembers().entrySet()) {
            Member member = published.get(entry.getKey());
            response.addMembers(member != null ? member : Member.newBuilder().setName(entry.getKey())
                    .setPeerAddress(entry.getValue().toString()).build());
        }
        RaftGroupHandle handle = raft;
        if (handle != null) {
            handle.leaderId().ifPresent(response::setLeaderName);
            response.setRaftTerm(handle.currentTerm()).setRaftAppliedIndex(handle.lastAppliedIndex());
        }
        return response.build();
    }

    // ---- timestamps and ids ----

    /** The last timestamp of a batch of {@code count}; throws NOT_LEADER or UNAVAILABLE. */
    public TimestampOracle.Batch timestamps(long clusterId, int count) {
        RaftGroupHandle handle = raft;
        if (handle != null && !handle.isLeader()) {
            metrics.tsoUnavailable.labelValues("not_leader").inc();
            requireLeader(clusterId);
        }
        if (count < 1 || count > 1 << 17) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "TSO count must be 1.." + (1 << 17) + ", got " + count);
        }
        try {
            TimestampOracle.Batch batch = timestamps.oracle().allocate(count, TSO_WAIT_MILLIS);
            metrics.tsoRequests.inc();
            metrics.tsoTimestamps.inc(count);
            return batch;
        } catch (TimestampOracle.UnavailableException e) {
            metrics.tsoUnavailable.labelValues(e.notLeader() ? "not_leader" : "window_or_lease").inc();
            if (e.notLeader()) {
                requireLeader(clusterId);
            }
            throw new PlacementError(ErrorType.UNAVAILABLE, "TSO: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PlacementError(ErrorType.UNAVAILABLE, "interrupted");
        }
    }

    public CompletableFuture<Long> allocateIds(long clusterId, IdKind kind, int count) {
        requireLeader(clusterId);
        if (count < 0 || count > 100_000) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "id count must be 1..100000, got " + count);
        }
        return ids.allocate(Math.max(1, count));
    }

    // ---- stores ----

    public RegisterStoreResponse registerStore(long clusterId, Store store) {
        requireLeader(clusterId);
        if (store.getAddress().isEmpty()) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a store must give its address");
        }
        try {
            HostAndPort.parse(store.getAddress());
        } catch (IllegalArgumentException e) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "store address: " + e.getMessage());
        }
        Store.Builder registering = store.toBuilder().setState(StoreState.STORE_STATE_UNSPECIFIED);
        if (store.getId() == 0) {
            Optional<Store> sameAddress = stateMachine.read(state -> state.storeByAddress(store.getAddress()));
            if (sameAddress.isPresent()) {
                throw new PlacementError(ErrorType.DUPLICATE_STORE_ADDRESS, "address " + store.getAddress()
                        + " is already registered by store " + sameAddress.get().getId()
                        + "; restart that store with its data directory, or mark it TOMBSTONE first");
            }
            registering.setId(await(ids.allocate(1)));
        } else if (stateMachine.read(state -> state.store(store.getId())).isEmpty()) {
            throw new PlacementError(ErrorType.STORE_NOT_FOUND, "store " + store.getId()
                    + " is not registered in this cluster (its data directory belongs to another cluster?)");
        }
        PlacementCommandResult result = proposeAndWait(PlacementCommand.newBuilder()
                .setPutStore(PutStore.newBuilder().setStore(registering)).build());
        Store registered = result.getStore();
        runtime.storeRegistered(registered.getId(), System.nanoTime());
        LOG.info("store {} {} at {} (labels {})", registered.getId(), result.getExisted() ? "re-registered" : "registered",
                registered.getAddress(), labels(registered));
        RegisterStoreResponse.Builder response = RegisterStoreResponse.newBuilder().setStore(registered);
        bootstrapRegionFor(registered).ifPresent(response::setBootstrapRegion);
        return response.build();
    }

    /** The first region, if the cluster is (or gets) bootstrapped on this store and it has not reported it yet. */
    private Optional<Region> bootstrapRegionFor(Store store) {
        if (new StoreView(store, StoreLiveness.UP, 0, 0).isColumnar()) {
            return Optional.empty();
        }
        if (!stateMachine.read(PlacementState::bootstrapped)) {
            long regionId = await(ids.allocate(1));
            long peerId = await(ids.allocate(1));
            Region region = Region.newBuilder().setId(regionId)
                    .setEpoch(RegionEpoch.newBuilder().setConfVersion(1).setVersion(1))
                    .addPeers(Peer.newBuilder().setId(peerId).setStoreId(store.getId()).setRole(PeerRole.VOTER))
                    .build();
            PlacementCommandResult result = await(propose(PlacementCommand.newBuilder()
                    .setBootstrap(Bootstrap.newBuilder().setRegion(region)).build()));
            if (!result.hasError()) {
                LOG.info("cluster bootstrapped: region {} covers the whole key space on store {}", regionId, store.getId());
                return Optional.of(region);
            }
        }
        return stateMachine.read(state -> state.regions().stream()
                .filter(region -> region.getPeersCount() == 1 && region.getPeers(0).getStoreId() == store.getId()
                        && region.getEpoch().getVersion() == 1 && region.getEpoch().getConfVersion() == 1)
                .findFirst())
                .filter(region -> runtime.region(region.getId()).isEmpty());
    }

    public Store setStoreState(long clusterId, long storeId, StoreState newState) {
        requireLeader(clusterId);
        Store store = stateMachine.read(state -> state.store(storeId)).orElseThrow(() ->
                new PlacementError(ErrorType.STORE_NOT_FOUND, "no store " + storeId));
        if (store.getState() == StoreState.TOMBSTONE) {
            throw new PlacementError(ErrorType.STORE_TOMBSTONE, "store " + storeId + " is already a tombstone");
        }
        if (newState == StoreState.TOMBSTONE) {
            long replicas = stateMachine.read(state -> state.regions().stream()
                    .filter(region -> region.getPeersList().stream().anyMatch(peer -> peer.getStoreId() == storeId))
                    .count());
            if (replicas > 0) {
                throw new PlacementError(ErrorType.INVALID_ARGUMENT, "store " + storeId + " still holds " + replicas
                        + " replicas; set it OFFLINE and wait until they have moved");
            }
        } else if (newState != StoreState.SERVING && newState != StoreState.OFFLINE) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a store can be set SERVING, OFFLINE or TOMBSTONE");
        }
        Store updated = proposeAndWait(PlacementCommand.newBuilder()
                .setPutStore(PutStore.newBuilder().setStore(store.toBuilder().setState(newState))).build()).getStore();
        LOG.info("store {} is now {}", storeId, newState);
        return updated;
    }

    public void storeHeartbeat(long clusterId, StoreStats stats) {
        requireLeader(clusterId);
        Store store = stateMachine.read(state -> state.store(stats.getStoreId())).orElseThrow(() ->
                new PlacementError(ErrorType.STORE_NOT_FOUND, "store " + stats.getStoreId() + " is not registered"));
        if (store.getState() == StoreState.TOMBSTONE) {
            throw new PlacementError(ErrorType.STORE_TOMBSTONE, "store " + store.getId() + " is a tombstone");
        }
        metrics.storeHeartbeats.inc();
        runtime.storeReported(stats, System.nanoTime());
    }

    public StoreInfo store(long clusterId, long storeId) {
        requireLeader(clusterId);
        Store store = stateMachine.read(state -> state.store(storeId)).orElseThrow(() ->
                new PlacementError(ErrorType.STORE_NOT_FOUND, "no store " + storeId));
        return storeInfo(store, System.nanoTime());
    }

    public List<StoreInfo> stores(long clusterId, boolean excludeTombstones) {
        requireLeader(clusterId);
        long now = System.nanoTime();
        List<Store> stores = stateMachine.read(state -> new ArrayList<>(state.stores()));
        return stores.stream()
                .filter(store -> !excludeTombstones || store.getState() != StoreState.TOMBSTONE)
                .sorted((a, b) -> Long.compare(a.getId(), b.getId()))
                .map(store -> storeInfo(store, now))
                .toList();
    }

    private StoreInfo storeInfo(Store store, long now) {
        StoreInfo.Builder info = StoreInfo.newBuilder().setStore(store)
                .setLiveness(liveness(store.getId(), now))
                .setLastHeartbeatAgeMs(runtime.heartbeatAgeMillis(store.getId(), now));
        runtime.store(store.getId()).ifPresent(report -> info.setStats(report.stats()));
        return info.build();
    }

    private StoreLiveness liveness(long storeId, long now) {
        return runtime.liveness(storeId, now, config.storeDisconnectTime().toNanos(), config.maxStoreDownTime().toNanos());
    }

    /** Logs every store whose liveness changed since the last check; runs about once a second on the leader. */
    public void checkLiveness() {
        if (!isReadyLeader()) {
            return;
        }
        long now = System.nanoTime();
        for (Store store : stateMachine.read(state -> new ArrayList<>(state.stores()))) {
            if (store.getState() == StoreState.TOMBSTONE) {
                continue;
            }
            StoreLiveness current = liveness(store.getId(), now);
            runtime.noteLiveness(store.getId(), current).ifPresent(previous -> LOG.info(
                    "store {} at {} is now {} (was {}; last heartbeat {} ms ago)", store.getId(), store.getAddress(),
                    current, previous, runtime.heartbeatAgeMillis(store.getId(), now)));
        }
    }

    // ---- regions ----

    public RegionHeartbeatResponse regionHeartbeat(RegionHeartbeatRequest request) {
        requireLeader(request.getHeader().getClusterId());
        Region region = request.getRegion();
        validateRegion(region, request);
        metrics.regionHeartbeats.inc();
        Optional<String> stale = stateMachine.read(state -> state.staleness(region));
        if (stale.isPresent()) {
            metrics.staleRegionHeartbeats.inc();
            throw new PlacementError(ErrorType.STALE_REGION, stale.get());
        }
        if (stateMachine.read(state -> state.differsFromKnown(region))) {
            PlacementCommandResult result = proposeAndWait(PlacementCommand.newBuilder()
                    .setPutRegion(PutRegion.newBuilder().setRegion(region)).build());
            LOG.info("region {} {} {} epoch (conf {}, version {}) peers {}", region.getId(),
                    result.getExisted() ? "updated:" : "added:", PlacementStateDescriptions.range(region),
                    region.getEpoch().getConfVersion(), region.getEpoch().getVersion(),
                    PlacementStateDescriptions.peers(region));
        }
        long now = System.nanoTime();
        runtime.regionReported(request, now);
        RegionHeartbeatResponse.Builder response = RegionHeartbeatResponse.newBuilder()
                .setRegionId(region.getId()).setRegionEpoch(region.getEpoch());
        RegionView view = regionView(region);
        Optional<OperatorStep> step = operators.onRegionHeartbeat(view, clusterView(), this::newPeerId, now);
        step.ifPresent(s -> {
            s.writeTo(response);
            operators.operator(region.getId()).ifPresent(op -> response.setOperatorDescription(op.description()));
        });
        return response.build();
    }

    /** Records every region a split produced (the leader of the split region reports them together). */
    public void reportSplit(long clusterId, List<Region> regions) {
        requireLeader(clusterId);
        for (Region region : regions) {
            if (region.getId() == 0 || region.getPeersCount() == 0
                    || !KeyRanges.isValid(region.getStartKey().toByteArray(), region.getEndKey().toByteArray())) {
                throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a split report needs regions with ids, peers and valid ranges");
            }
        }
        // The right-hand regions first: recording the shrunk left region first would briefly leave their keys
        // without a region.
        for (int i = regions.size() - 1; i >= 0; i--) {
            Region region = regions.get(i);
            if (stateMachine.read(state -> state.staleness(region)).isPresent()
                    || !stateMachine.read(state -> state.differsFromKnown(region))) {
                continue;
            }
            proposeAndWait(PlacementCommand.newBuilder().setPutRegion(PutRegion.newBuilder().setRegion(region)).build());
        }
        LOG.info("split reported: {}", regions.stream().map(PlacementStateDescriptions::range).toList());
    }

    private static void validateRegion(Region region, RegionHeartbeatRequest request) {
        if (region.getId() == 0 || region.getPeersCount() == 0) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a region heartbeat needs the region id and peers");
        }
        if (!KeyRanges.isValid(region.getStartKey().toByteArray(), region.getEndKey().toByteArray())) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "region " + region.getId() + " start key is not before its end key");
        }
        if (!request.hasLeader() || region.getPeersList().stream().noneMatch(p -> p.getId() == request.getLeader().getId())) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "region " + region.getId()
                    + " heartbeat names a leader that is not one of its peers");
        }
    }

    private long newPeerId() {
        return await(ids.allocate(1));
    }

    // ---- transactions ----

    public List<Long> detectDeadlock(long clusterId, long waiterTs, long holderTs, long keyHash) {
        requireLeader(clusterId);
        List<Long> cycle = waits.detect(waiterTs, holderTs, keyHash, System.nanoTime());
        if (!cycle.isEmpty()) {
            metrics.deadlocks.inc();
            LOG.info("deadlock: transaction {} would wait for {}, closing the cycle {}", waiterTs, holderTs, cycle);
        }
        return cycle;
    }

    public void cleanUpWaitFor(long clusterId, long waiterTs, long holderTs) {
        requireLeader(clusterId);
        waits.cleanUp(waiterTs, holderTs);
    }

    /** Records a service's oldest readable timestamp; answers the GC safe point. */
    public long updateServiceSafePoint(long clusterId, String serviceId, long safePoint, long ttlSeconds) {
        requireLeader(clusterId);
        if (serviceId.isBlank()) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a service safe point needs a service id");
        }
        if (ttlSeconds <= 0 && safePoint != 0) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "a service safe point needs a positive TTL");
        }
        long expiresAt = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(Math.min(ttlSeconds, 365L * 24 * 3600));
        PlacementCommandResult result = await(propose(PlacementCommand.newBuilder().setPutServiceSafePoint(
                PutServiceSafePoint.newBuilder().setEntry(ServiceSafePoint.newBuilder().setServiceId(serviceId)
                        .setSafePoint(safePoint).setExpiresAtMs(expiresAt))).build()));
        if (result.hasError()) {
            throw new PlacementError(result.getError().getType(), result.getError().getMessage());
        }
        return result.getGcSafePoint();
    }

    public GetGcSafePointResponse gcSafePoint(long clusterId) {
        requireLeader(clusterId);
        return stateMachine.read(state -> GetGcSafePointResponse.newBuilder().setSafePoint(state.gcSafePoint())
                .setGcLifeTimeMs(config.gcLifeTime().toMillis()).addAllServiceSafePoints(state.serviceSafePoints()).build());
    }

    /** Moves the GC safe point to min(now - GC life time, live service safe points) when that is later. */
    private void advanceGcSafePoint() {
        long now = System.currentTimeMillis();
        long candidate = new Timestamp(Math.max(0, now - config.gcLifeTime().toMillis()), 0).packed();
        long current = stateMachine.read(PlacementState::gcSafePoint);
        boolean expired = stateMachine.read(state -> state.serviceSafePoints().stream()
                .anyMatch(entry -> entry.getExpiresAtMs() <= now));
        long limit = stateMachine.read(state -> state.serviceSafePoints().stream()
                .filter(entry -> entry.getExpiresAtMs() > now).mapToLong(ServiceSafePoint::getSafePoint).min()
                .orElse(Long.MAX_VALUE));
        if (Math.min(candidate, limit) <= current && !expired) {
            return;
        }
        PlacementCommandResult result = await(propose(PlacementCommand.newBuilder().setAdvanceGcSafePoint(
                AdvanceGcSafePoint.newBuilder().setSafePoint(candidate).setNowMs(now)).build()));
        if (result.getGcSafePoint() > current) {
            LOG.info("GC safe point advanced to {}", Timestamp.fromPacked(result.getGcSafePoint()));
        }
    }

    /** One balance round and operator expiry; runs every schedule interval on the leader. */
    public void balance() {
        if (!isReadyLeader()) {
            return;
        }
        try {
            advanceGcSafePoint();
        } catch (RuntimeException e) {
            LOG.info("GC safe point not advanced this round: {}", e.toString());
        }
        ClusterView view = clusterView();
        long now = System.nanoTime();
        Map<Long, RegionView> byId = new HashMap<>();
        view.regions().forEach(region -> byId.put(region.id(), region));
        operators.expire(now, config.operatorTimeout().toNanos(), byId);
        operators.balance(view, this::newPeerId, now);
    }

    private RegionView regionView(Region region) {
        return runtime.region(region.getId())
                .map(report -> new RegionView(region, report.leader(), report.downPeers(), report.pendingPeers(),
                        report.approximateSize(), System.nanoTime() - report.versionSinceNanos()))
                .orElseGet(() -> RegionView.of(region, null));
    }

    ClusterView clusterView() {
        long now = System.nanoTime();
        List<Store> stores = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        List<PlacementRule> rules = new ArrayList<>();
        stateMachine.read(state -> {
            stores.addAll(state.stores());
            regions.addAll(state.regions());
            rules.addAll(state.rules());
            return null;
        });
        Map<Long, Integer> regionCounts = new HashMap<>();
        Map<Long, Integer> leaderCounts = new HashMap<>();
        List<RegionView> regionViews = new ArrayList<>();
        for (Region region : regions) {
            RegionView view = regionView(region);
            regionViews.add(view);
            region.getPeersList().forEach(peer -> regionCounts.merge(peer.getStoreId(), 1, Integer::sum));
            if (view.leader() != null) {
                leaderCounts.merge(view.leader().getStoreId(), 1, Integer::sum);
            }
        }
        Map<Long, StoreView> storeViews = new HashMap<>();
        for (Store store : stores) {
            if (store.getState() != StoreState.TOMBSTONE) {
                storeViews.put(store.getId(), new StoreView(store, liveness(store.getId(), now),
                        regionCounts.getOrDefault(store.getId(), 0), leaderCounts.getOrDefault(store.getId(), 0)));
            }
        }
        return new ClusterView(storeViews, regionViews, rules, schedulingConfig);
    }

    public Optional<RegionInfo> regionByKey(long clusterId, byte[] key) {
        requireLeader(clusterId);
        return stateMachine.read(state -> state.regionContaining(key)).map(this::regionInfo);
    }

    public Optional<RegionInfo> regionById(long clusterId, long regionId) {
        requireLeader(clusterId);
        return stateMachine.read(state -> state.region(regionId)).map(this::regionInfo);
    }

    public List<RegionInfo> scanRegions(long clusterId, byte[] start, byte[] end, int limit) {
        requireLeader(clusterId);
        if (!KeyRanges.isValid(start, end)) {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, "scan start " + Keys.describe(start)
                    + " is not before end " + Keys.describe(end));
        }
        List<Region> regions = stateMachine.read(state -> state.overlapping(start, end));
        return regions.stream().limit(limit <= 0 ? Long.MAX_VALUE : limit).map(this::regionInfo).toList();
    }

    private RegionInfo regionInfo(Region region) {
        RegionInfo.Builder info = RegionInfo.newBuilder().setRegion(region);
        runtime.region(region.getId()).ifPresent(report -> {
            info.setLeader(report.leader()).addAllDownPeers(report.downPeers())
                    .addAllPendingPeers(report.pendingPeers())
                    .setApproximateSize(report.approximateSize()).setApproximateKeys(report.approximateKeys());
        });
        return info.build();
    }

    // ---- placement rules ----

    public boolean putRule(long clusterId, PlacementRule rule) {
        requireLeader(clusterId);
        RuleValidation.check(rule).ifPresent(problem -> {
            throw new PlacementError(ErrorType.INVALID_ARGUMENT, problem);
        });
        boolean existed = proposeAndWait(PlacementCommand.newBuilder().setPutRule(PutRule.newBuilder().setRule(rule)).build())
                .getExisted();
        LOG.info("placement rule {} {}: {} x {} on [{}, {})", rule.getId(), existed ? "replaced" : "added", rule.getCount(),
                rule.getRole(), Keys.describe(rule.getStartKey().toByteArray()), Keys.describe(rule.getEndKey().toByteArray()));
        return existed;
    }

    public boolean deleteRule(long clusterId, String ruleId) {
        requireLeader(clusterId);
        boolean existed = proposeAndWait(PlacementCommand.newBuilder()
                .setDeleteRule(DeleteRule.newBuilder().setRuleId(ruleId)).build()).getExisted();
        if (existed) {
            LOG.info("placement rule {} deleted", ruleId);
        }
        return existed;
    }

    public List<PlacementRule> rules(long clusterId) {
        requireLeader(clusterId);
        return stateMachine.read(state -> List.copyOf(state.rules()));
    }

    // ---- status ----

    public Map<String, Object> status() {
        Map<String, Object> status = new java.util.LinkedHashMap<>();
        status.put("component", "placement");
        status.put("name", config.name());
        status.put("version", version);
        status.put("client_address", config.advertisedClientAddress().toString());
        status.put("peer_address", config.peerAddress().toString());
        RaftGroupHandle handle = raft;
        if (handle != null) {
            status.put("role", handle.role());
            status.put("leader", handle.leaderId().orElse(""));
            status.put("term", handle.currentTerm());
            status.put("applied_index", handle.lastAppliedIndex());
        }
        stateMachine.read(state -> {
            status.put("cluster_id", Long.toUnsignedString(state.clusterId()));
            status.put("bootstrapped", state.bootstrapped());
            status.put("stores", state.stores().size());
            status.put("regions", state.regions().size());
            status.put("placement_rules", state.rules().size());
            status.put("tso_persisted_limit_ms", state.tsoLimitMillis());
            return null;
        });
        status.put("tso_serving", timestamps.oracle().serving());
        status.put("operators", operators.operators().stream().map(Operator::toString).toList());
        return status;
    }

    public int regionCount() {
        return stateMachine.read(state -> state.regions().size());
    }

    public int operatorCount() {
        return operators.operators().size();
    }

    // ---- helpers ----

    private PlacementCommandResult proposeAndWait(PlacementCommand command) {
        PlacementCommandResult result = await(propose(command));
        if (result.hasError()) {
            throw PlacementError.of(result.getError());
        }
        return result;
    }

    private <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(config.electionTimeout().toMillis() * 5, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            throw translate(e.getCause() == null ? e : e.getCause());
        } catch (TimeoutException e) {
            throw new PlacementError(ErrorType.UNAVAILABLE, "placement Raft group did not commit in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PlacementError(ErrorType.UNAVAILABLE, "interrupted");
        }
    }

    private RuntimeException translate(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof PlacementError placementError) {
            return placementError;
        }
        if (cause instanceof NotLeaderException notLeader) {
            return new PlacementError(ErrorType.NOT_LEADER, "leadership moved",
                    notLeader.leaderId().map(this::clientAddressOf).orElse(""));
        }
        return new PlacementError(ErrorType.UNAVAILABLE, String.valueOf(cause.getMessage()));
    }

    private static String labels(Store store) {
        return store.getLabelsList().stream().map(label -> label.getKey() + "=" + label.getValue()).toList().toString();
    }


}
