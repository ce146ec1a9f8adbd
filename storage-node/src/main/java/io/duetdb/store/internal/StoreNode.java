package io.duetdb.store.internal;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.region.RegionCache;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.store.CreatePeerRequest;
import io.duetdb.proto.store.CreatePeerResponse;
import io.duetdb.proto.store.RaftMember;
import io.duetdb.raft.LogPosition;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftGroupKey;
import io.duetdb.raft.RaftNode;
import io.duetdb.raft.RaftPeerSpec;
import io.duetdb.store.StoreConfig;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.proto.ApplyState;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.internal.region.ApplyOutcome;
import io.duetdb.store.internal.region.LeaderLease;
import io.duetdb.store.internal.region.Proposer;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.region.RegionStateMachine;
import io.duetdb.store.internal.region.RegionStorage;

/**
 * The replicas of one store: creates them (bootstrap, split, empty replicas that fetch a snapshot), recovers
 * them at start, destroys them, and reacts to what their state machines apply.
 */
public final class StoreNode implements RegionStateMachine.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(StoreNode.class);

    private final StoreConfig config;
    private final long storeId;
    private final Engine engine;
    private final RegionCache directory;
    private final StoreMetrics metrics;
    private final ExecutorService proposalExecutor;
    private final ScheduledExecutorService background;
    private final RegionStateMachine.SnapshotInstaller installer;
    private final Map<Long, RegionPeer> peers = new ConcurrentHashMap<>();
    private final Map<Long, RegionStateMachine> prepared = new ConcurrentHashMap<>();
    private final Map<Long, Object> regionLocks = new ConcurrentHashMap<>();
    private volatile RaftNode raftNode;
    private volatile Runnable reconcileTrigger = () -> { };

    public StoreNode(StoreConfig config, long storeId, Engine engine, RegionCache directory, StoreMetrics metrics,
            ExecutorService proposalExecutor, ScheduledExecutorService background,
            RegionStateMachine.SnapshotInstaller installer) {
        this.config = requireNonNull(config, "config is null");
        this.storeId = storeId;
        this.engine = requireNonNull(engine, "engine is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.proposalExecutor = requireNonNull(proposalExecutor, "proposalExecutor is null");
        this.background = requireNonNull(background, "background is null");
        this.installer = requireNonNull(installer, "installer is null");
    }

    public long storeId() {
        return storeId;
    }

    public Engine engine() {
        return engine;
    }

    public StoreConfig config() {
        return config;
    }

    /** Runs when a region's membership record changes on a leader: the reconciler moves the Raft configuration. */
    public void onMembershipChange(Runnable trigger) {
        this.reconcileTrigger = requireNonNull(trigger, "trigger is null");
    }

    /** Builds the state machine Ratis asks for, for a recovered group or one being created. */
    public RegionStateMachine stateMachineFor(RaftGroupKey key) {
        if (key.kind() != RaftGroupKey.Kind.REGION) {
            throw new IllegalStateException("a store hosts region groups only, not " + key);
        }
        long regionId = key.id();
        RegionStateMachine machine = prepared.remove(regionId);
        if (machine == null) {
            RegionLocalState state = RegionStorage.regionState(engine, regionId);
            ApplyState apply = RegionStorage.applyState(engine, regionId);
            if (state != null && apply != null) {
                machine = newStateMachine(regionId, state, RegionStorage.applied(apply), RegionStorage.snapshot(apply));
            } else {
                machine = newStateMachine(regionId, null, LogPosition.NONE, LogPosition.NONE);
            }
        }
        RegionPeer peer = new RegionPeer(storeId, machine, new LeaderLease(config.electionTimeout().toNanos() * 9 / 10));
        peers.put(regionId, peer);
        return machine;
    }

    private RegionStateMachine newStateMachine(long regionId, RegionLocalState state, LogPosition applied,
            LogPosition snapshot) {
        return new RegionStateMachine(regionId, state, applied, snapshot, engine, this, installer);
    }

    /** Starts the Raft node: recovers every group on disk, then repairs what a crash may have left half done. */
    public void start(RaftNode node) throws IOException {
        this.raftNode = node;
        for (RaftGroupHandle handle : node.start()) {
            attach(handle);
        }
        Map<Long, RegionLocalState> states = new HashMap<>();
        for (RegionLocalState state : RegionStorage.regionStates(engine)) {
            states.put(state.getRegion().getId(), state);
        }
        for (RegionPeer peer : List.copyOf(peers.values())) {
            RegionLocalState state = states.get(peer.regionId());
            if (state != null && state.getState() == PeerState.TOMBSTONE) {
                LOG.info("region {}: removing the Raft group of a tombstoned replica", peer.regionId());
                destroyReplica(peer.regionId(), "tombstoned before the last stop", false);
            }
        }
        for (RegionLocalState state : states.values()) {
            if (state.getState() != PeerState.TOMBSTONE && !peers.containsKey(state.getRegion().getId())) {
                // Split applied, but the store stopped before the new region's group was created.
                LOG.info("{}: creating its missing Raft group", RegionDescriptions.describe(state.getRegion()));
                createGroup(state.getRegion());
            }
        }
        LOG.info("store {} hosts {} region replicas", storeId, peers.size());
    }

    private void attach(RaftGroupHandle handle) {
        RegionPeer peer = peers.get(handle.key().id());
        if (peer == null) {
            throw new IllegalStateException("no replica for group " + handle.key());
        }
        Proposer proposer = new Proposer(handle, peer.lease(), proposalExecutor,
                new Proposer.Limits(config.maxBatchCommands(), config.maxBatchBytes().bytes(), config.maxInflightProposals()),
                (commands, bytes) -> {
                    metrics.proposals.inc();
                    metrics.proposedCommands.inc(commands);
                },
                leaderId -> RegionErrors.notLeader(peer.regionId(), leaderId == null ? null
                        : peerOnStore(peer.region(), StorePeers.storeIdOf(leaderId)).orElse(null)));
        peer.attach(handle, proposer);
    }

    private static Optional<Peer> peerOnStore(Region region, long store) {
        return region == null ? Optional.empty()
                : region.getPeersList().stream().filter(peer -> peer.getStoreId() == store).findFirst();
    }

    /** Creates the first region of the cluster on this store (placement chose it at registration). */
    public void bootstrap(Region region) throws IOException {
        if (peers.containsKey(region.getId()) || RegionStorage.regionState(engine, region.getId()) != null) {
            return;
        }
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            RegionStorage.putRegionState(batch, RegionLocalState.newBuilder().setRegion(region).setState(PeerState.NORMAL).build());
            RegionStorage.putApplyState(batch, region.getId(),
                    RegionStorage.applyState(RegionStorage.INITIAL_POSITION, RegionStorage.INITIAL_POSITION));
            engine.write(batch, true);
        }
        createGroup(region);
        LOG.info("bootstrapped {}", RegionDescriptions.describe(region));
    }

    /** Creates the Raft group of a region whose state is already in the engine (bootstrap, split). */
    private void createGroup(Region region) throws IOException {
        synchronized (lockFor(region.getId())) {
            if (peers.containsKey(region.getId())) {
                return;
            }
            RegionLocalState state = RegionStorage.regionState(engine, region.getId());
            ApplyState apply = RegionStorage.applyState(engine, region.getId());
            prepared.put(region.getId(), newStateMachine(region.getId(), state, RegionStorage.applied(apply),
                    RegionStorage.snapshot(apply)));
            RaftGroupHandle handle = raftNode.addGroup(RaftGroupKey.region(region.getId()), raftMembers(region));
            attach(handle);
        }
    }

    /** Creates an empty replica that fetches the region's data from its leader (an added learner). */
    public CreatePeerResponse createEmptyPeer(CreatePeerRequest request) {
        Region region = request.getRegion();
        synchronized (lockFor(region.getId())) {
            if (peers.containsKey(region.getId())) {
                return CreatePeerResponse.newBuilder().setAlreadyExists(true).build();
            }
            RegionLocalState existing = RegionStorage.regionState(engine, region.getId());
            if (existing != null && existing.getState() != PeerState.TOMBSTONE) {
                return CreatePeerResponse.newBuilder().setAlreadyExists(true).build();
            }
            for (RegionPeer other : peers.values()) {
                Region otherRegion = other.region();
                if (otherRegion != null && overlaps(otherRegion, region)) {
                    return CreatePeerResponse.newBuilder().setError("region " + region.getId() + " overlaps region "
                            + otherRegion.getId() + " on store " + storeId + "; waiting for that replica to be removed").build();
                }
            }
            List<RaftPeerSpec> members = new ArrayList<>();
            for (RaftMember member : request.getMembersList()) {
                members.add(new RaftPeerSpec(StorePeers.raftPeerId(member.getStoreId()), member.getRaftAddress(),
                        member.getLearner()));
            }
            try {
                prepared.put(region.getId(), newStateMachine(region.getId(), null, LogPosition.NONE, LogPosition.NONE));
                RaftGroupHandle handle = raftNode.addGroup(RaftGroupKey.region(region.getId()), members);
                attach(handle);
            } catch (IOException | RuntimeException e) {
                prepared.remove(region.getId());
                return CreatePeerResponse.newBuilder().setError("cannot create a replica of region " + region.getId()
                        + ": " + e.getMessage()).build();
            }
            LOG.info("created an empty replica of region {} (peer {}); it will fetch a snapshot", region.getId(),
                    request.getPeer().getId());
            return CreatePeerResponse.getDefaultInstance();
        }
    }

    /**
     * Removes a replica from this store: its Raft group always; its data only when no other replica here covers
     * those keys (after a merge the data belongs to the target region).
     */
    public void destroyReplica(long regionId, String why, boolean deleteData) {
        synchronized (lockFor(regionId)) {
            RegionPeer peer = peers.remove(regionId);
            Region region = peer != null ? peer.region() : null;
            try {
                raftNode.removeGroup(RaftGroupKey.region(regionId));
            } catch (IOException | RuntimeException e) {
                LOG.warn("region {}: removing its Raft group failed: {}", regionId, e.toString());
            }
            try (EngineWriteBatch batch = engine.newWriteBatch()) {
                RegionLocalState state = RegionStorage.regionState(engine, regionId);
                if (state != null) {
                    RegionStorage.putRegionState(batch, state.toBuilder().setState(PeerState.TOMBSTONE).build());
                }
                batch.delete(io.duetdb.store.engine.ColumnFamily.RAFT, io.duetdb.common.keys.Keys.applyStateKey(regionId));
                if (deleteData && region != null && peers.values().stream()
                        .map(RegionPeer::region).noneMatch(other -> other != null && overlaps(other, region))) {
                    RegionStorage.deleteData(batch, region.getStartKey().toByteArray(), region.getEndKey().toByteArray());
                }
                engine.write(batch, true);
            }
            metrics.replicasDestroyed.inc();
            LOG.info("removed the replica of region {} from store {}: {}", regionId, storeId, why);
        }
    }

    private Object lockFor(long regionId) {
        return regionLocks.computeIfAbsent(regionId, id -> new Object());
    }

    static boolean overlaps(Region a, Region b) {
        return KeyRanges.overlaps(a.getStartKey().toByteArray(), a.getEndKey().toByteArray(),
                b.getStartKey().toByteArray(), b.getEndKey().toByteArray());
    }

    /** The Raft members a region's membership record asks for. */
    public List<RaftPeerSpec> raftMembers(Region region) {
        List<RaftPeerSpec> members = new ArrayList<>();
        for (Peer peer : region.getPeersList()) {
            members.add(new RaftPeerSpec(StorePeers.raftPeerId(peer.getStoreId()), raftAddressOf(peer.getStoreId()),
                    peer.getRole() == PeerRole.LEARNER));
        }
        return members;
    }

    public String raftAddressOf(long store) {
        if (store == storeId) {
            return config.advertisedRaftAddress().toString();
        }
        return directory.store(store).getStore().getRaftAddress();
    }

    public HostAndPort addressOf(long store) {
        if (store == storeId) {
            return config.advertisedAddress();
        }
        return HostAndPort.parse(directory.store(store).getStore().getAddress());
    }

    public RegionCache directory() {
        return directory;
    }

    public Optional<RegionPeer> peer(long regionId) {
        return Optional.ofNullable(peers.get(regionId));
    }

    public Collection<RegionPeer> peers() {
        return peers.values();
    }

    /** Replicas other than {@code regionId} whose ranges overlap [start, end). */
    public List<RegionPeer> overlapping(long regionId, Region range) {
        return peers.values().stream()
                .filter(peer -> peer.regionId() != regionId)
                .filter(peer -> peer.region() != null && overlaps(peer.region(), range))
                .filter(peer -> peer.state() != null && peer.state().getState() != PeerState.TOMBSTONE)
                .toList();
    }

    // ---- what the state machines tell us ----

    @Override
    public void applied(RegionStateMachine region, List<ApplyOutcome> outcomes) {
        RegionPeer peer = peers.get(region.regionId());
        boolean membership = false;
        for (ApplyOutcome outcome : outcomes) {
            if (!outcome.result().hasRegion()) {
                continue;
            }
            if (peer != null) {
                peer.heartbeatDue.set(true);
            }
            membership = true;
            for (Region created : outcome.created()) {
                metrics.splits.inc();
                LOG.info("region {} split: {} and {}", region.regionId(),
                        RegionDescriptions.describe(outcome.result().getRegion()), RegionDescriptions.describe(created));
                background.execute(() -> {
                    try {
                        createGroup(created);
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("region {}: creating the Raft group after the split failed (retried at restart): {}",
                                created.getId(), e.toString());
                    }
                });
            }
            for (Long ended : outcome.ended()) {
                metrics.merges.inc();
                LOG.info("region {} absorbed region {}: {}", region.regionId(), ended,
                        RegionDescriptions.describe(outcome.result().getRegion()));
                background.execute(() -> destroyReplica(ended, "merged into region " + region.regionId(), false));
            }
        }
        if (membership && peer != null && peer.isLeaderReady()) {
            reconcileTrigger.run();
        }
    }

    @Override
    public void leaderChanged(RegionStateMachine region, String leaderId, boolean self) {
        RegionPeer peer = peers.get(region.regionId());
        if (peer == null) {
            return;
        }
        if (!self) {
            peer.lease().revoke();
        }
        peer.heartbeatDue.set(true);
    }

    @Override
    public void leaderReady(RegionStateMachine region) {
        RegionPeer peer = peers.get(region.regionId());
        if (peer != null) {
            peer.heartbeatDue.set(true);
            LOG.info("store {} leads region {}", storeId, region.regionId());
            reconcileTrigger.run();
        }
    }

    @Override
    public void configurationApplied(RegionStateMachine region, List<RaftPeerSpec> members) {
        RegionPeer peer = peers.get(region.regionId());
        if (peer != null) {
            peer.heartbeatDue.set(true);
        }
    }

    public void close() throws IOException {
        RaftNode node = raftNode;
        if (node != null) {
            node.close();
        }
    }
}
