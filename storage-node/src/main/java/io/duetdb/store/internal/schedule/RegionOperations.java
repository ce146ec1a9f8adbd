package io.duetdb.store.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.placement.ChangePeer;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.PeerChange;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.Split;
import io.duetdb.proto.store.CreatePeerRequest;
import io.duetdb.proto.store.CreatePeerResponse;
import io.duetdb.proto.store.RaftMember;
import io.duetdb.proto.store.SplitRegionResponse;
import io.duetdb.proto.store.TransferLeaderResponse;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftPeerSpec;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.region.LeaderHandOver;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.rpc.StoreClients;

/**
 * What a region's leader does to change the region: membership changes asked by placement, moving the Raft
 * configuration to match the membership record, leader transfer, and splits.
 */
public final class RegionOperations {
    private static final Logger LOG = LoggerFactory.getLogger(RegionOperations.class);
    private static final Duration TRANSFER_TIMEOUT = Duration.ofSeconds(10);
    /** A learner is promoted only once its log is this close to the leader's commit index. */
    private static final long PROMOTION_LAG = 100;
    /** How long a listener may acknowledge nothing new while its region commits before it is restarted. */
    private static final Duration LISTENER_STUCK = Duration.ofSeconds(30);

    private final StoreNode node;
    private final PlacementClient placement;
    private final StoreClients clients;
    private final RegionMerger merger;
    private final LeaderHandOver handOver;
    private final ScheduledExecutorService executor;
    private final StoreMetrics metrics;
    private final ListenerProgress listenerProgress = new ListenerProgress(LISTENER_STUCK.toNanos());

    public RegionOperations(StoreNode node, PlacementClient placement, StoreClients clients, RegionMerger merger,
            ScheduledExecutorService executor, StoreMetrics metrics, LeaderHandOver handOver) {
        this.handOver = requireNonNull(handOver, "handOver is null");
        this.merger = requireNonNull(merger, "merger is null");
        this.node = requireNonNull(node, "node is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    // ---- scheduling steps from placement ----

    /** Carries out the step placement sent back to a region heartbeat (one step per region at a time). */
    public void execute(RegionPeer peer, RegionHeartbeatResponse response) {
        if (!response.hasChangePeer() && !response.hasTransferLeader() && !response.hasMerge()) {
            return;
        }
        if (!peer.operatorRunning.compareAndSet(false, true)) {
            return;
        }
        executor.execute(() -> {
            try {
                if (response.hasChangePeer()) {
                    changePeer(peer, response.getChangePeer(), response.getOperatorDescription());
                } else if (response.hasMerge()) {
                    var merged = merger.merge(peer, response.getMerge().getTarget().getId());
                    metrics.operatorSteps.labelValues("MERGE").inc();
                    if (!merged.getError().isEmpty() || merged.hasRegionError()) {
                        LOG.info("region {}: merge into region {} did not happen: {}", peer.regionId(),
                                response.getMerge().getTarget().getId(),
                                merged.hasRegionError() ? merged.getRegionError().getMessage() : merged.getError());
                    }
                } else {
                    transferLeader(peer, response.getTransferLeader().getPeer().getStoreId());
                }
            } catch (RuntimeException e) {
                LOG.warn("region {}: step failed ({}): {}", peer.regionId(), response.getOperatorDescription(), e.toString());
            } finally {
                peer.operatorRunning.set(false);
            }
        });
    }

    private void changePeer(RegionPeer peer, ChangePeer change, String why) {
        Region region = peer.region();
        if (region == null || !peer.isLeaderReady()) {
            return;
        }
        Peer target = change.getPeer();
        Optional<Peer> existing = region.getPeersList().stream().filter(p -> p.getStoreId() == target.getStoreId()).findFirst();
        PeerChange kind;
        switch (change.getChangeType()) {
            case ADD_LEARNER -> {
                if (existing.isPresent()) {
                    reconcile(peer);
                    return;
                }
                kind = PeerChange.ADD_LEARNER;
            }
            case PROMOTE_LEARNER -> {
                if (existing.isEmpty() || existing.get().getRole() != PeerRole.LEARNER) {
                    return;
                }
                if (!caughtUp(peer, target.getStoreId())) {
                    LOG.info("region {}: learner on store {} is still catching up; promotion waits", region.getId(),
                            target.getStoreId());
                    reconcile(peer);
                    return;
                }
                kind = PeerChange.PROMOTE_LEARNER;
            }
            case REMOVE_PEER -> {
                if (existing.isEmpty()) {
                    return;
                }
                if (target.getStoreId() == node.storeId()) {
                    Optional<Peer> successor = region.getPeersList().stream()
                            .filter(p -> p.getRole() == PeerRole.VOTER && p.getStoreId() != node.storeId()).findFirst();
                    successor.ifPresent(next -> transferLeader(peer, next.getStoreId()));
                    return;
                }
                kind = PeerChange.REMOVE_PEER;
            }
            default -> {
                return;
            }
        }
        Peer recorded = existing.orElse(target);
        RaftCommand command = RaftCommand.newBuilder().setEpoch(region.getEpoch())
                .setChangePeer(io.duetdb.proto.raftcmd.ChangePeer.newBuilder().setChange(kind).setPeer(recorded)).build();
        CommandResult result = peer.propose(command).join();
        metrics.operatorSteps.labelValues(kind.name()).inc();
        if (result.hasRegionError() || !result.getError().isEmpty()) {
            LOG.info("region {}: {} of store {} refused: {}", region.getId(), kind, target.getStoreId(),
                    result.hasRegionError() ? result.getRegionError().getMessage() : result.getError());
            return;
        }
        LOG.info("region {}: {} on store {} ({}) -> {}", region.getId(), kind, target.getStoreId(), why,
                RegionDescriptions.describe(result.getRegion()));
        reconcile(peer);
    }

    private boolean caughtUp(RegionPeer peer, long storeId) {
        RaftGroupHandle handle = peer.handle();
        Long match = handle.followerMatchIndices().get(StorePeers.raftPeerId(storeId));
        return match != null && match >= handle.commitIndex() - PROMOTION_LAG;
    }

    // ---- membership record -> Raft configuration ----

    /** Moves the region's Raft configuration toward its membership record, if they differ (leader only). */
    public void reconcile(RegionPeer peer) {
        if (!peer.isLeaderReady() || peer.region() == null || !peer.reconciling.compareAndSet(false, true)) {
            return;
        }
        try {
            Region region = peer.region();
            List<RaftPeerSpec> desired = node.raftMembers(region);
            RaftGroupHandle handle = peer.handle();
            List<RaftPeerSpec> actual = handle.configuration();
            if (sameMembers(desired, actual)) {
                restartStuckListeners(peer, handle, desired);
                return;
            }
            Set<String> present = new HashSet<>();
            actual.forEach(member -> present.add(member.id()));
            for (Peer member : region.getPeersList()) {
                if (!present.contains(StorePeers.raftPeerId(member.getStoreId()))) {
                    if (!createReplica(region, member, desired)) {
                        return;
                    }
                }
            }
            List<RaftPeerSpec> voters = desired.stream().filter(member -> !member.listener()).toList();
            List<RaftPeerSpec> listeners = desired.stream().filter(RaftPeerSpec::listener).toList();
            LOG.info("region {}: moving the Raft configuration from {} to voters {} listeners {}", region.getId(),
                    ids(actual), ids(voters), ids(listeners));
            handle.setConfiguration(voters, listeners).get(2, TimeUnit.MINUTES);
            peer.heartbeatDue.set(true);
            LOG.info("region {}: Raft configuration now matches its membership record", region.getId());
        } catch (Exception e) {
            LOG.warn("region {}: moving the Raft configuration failed (will retry): {}", peer.regionId(), e.toString());
        } finally {
            peer.reconciling.set(false);
        }
    }

    /**
     * Drops a listener whose acknowledged index is stuck from the Raft configuration and adds it back (see
     * {@link ListenerProgress}); the region's membership record does not change.
     */
    private void restartStuckListeners(RegionPeer peer, RaftGroupHandle handle, List<RaftPeerSpec> desired)
            throws Exception {
        Map<String, Long> listenerIndices = new HashMap<>();
        Map<String, Long> matchIndices = handle.followerMatchIndices();
        for (RaftPeerSpec member : desired) {
            if (member.listener() && matchIndices.containsKey(member.id())) {
                listenerIndices.put(member.id(), matchIndices.get(member.id()));
            }
        }
        List<String> stuck = listenerProgress.stuck(peer.regionId(), listenerIndices, handle.commitIndex(),
                System.nanoTime());
        if (stuck.isEmpty()) {
            return;
        }
        List<RaftPeerSpec> voters = desired.stream().filter(member -> !member.listener()).toList();
        List<RaftPeerSpec> listeners = desired.stream().filter(RaftPeerSpec::listener).toList();
        List<RaftPeerSpec> others = listeners.stream().filter(member -> !stuck.contains(member.id())).toList();
        LOG.info("region {}: listeners {} acknowledged nothing new for {} s while the region committed more;"
                + " dropping them from the Raft configuration and adding them back", peer.regionId(), stuck,
                LISTENER_STUCK.toSeconds());
        handle.setConfiguration(voters, others).get(2, TimeUnit.MINUTES);
        handle.setConfiguration(voters, listeners).get(2, TimeUnit.MINUTES);
        LOG.info("region {}: listeners {} are back in the Raft configuration", peer.regionId(), stuck);
    }

    private boolean createReplica(Region region, Peer member, List<RaftPeerSpec> desired) {
        List<RaftMember> members = new ArrayList<>();
        for (RaftPeerSpec spec : desired) {
            members.add(RaftMember.newBuilder().setStoreId(StorePeers.storeIdOf(spec.id()))
                    .setRaftAddress(spec.address()).setLearner(spec.listener()).build());
        }
        CreatePeerResponse response = clients.admin(node.addressOf(member.getStoreId()))
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .createPeer(CreatePeerRequest.newBuilder().setRegion(region).setPeer(member).addAllMembers(members).build());
        if (!response.getError().isEmpty()) {
            LOG.info("region {}: store {} cannot take a replica yet: {}", region.getId(), member.getStoreId(), response.getError());
            return false;
        }
        return true;
    }

    private static boolean sameMembers(List<RaftPeerSpec> desired, List<RaftPeerSpec> actual) {
        Set<String> a = new HashSet<>();
        desired.forEach(member -> a.add(member.id() + "/" + member.listener()));
        Set<String> b = new HashSet<>();
        actual.forEach(member -> b.add(member.id() + "/" + member.listener()));
        return a.equals(b);
    }

    private static List<String> ids(List<RaftPeerSpec> members) {
        return members.stream().map(RaftPeerSpec::id).toList();
    }

    // ---- leadership ----

    public TransferLeaderResponse transferLeader(RegionPeer peer, long toStore) {
        Region region = peer.region();
        if (region == null || !peer.isLeaderReady()) {
            return TransferLeaderResponse.newBuilder().setRegionError(RegionErrors.notLeader(peer.regionId(),
                    peer.leaderPeer().orElse(null))).build();
        }
        if (toStore == node.storeId()) {
            return TransferLeaderResponse.getDefaultInstance();
        }
        Optional<Peer> target = region.getPeersList().stream()
                .filter(p -> p.getStoreId() == toStore && p.getRole() == PeerRole.VOTER).findFirst();
        if (target.isEmpty()) {
            return TransferLeaderResponse.newBuilder().setError("region " + region.getId() + " has no voter on store " + toStore).build();
        }
        handOver.prepare(peer);
        // The lease must end before another store can serve, so stop reading locally first.
        peer.lease().revoke();
        try {
            peer.handle().transferLeadership(StorePeers.raftPeerId(toStore), TRANSFER_TIMEOUT).get(30, TimeUnit.SECONDS);
            metrics.operatorSteps.labelValues("TRANSFER_LEADER").inc();
            LOG.info("region {}: leadership moved to store {}", region.getId(), toStore);
            return TransferLeaderResponse.getDefaultInstance();
        } catch (Exception e) {
            handOver.abandon(peer);
            return TransferLeaderResponse.newBuilder().setError("leader transfer of region " + region.getId()
                    + " to store " + toStore + " failed: " + e.getMessage()).build();
        }
    }

    // ---- split ----

    /** Splits a region this store leads at {@code splitKey}, or at the middle of its data when none is given. */
    public SplitRegionResponse split(RegionPeer peer, byte[] splitKey) {
        Region region = peer.region();
        if (region == null || !peer.isLeaderReady()) {
            return SplitRegionResponse.newBuilder().setRegionError(RegionErrors.notLeader(peer.regionId(),
                    peer.leaderPeer().orElse(null))).build();
        }
        byte[] key = splitKey.length > 0 ? splitKey : middleKey(region).orElse(null);
        if (key == null) {
            return SplitRegionResponse.newBuilder().setError("region " + region.getId()
                    + " holds too little data to find a middle key; give a split key").build();
        }
        byte[] start = region.getStartKey().toByteArray();
        byte[] end = region.getEndKey().toByteArray();
        if (KeyRanges.compare(key, start) <= 0 || (end.length > 0 && KeyRanges.compare(key, end) >= 0)) {
            return SplitRegionResponse.newBuilder().setError("split key " + Keys.describe(key)
                    + " is not strictly inside region " + region.getId()).build();
        }
        long firstId = placement.allocateIds(IdKind.REGION_ID, 1 + region.getPeersCount());
        Split.Builder split = Split.newBuilder().setSplitKey(ByteString.copyFrom(key)).setNewRegionId(firstId);
        for (int i = 0; i < region.getPeersCount(); i++) {
            split.addNewPeerIds(firstId + 1 + i);
        }
        handOver.prepare(peer);
        CommandResult result = peer.propose(RaftCommand.newBuilder().setEpoch(region.getEpoch()).setSplit(split).build()).join();
        if (result.hasRegionError() || !result.getError().isEmpty()) {
            handOver.abandon(peer);
        }
        if (result.hasRegionError()) {
            return SplitRegionResponse.newBuilder().setRegionError(result.getRegionError()).build();
        }
        if (!result.getError().isEmpty()) {
            return SplitRegionResponse.newBuilder().setError(result.getError()).build();
        }
        List<Region> regions = new ArrayList<>();
        regions.add(result.getRegion());
        regions.addAll(result.getDerivedList());
        try {
            placement.reportSplit(regions);
        } catch (RuntimeException e) {
            LOG.info("region {}: reporting the split to placement failed (heartbeats will tell it): {}", region.getId(),
                    e.toString());
        }
        peer.heartbeatDue.set(true);
        return SplitRegionResponse.newBuilder().addAllRegions(regions).build();
    }

    /** A key near the middle of the region's data, by bytes. */
    Optional<byte[]> middleKey(Region region) {
        byte[] lower = Keys.dataKey(region.getStartKey().toByteArray());
        byte[] upper = Keys.dataEndKey(region.getEndKey().toByteArray());
        long total = 0;
        List<byte[]> samples = new ArrayList<>();
        long step = Math.max(4096, node.engine().approximateSize(lower, upper) / 64);
        long sinceSample = 0;
        for (ColumnFamily cf : List.of(ColumnFamily.DEFAULT, ColumnFamily.WRITE)) {
            try (EngineIterator iterator = node.engine().iterator(cf, lower, upper)) {
                for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                    int size = iterator.key().length + iterator.value().length;
                    total += size;
                    sinceSample += size;
                    if (sinceSample >= step) {
                        samples.add(Keys.userKeyOf(iterator.key()));
                        sinceSample = 0;
                    }
                }
            }
        }
        if (samples.size() < 2) {
            return Optional.empty();
        }
        samples.sort(KeyRanges::compare);
        byte[] middle = samples.get(samples.size() / 2);
        return KeyRanges.compare(middle, region.getStartKey().toByteArray()) > 0 ? Optional.of(middle) : Optional.empty();
    }

    /** Splits every region this store leads that grew past the size limit. */
    public void checkSplits() {
        long limit = node.config().regionMaxSize().bytes();
        for (RegionPeer peer : node.peers()) {
            Region region = peer.region();
            if (region == null || !peer.isLeaderReady()) {
                continue;
            }
            long size = approximateSize(region);
            if (size > limit) {
                LOG.info("region {} holds about {} MiB, over the {} MiB limit: splitting", region.getId(), size >> 20, limit >> 20);
                SplitRegionResponse response = split(peer, new byte[0]);
                if (response.hasRegionError() || !response.getError().isEmpty()) {
                    LOG.info("region {}: split deferred: {}", region.getId(),
                            response.hasRegionError() ? response.getRegionError().getMessage() : response.getError());
                }
            }
        }
    }

    public long approximateSize(Region region) {
        return node.engine().approximateSize(Keys.dataKey(region.getStartKey().toByteArray()),
                Keys.dataEndKey(region.getEndKey().toByteArray()));
    }


}
