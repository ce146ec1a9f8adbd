package io.duetdb.learner.internal;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.region.RegionCache;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.StorePeers;
import io.duetdb.learner.internal.metrics.LearnerMetrics;
import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.learner.internal.region.ReplicaFiles;
import io.duetdb.learner.internal.stable.ColumnPack;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.PackFiles;
import io.duetdb.learner.internal.stable.StableMerger;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.store.CreatePeerRequest;
import io.duetdb.proto.store.CreatePeerResponse;
import io.duetdb.proto.store.RaftMember;
import io.duetdb.proto.store.RegionResolvedTs;
import io.duetdb.raft.LogPosition;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.raft.RaftGroupKey;
import io.duetdb.raft.RaftNode;
import io.duetdb.raft.RaftPeerSpec;

/**
 * The replicas of one learner: creates them (empty ones that fetch a snapshot, and the right halves of splits),
 * recovers them from their files at start, and removes them when their regions drop this learner.
 */
public final class LearnerNode implements ColumnarRegion.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerNode.class);
    /** The position a region's log starts at (the row store's initial position): later replicas take a snapshot. */
    private static final LogPosition INITIAL_POSITION = new LogPosition(1, 5);

    private final long storeId;
    private final HostAndPort raftAddress;
    private final ReplicaFiles files;
    private final PackFiles packs;
    private final StableMerger merger;
    private final RegionCache directory;
    private final ColumnarRegion.SnapshotInstaller installer;
    private final Executor background;
    private final LearnerMetrics metrics;
    private final Map<Long, ColumnarRegion> replicas = new ConcurrentHashMap<>();
    /** State machines made before their Raft group exists, handed to Ratis when it asks for them. */
    private final Map<Long, ColumnarRegion> prepared = new ConcurrentHashMap<>();
    /** Split-off replicas saved but not yet hosted: their packs are live. */
    private final Map<Long, ColumnarRegion> splitting = new ConcurrentHashMap<>();
    private RaftNode raftNode;
    private volatile long safePoint;
    /** Region id to when its replica last had applied every entry committed (System.nanoTime). */
    private final Map<Long, Long> caughtUpNanos = new ConcurrentHashMap<>();

    public LearnerNode(long storeId, HostAndPort raftAddress, Path replicaDirectory, PackFiles packs,
            StableMerger merger, RegionCache directory, ColumnarRegion.SnapshotInstaller installer, Executor background,
            LearnerMetrics metrics) {
        this.storeId = storeId;
        this.raftAddress = requireNonNull(raftAddress, "raftAddress is null");
        this.packs = requireNonNull(packs, "packs is null");
        this.merger = requireNonNull(merger, "merger is null");
        this.files = new ReplicaFiles(replicaDirectory, packs);
        this.directory = requireNonNull(directory, "directory is null");
        this.installer = requireNonNull(installer, "installer is null");
        this.background = requireNonNull(background, "background is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /** Loads the saved replicas, then starts Raft, which recovers their groups and replays their logs. */
    public void start(RaftNode node) throws IOException {
        Map<Long, ColumnPack> loaded = new HashMap<>();
        Set<Long> live = new HashSet<>();
        List<Long> damaged = new ArrayList<>();
        for (Path file : files.list()) {
            ReplicaFiles.Saved saved;
            try {
                saved = files.load(file, loaded);
            } catch (IOException e) {
                long regionId = ReplicaFiles.regionIdOf(file);
                LOG.error("region {}: its learner replica cannot be loaded and will be rebuilt from a snapshot: {}",
                        regionId, e.getMessage());
                damaged.add(regionId);
                continue;
            }
            long regionId = saved.header().getRegion().getId();
            if (saved.header().getState() == ReplicaState.TOMBSTONE) {
                files.delete(regionId);
                continue;
            }
            live.addAll(saved.layers().stable().packIds());
            prepared.put(regionId, newReplica(regionId, saved.header(), saved.layers()));
        }
        int unused = packs.deleteExcept(live);
        if (unused > 0) {
            LOG.info("learner store {}: deleted {} pack files no replica names", storeId, unused);
        }
        for (long regionId : damaged) {
            files.delete(regionId);
            metrics.replicasDestroyed.inc();
        }
        for (RaftGroupKey key : node.storedGroups()) {
            // A group without its replica's data (damaged, removed, or never saved) cannot replay its log, whose
            // start assumes that data: it goes too. A region that still lists this learner is created again
            // empty and installs a snapshot (createMissing).
            if (!prepared.containsKey(key.id())) {
                node.deleteStoredGroup(key);
            }
        }
        this.raftNode = node;
        for (RaftGroupHandle handle : node.start()) {
            long regionId = handle.key().id();
            ColumnarRegion replica = prepared.remove(regionId);
            if (replica != null) {
                replicas.put(regionId, replica);
            }
        }
        prepared.clear();
        LOG.info("learner store {} hosts {} replicas ({} damaged ones dropped to be rebuilt)", storeId, replicas.size(),
                damaged.size());
    }

    private ColumnarRegion newReplica(long regionId, ReplicaHeader header, Layers layers) {
        return new ColumnarRegion(regionId, storeId, header, layers, files, this, installer);
    }

    /** Ratis asks for the state machine of a group it recovers or creates. */
    public ColumnarRegion stateMachineFor(RaftGroupKey key) {
        ColumnarRegion replica = prepared.get(key.id());
        if (replica != null) {
            return replica;
        }
        replica = newReplica(key.id(), null, null);
        prepared.put(key.id(), replica);
        return replica;
    }

    /** Creates an empty replica that installs a snapshot from the leader (placement added this learner). */
    public synchronized CreatePeerResponse createPeer(CreatePeerRequest request) {
        Region region = request.getRegion();
        ColumnarRegion existing = replicas.get(region.getId());
        if (existing != null) {
            Optional<String> stale = staleIncarnation(existing, request.getPeer());
            if (stale.isEmpty()) {
                return CreatePeerResponse.newBuilder().setAlreadyExists(true).build();
            }
            // The replica belongs to an earlier peer of this store that placement removed; left in place, it would
            // replay its own removal from the leader's log and go, after acknowledging entries a new replica lacks.
            destroy(existing, stale.get());
        }
        List<RaftPeerSpec> members = new ArrayList<>();
        for (RaftMember member : request.getMembersList()) {
            members.add(new RaftPeerSpec(StorePeers.raftPeerId(member.getStoreId()), member.getRaftAddress(),
                    member.getLearner()));
        }
        try {
            ColumnarRegion replica = newReplica(region.getId(), null, null);
            prepared.put(region.getId(), replica);
            raftNode.addGroup(RaftGroupKey.region(region.getId()), members);
            replicas.put(region.getId(), replica);
        } catch (IOException | RuntimeException e) {
            return CreatePeerResponse.newBuilder().setError("cannot create a learner replica of region " + region.getId()
                    + ": " + e.getMessage()).build();
        } finally {
            prepared.remove(region.getId());
        }
        metrics.replicasCreated.inc();
        LOG.info("created an empty learner replica of region {} (peer {}); it will fetch a snapshot", region.getId(),
                request.getPeer().getId());
        return CreatePeerResponse.getDefaultInstance();
    }

    /** Why the hosted replica is not the peer placement now adds on this store, if it is not. */
    private Optional<String> staleIncarnation(ColumnarRegion replica, Peer added) {
        if (replica.state() == ReplicaState.TOMBSTONE) {
            return Optional.of("it was removed from the region, and a new peer " + added.getId() + " replaces it");
        }
        Region known = replica.region();
        if (known == null) {
            // Still waiting for its first snapshot, which brings the region as the leader has it.
            return Optional.empty();
        }
        Optional<Peer> own = known.getPeersList().stream().filter(peer -> peer.getStoreId() == storeId).findFirst();
        if (own.isPresent() && own.get().getId() == added.getId()) {
            return Optional.empty();
        }
        return Optional.of("its peer " + own.map(peer -> String.valueOf(peer.getId())).orElse("(none)")
                + " was removed from the region, and a new peer " + added.getId() + " replaces it");
    }

    /**
     * Creates an empty replica of a region that lists this learner but is not hosted here: a region split off while
     * this learner's replica of its parent was installing a snapshot taken after the split, so the split never reached
     * this learner's log. The new replica installs a snapshot from the region's leader.
     */
    public synchronized boolean createMissing(Region region) {
        if (replicas.containsKey(region.getId()) || region.getPeersList().stream()
                .noneMatch(peer -> peer.getStoreId() == storeId && peer.getRole() == PeerRole.LEARNER)) {
            return false;
        }
        try {
            ColumnarRegion replica = newReplica(region.getId(), null, null);
            prepared.put(region.getId(), replica);
            raftNode.addGroup(RaftGroupKey.region(region.getId()), raftMembers(region));
            replicas.put(region.getId(), replica);
        } catch (IOException | RuntimeException e) {
            LOG.warn("region {}: cannot create its missing learner replica: {}", region.getId(), e.toString());
            return false;
        } finally {
            prepared.remove(region.getId());
        }
        metrics.replicasCreated.inc();
        LOG.info("created the missing learner replica of {}; it will fetch a snapshot", RegionDescriptions.describe(region));
        return true;
    }

    @Override
    public void split(ColumnarRegion left, Region right, Layers layers) {
        if (replicas.containsKey(right.getId())) {
            return;
        }
        ReplicaHeader header = ReplicaHeader.newBuilder().setRegion(right).setState(ReplicaState.NORMAL)
                .setAppliedTerm(INITIAL_POSITION.term()).setAppliedIndex(INITIAL_POSITION.index()).build();
        ColumnarRegion replica = newReplica(right.getId(), header, layers);
        splitting.put(right.getId(), replica);
        replica.save();
        LOG.info("region {} split off {}", left.regionId(), RegionDescriptions.describe(right));
        background.execute(() -> createGroup(replica, right));
    }

    private synchronized void createGroup(ColumnarRegion replica, Region region) {
        try {
            prepared.put(region.getId(), replica);
            raftNode.addGroup(RaftGroupKey.region(region.getId()), raftMembers(region));
            replicas.put(region.getId(), replica);
        } catch (IOException | RuntimeException e) {
            LOG.warn("region {}: cannot start the Raft group of the split-off replica: {}", region.getId(), e.toString());
        } finally {
            prepared.remove(region.getId());
            splitting.remove(region.getId());
        }
    }

    @Override
    public Layers absorbSource(long sourceRegionId) {
        ColumnarRegion source = replicas.get(sourceRegionId);
        if (source == null || source.region() == null) {
            return null;
        }
        source.tombstone();
        background.execute(() -> destroy(source, "merged into its neighbour"));
        return source.layers();
    }

    @Override
    public void removed(ColumnarRegion region, String why) {
        region.tombstone();
        background.execute(() -> destroy(region, why));
    }

    @Override
    public void applied(ColumnarRegion region) {
        metrics.appliedEntries.inc();
        lag(region);
    }

    /** The replica's replication lag, noting when it is caught up. */
    public ReplicationLag lag(ColumnarRegion replica) {
        long applied = replica.applied().index();
        long committed;
        try {
            committed = group(replica.regionId()).map(RaftGroupHandle::commitIndex).orElse(applied);
        } catch (RuntimeException e) {
            // The group is closing.
            committed = applied;
        }
        long now = System.nanoTime();
        if (applied >= committed) {
            caughtUpNanos.put(replica.regionId(), now);
            return ReplicationLag.NONE;
        }
        long since = caughtUpNanos.computeIfAbsent(replica.regionId(), id -> now);
        return new ReplicationLag(committed - applied, (now - since) / 1e9);
    }

    /**
     * Leaves the region's Raft group and deletes the replica's file, if the replica is still the one hosted: a
     * destruction decided for an earlier incarnation of the region's replica must not reach its successor.
     */
    public synchronized void destroy(ColumnarRegion replica, String why) {
        long regionId = replica.regionId();
        replica.tombstone();
        if (!replicas.remove(regionId, replica)) {
            LOG.debug("region {}: its earlier learner replica is already gone ({})", regionId, why);
            return;
        }
        caughtUpNanos.remove(regionId);
        try {
            raftNode.removeGroup(RaftGroupKey.region(regionId));
        } catch (IOException | RuntimeException e) {
            LOG.warn("region {}: leaving its Raft group failed: {}", regionId, e.toString());
        }
        files.delete(regionId);
        metrics.replicasDestroyed.inc();
        LOG.info("removed the learner replica of region {}: {}", regionId, why);
    }

    /** The Raft members of a region: every peer's store, learners as listeners. */
    List<RaftPeerSpec> raftMembers(Region region) {
        List<RaftPeerSpec> members = new ArrayList<>();
        for (Peer peer : region.getPeersList()) {
            String address = peer.getStoreId() == storeId ? raftAddress.toString()
                    : directory.store(peer.getStoreId()).getStore().getRaftAddress();
            members.add(new RaftPeerSpec(StorePeers.raftPeerId(peer.getStoreId()), address,
                    peer.getRole() == PeerRole.LEARNER));
        }
        return members;
    }

    /** Follows placement's GC safe point: drops the versions below it; reads below it are refused from then on. */
    public void collectGarbage(long latestSafePoint) {
        if (latestSafePoint <= safePoint) {
            return;
        }
        safePoint = latestSafePoint;
        long dropped = 0;
        for (ColumnarRegion replica : replicas()) {
            dropped += replica.collectGarbage(latestSafePoint);
        }
        metrics.gcVersions.inc(dropped);
        LOG.info("learner store {}: GC to safe point {} dropped {} row versions", storeId, latestSafePoint, dropped);
    }

    /**
     * Merges into the stable layer the deltas holding at least {@code minVersions} versions and at least
     * {@code stableRatio} of their stable layer's versions, one replica at a time, then deletes the pack files no
     * replica uses any more. Runs on one thread.
     */
    public void mergeDeltas(long minVersions, double stableRatio) {
        boolean merged = false;
        for (ColumnarRegion replica : replicas()) {
            long threshold = Math.max(minVersions, (long) (replica.layers().stable().rows() * stableRatio));
            Optional<ColumnarRegion.MergeTicket> ticket = replica.freezeForMerge(threshold);
            if (ticket.isEmpty()) {
                continue;
            }
            merged |= mergeDelta(replica, ticket.get());
        }
        if (merged) {
            sweepPacks();
        }
    }

    private boolean mergeDelta(ColumnarRegion replica, ColumnarRegion.MergeTicket ticket) {
        long started = System.nanoTime();
        Layers layers = ticket.layers();
        StableMerger.Result result;
        try {
            result = merger.merge(replica.regionId(), layers.stable(), layers.frozen().versions(), safePoint);
            for (ColumnPack pack : result.created()) {
                packs.write(pack);
            }
        } catch (RuntimeException e) {
            LOG.warn("region {}: merging its delta into columns failed; it stays in the delta: {}", replica.regionId(),
                    e.toString());
            metrics.deltaMerges.labelValues("failed").inc();
            replica.abandonMerge(ticket);
            return false;
        }
        if (!replica.installMerge(ticket, result.stable(), result.retained())) {
            metrics.deltaMerges.labelValues("discarded").inc();
            LOG.info("region {}: a delta merge was overtaken by a split, merge or snapshot; discarded",
                    replica.regionId());
            return true;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        metrics.deltaMerges.labelValues("ok").inc();
        metrics.deltaMergeSeconds.observe(seconds);
        LOG.info("region {}: merged {} delta versions into {} new packs in {} ms ({} versions written, {} dropped;"
                + " stable now {} versions in {} slices)", replica.regionId(), layers.frozen().versionCount(),
                result.created().size(), Math.round(seconds * 1000), result.mergedVersions(), result.droppedVersions(),
                result.stable().rows(), result.stable().slices().size());
        return true;
    }

    /** Deletes the pack files that no replica's layers nor saved file name. Called on the merge thread only. */
    private void sweepPacks() {
        Set<Long> live = new HashSet<>();
        for (Map<Long, ColumnarRegion> hosted : List.of(replicas, prepared, splitting)) {
            for (ColumnarRegion replica : hosted.values()) {
                live.addAll(replica.layers().stable().packIds());
                live.addAll(replica.savedPacks());
            }
        }
        int deleted = packs.deleteExcept(live);
        if (deleted > 0) {
            LOG.info("learner store {}: deleted {} pack files no replica uses", storeId, deleted);
        }
    }

    /** Reads below this timestamp are refused: the versions they need may be gone. */
    public long safePoint() {
        return safePoint;
    }

    /** Takes the resolved timestamps a region leader pushed; returns how many name a replica held here. */
    public int acceptResolvedTs(List<RegionResolvedTs> regions) {
        int held = 0;
        for (RegionResolvedTs advance : regions) {
            ColumnarRegion replica = replicas.get(advance.getRegionId());
            ColumnarRegion.Advance outcome = replica == null ? ColumnarRegion.Advance.REFUSED
                    : replica.offerResolvedTs(advance.getTs(), advance.getAppliedIndex(), advance.getEpoch());
            metrics.resolvedTsPushes.labelValues(outcome.label()).inc();
            if (replica != null) {
                held++;
            }
        }
        return held;
    }

    public Optional<ColumnarRegion> replica(long regionId) {
        return Optional.ofNullable(replicas.get(regionId));
    }

    public Optional<RaftGroupHandle> group(long regionId) {
        return raftNode == null ? Optional.empty() : raftNode.group(RaftGroupKey.region(regionId));
    }

    public Collection<ColumnarRegion> replicas() {
        return List.copyOf(replicas.values());
    }

    public long storeId() {
        return storeId;
    }

    @Override
    public void close() throws IOException {
        if (raftNode != null) {
            raftNode.close();
        }
    }
}
