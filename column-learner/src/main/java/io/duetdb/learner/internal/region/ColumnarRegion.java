package io.duetdb.learner.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionTransitions;
import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.StableLayer;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.raftcmd.ChangePeer;
import io.duetdb.proto.raftcmd.CommitMerge;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RaftEntry;
import io.duetdb.proto.raftcmd.Split;
import io.duetdb.raft.DurableStateMachine;
import io.duetdb.raft.LogPosition;
import io.duetdb.raft.RaftPeerSpec;

/**
 * A region replica on a column learner: a thin adapter that decodes each log entry, checks each command's epoch
 * and keys as the row store's apply does (so every replica takes or refuses it alike), and hands transactional
 * commands to the {@link LogReplayer} and admin commands to {@link RegionTransitions}. Apply is deterministic; the
 * applied position moves with the data, and both reach disk together when a snapshot is taken.
 */
public final class ColumnarRegion implements DurableStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarRegion.class);

    /** What the learner does about changes that reach beyond this replica. Called on the apply thread. */
    public interface Listener {
        /** A split created {@code right}, whose rows are in {@code layers}. */
        void split(ColumnarRegion left, Region right, Layers layers);

        /** A merge wants the source replica's layers; null when this learner does not hold it. */
        Layers absorbSource(long sourceRegionId);

        /** The region no longer lists this learner's store, or was merged away. */
        void removed(ColumnarRegion region, String why);

        void applied(ColumnarRegion region);
    }

    /** Fetches a snapshot of the region from the store that leads it. */
    public interface SnapshotInstaller {
        CompletableFuture<InstalledSnapshot> install(long regionId, String leaderId, LogPosition leaderFirstEntry);
    }

    /** A fetched snapshot: the region, its rows, and the log position they cover. */
    public record InstalledSnapshot(Region region, RegionDelta delta, LogPosition position) {
        public InstalledSnapshot {
            requireNonNull(region, "region is null");
            requireNonNull(delta, "delta is null");
            requireNonNull(position, "position is null");
        }
    }

    private final long regionId;
    private final long storeId;
    private final ReplicaFiles files;
    private final Listener listener;
    private final SnapshotInstaller installer;
    private volatile Region region;
    private volatile ReplicaState state;
    private volatile long mergeTarget;
    private volatile Layers layers;
    private volatile LogPosition applied;
    private volatile LogPosition snapshot;
    /** Reads at or below this timestamp need neither the leader nor lock checks; 0 when none is known. */
    private volatile long resolvedTs;
    /** A resolved timestamp pushed by the leader for an index not applied here yet. */
    private Pushed pushed;
    /** Moves when a split, merge or snapshot replaces the layers: a delta merge begun before then is discarded. */
    private long generation;
    /** The pack files the replica's saved file names. */
    private volatile Set<Long> savedPacks = Set.of();

    /** A replica as last saved, or (header null) an empty one that waits for its first snapshot. */
    public ColumnarRegion(long regionId, long storeId, ReplicaHeader header, Layers layers, ReplicaFiles files,
            Listener listener, SnapshotInstaller installer) {
        this.regionId = regionId;
        this.storeId = storeId;
        this.files = requireNonNull(files, "files is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.installer = requireNonNull(installer, "installer is null");
        if (header == null) {
            this.state = ReplicaState.NORMAL;
            this.layers = Layers.of(new RegionDelta());
            this.applied = LogPosition.NONE;
            this.snapshot = LogPosition.NONE;
        } else {
            this.region = header.getRegion();
            this.state = header.getState();
            this.mergeTarget = header.getMergeTarget();
            this.layers = requireNonNull(layers, "layers is null");
            this.applied = new LogPosition(header.getAppliedTerm(), header.getAppliedIndex());
            this.snapshot = applied;
            this.savedPacks = layers.stable().packIds();
        }
    }

    public long regionId() {
        return regionId;
    }

    /** The region as this replica knows it, or null while it waits for its first snapshot. */
    public Region region() {
        return region;
    }

    public ReplicaState state() {
        return state;
    }

    /** The replica's layers as of now: a reader takes them once and reads them all. */
    public Layers layers() {
        return layers;
    }

    /** The pack files named by the replica's saved file. */
    public Set<Long> savedPacks() {
        return savedPacks;
    }

    @Override
    public LogPosition applied() {
        return applied;
    }

    /**
     * The timestamp at or below which this replica reads as it stands: every transaction that can still commit
     * at or below it has committed in the applied log ({@code ResolvedTs} from the leader, lowered to the oldest
     * prewrite held then). 0 when none is known yet (after a start, a split, a merge or a snapshot).
     */
    public long resolvedTs() {
        return resolvedTs;
    }

    /** What became of a resolved timestamp a leader pushed. */
    public enum Advance {
        TAKEN("taken"), HELD("held"), REFUSED("refused");

        private final String label;

        Advance(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private record Pushed(long ts, long index, RegionEpoch epoch) {
    }

    /**
     * A resolved timestamp the leader pushed outside the log: it holds once this replica has applied {@code index}
     * in {@code epoch}, lowered (as a {@code ResolvedTs} entry is) to the oldest prewrite held then. Held until the
     * index applies (the newest push replaces an older one); refused when the epoch is another, since a split or
     * merge between the two changed what the promise covers.
     */
    public synchronized Advance offerResolvedTs(long ts, long index, RegionEpoch epoch) {
        requireNonNull(epoch, "epoch is null");
        if (region == null || state != ReplicaState.NORMAL) {
            return Advance.REFUSED;
        }
        if (applied.index() < index) {
            pushed = new Pushed(ts, index, epoch);
            return Advance.HELD;
        }
        return takePushed(new Pushed(ts, index, epoch)) ? Advance.TAKEN : Advance.REFUSED;
    }

    private boolean takePushed(Pushed advance) {
        if (state != ReplicaState.NORMAL || !advance.epoch().equals(region.getEpoch())) {
            return false;
        }
        resolvedTs = Math.max(resolvedTs, Math.min(advance.ts(), layers.active().oldestPendingStartTs()));
        return true;
    }

    @Override
    public synchronized byte[] apply(long term, long index, byte[] command) {
        if (index <= applied.index()) {
            return new byte[0];
        }
        RaftEntry entry;
        try {
            entry = RaftEntry.parseFrom(command);
        } catch (InvalidProtocolBufferException e) {
            LOG.error("region {}: entry {} does not decode; skipping it", regionId, index);
            entry = RaftEntry.getDefaultInstance();
        }
        for (RaftCommand raftCommand : entry.getCommandsList()) {
            if (region == null || state == ReplicaState.TOMBSTONE) {
                continue;
            }
            applyCommand(raftCommand);
        }
        applied = new LogPosition(term, index);
        if (pushed != null && pushed.index() <= index) {
            takePushed(pushed);
            pushed = null;
        }
        listener.applied(this);
        return new byte[0];
    }

    private void applyCommand(RaftCommand command) {
        switch (command.getCommandCase()) {
            case PREWRITE, COMMIT, ROLLBACK, PESSIMISTIC_LOCK, PESSIMISTIC_ROLLBACK, TXN_HEART_BEAT, GARBAGE_COLLECT,
                    TXN_IMPORT -> {
                if (acceptsData(command)) {
                    LogReplayer.apply(layers.active(), command);
                }
            }
            case CHANGE_PEER -> {
                if (acceptsAdmin(command)) {
                    changePeer(command.getChangePeer());
                }
            }
            case SPLIT -> {
                if (acceptsAdmin(command)) {
                    split(command.getSplit());
                }
            }
            case PREPARE_MERGE -> {
                if (acceptsAdmin(command)) {
                    region = RegionTransitions.prepareMerge(region);
                    state = ReplicaState.MERGING;
                    mergeTarget = command.getPrepareMerge().getTargetRegionId();
                }
            }
            case ROLLBACK_MERGE -> {
                if (state == ReplicaState.MERGING && command.getEpoch().equals(region.getEpoch())) {
                    region = RegionTransitions.rollbackMerge(region);
                    state = ReplicaState.NORMAL;
                    mergeTarget = 0;
                }
            }
            case COMMIT_MERGE -> {
                if (acceptsAdmin(command)) {
                    commitMerge(command.getCommitMerge());
                }
            }
            case RESOLVED_TS -> {
                // Prewrites held now may still commit above their start; later ones commit above the leader's ts.
                long resolved = Math.min(command.getResolvedTs().getTs(), layers.active().oldestPendingStartTs());
                resolvedTs = Math.max(resolvedTs, resolved);
            }
            // Raw commands write outside the transactional key space: no table rows.
            default -> {
            }
        }
    }

    /** The row store's apply refuses data commands of a merging region, of another epoch, or with keys outside. */
    private boolean acceptsData(RaftCommand command) {
        if (state == ReplicaState.MERGING || command.getEpoch().getVersion() != region.getEpoch().getVersion()) {
            return false;
        }
        for (ByteString key : RegionTransitions.transactionalKeys(command)) {
            if (!RegionTransitions.contains(region, key)) {
                return false;
            }
        }
        return true;
    }

    private boolean acceptsAdmin(RaftCommand command) {
        return state == ReplicaState.NORMAL && command.getEpoch().equals(region.getEpoch());
    }


    private void changePeer(ChangePeer change) {
        RegionTransitions.Outcome outcome = RegionTransitions.changePeer(region, change);
        if (outcome.refused()) {
            return;
        }
        region = outcome.region();
        if (region.getPeersList().stream().noneMatch(peer -> peer.getStoreId() == storeId)) {
            listener.removed(this, "its peer was removed from the region");
        }
    }

    private void split(Split split) {
        RegionTransitions.SplitOutcome outcome = RegionTransitions.split(region, split);
        if (outcome.error() != null) {
            return;
        }
        unfreeze();
        byte[] splitKey = split.getSplitKey().toByteArray();
        RegionDelta rightDelta = layers.active().splitOff(splitKey);
        StableLayer.Split stables = layers.stable().split(splitKey);
        layers = new Layers(stables.left(), null, layers.active());
        region = outcome.left();
        resolvedTs = 0;
        pushed = null;
        listener.split(this, outcome.right(), new Layers(stables.right(), null, rightDelta));
    }

    private void commitMerge(CommitMerge commit) {
        Region source = commit.getSource();
        RegionTransitions.Outcome outcome = RegionTransitions.commitMerge(region, source);
        if (outcome.refused()) {
            return;
        }
        Layers absorbed = listener.absorbSource(source.getId());
        if (absorbed == null) {
            // The merged range's rows from the source are not here: this replica can no longer serve the whole
            // region, so it is dropped and placement's rule checker gives the region a fresh learner replica.
            LOG.warn("region {} absorbed region {}, which this learner does not hold; dropping the replica",
                    regionId, source.getId());
            region = outcome.region();
            listener.removed(this, "it merged a region this learner does not hold");
            return;
        }
        unfreeze();
        RegionDelta active = layers.active();
        if (absorbed.frozen() != null) {
            active.absorb(absorbed.frozen());
        }
        active.absorb(absorbed.active());
        layers = new Layers(layers.stable().concat(absorbed.stable()), null, active);
        region = outcome.region();
        resolvedTs = 0;
        pushed = null;
    }

    /** Drops versions below the GC safe point; holds the apply lock so that a snapshot never sees half of it. */
    public synchronized long collectGarbage(long safePoint) {
        Layers current = layers;
        return current.active().collectGarbage(safePoint, current.stable().isEmpty() && current.frozen() == null);
    }

    /** A delta frozen for a merge into the stable layer, tied to the layers it was taken from. */
    public record MergeTicket(long generation, Layers layers) {
    }

    /**
     * Freezes the active delta for a merge when it holds at least {@code minVersions} versions and no merge is
     * under way. Writes go on into a new active delta meanwhile.
     */
    public synchronized Optional<MergeTicket> freezeForMerge(long minVersions) {
        Layers current = layers;
        if (region == null || state == ReplicaState.TOMBSTONE || current.frozen() != null
                || current.active().versionCount() < Math.max(1, minVersions)) {
            return Optional.empty();
        }
        RegionDelta.Frozen frozen = current.active().freeze();
        layers = new Layers(current.stable(), frozen.frozen(), frozen.active());
        return Optional.of(new MergeTicket(generation, layers));
    }

    /** Puts a merge's stable layer in place of the stable layer and frozen delta; false when it came too late. */
    public synchronized boolean installMerge(MergeTicket ticket, StableLayer merged,
            java.util.NavigableMap<byte[], byte[]> retained) {
        Layers current = layers;
        if (ticket.generation() != generation || current.frozen() != ticket.layers().frozen()) {
            return false;
        }
        current.active().putStored(retained);
        layers = new Layers(merged, null, current.active());
        return true;
    }

    /** A merge that failed: its frozen delta goes back to the active one. */
    public synchronized void abandonMerge(MergeTicket ticket) {
        if (ticket.generation() == generation && layers.frozen() == ticket.layers().frozen()) {
            unfreeze();
        }
    }

    /** Gives the frozen delta's versions back to the active delta (a merge under way will be discarded). */
    private void unfreeze() {
        generation++;
        Layers current = layers;
        if (current.frozen() != null) {
            current.active().absorb(current.frozen());
            layers = new Layers(current.stable(), null, current.active());
        }
    }

    /** Marks the replica gone (removed from the region or merged away); it stops applying. */
    public synchronized void tombstone() {
        state = ReplicaState.TOMBSTONE;
        generation++;
    }

    @Override
    public synchronized LogPosition takeSnapshot() {
        if (region == null) {
            return snapshot;
        }
        LogPosition position = applied;
        save(position);
        return position;
    }

    /** Saves the replica as it is now (a new split region's first state). */
    public synchronized void save() {
        if (region != null) {
            save(applied);
        }
    }

    private void save(LogPosition position) {
        Layers current = layers;
        ReplicaHeader header = ReplicaHeader.newBuilder().setRegion(region).setState(state).setMergeTarget(mergeTarget)
                .setAppliedTerm(position.term()).setAppliedIndex(position.index())
                .setVersions(current.deltaVersions()).setPending(current.active().pendingCount()).build();
        files.save(header, current);
        savedPacks = current.stable().packIds();
        snapshot = position;
    }

    @Override
    public Optional<LogPosition> latestSnapshot() {
        LogPosition current = snapshot;
        return current.index() < 0 ? Optional.empty() : Optional.of(current);
    }

    @Override
    public CompletableFuture<LogPosition> installSnapshot(String leaderId, LogPosition leaderFirstEntry) {
        return installer.install(regionId, leaderId, leaderFirstEntry).thenApply(installed -> {
            synchronized (this) {
                region = installed.region();
                state = ReplicaState.NORMAL;
                mergeTarget = 0;
                generation++;
                layers = Layers.of(installed.delta());
                applied = installed.position();
                resolvedTs = 0;
                pushed = null;
        pushed = null;
                save(applied);
            }
            LOG.info("region {} installed a snapshot from {} at {}: {} versions, {} prewrites held; {}", regionId,
                    leaderId, installed.position(), installed.delta().versionCount(), installed.delta().pendingCount(),
                    RegionDescriptions.describe(installed.region()));
            listener.applied(this);
            return installed.position();
        });
    }

    @Override
    public void onConfigurationApplied(long index, List<RaftPeerSpec> peers) {
        LOG.info("region {}: Raft configuration at index {} has {} members", regionId, index, peers.size());
    }
}
