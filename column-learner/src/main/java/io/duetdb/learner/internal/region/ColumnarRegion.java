package io.duetdb.learner.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionTransitions;
import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.meta.Region;
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
        /** A split created {@code right}, whose rows are in {@code delta}. */
        void split(ColumnarRegion left, Region right, RegionDelta delta);

        /** A merge wants the source replica's delta; null when this learner does not hold it. */
        RegionDelta absorbSource(long sourceRegionId);

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
    private volatile RegionDelta delta;
    private volatile LogPosition applied;
    private volatile LogPosition snapshot;

    /** A replica as last saved, or (header null) an empty one that waits for its first snapshot. */
    public ColumnarRegion(long regionId, long storeId, ReplicaHeader header, RegionDelta delta, ReplicaFiles files,
            Listener listener, SnapshotInstaller installer) {
        this.regionId = regionId;
        this.storeId = storeId;
        this.files = requireNonNull(files, "files is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.installer = requireNonNull(installer, "installer is null");
        if (header == null) {
            this.state = ReplicaState.NORMAL;
            this.delta = new RegionDelta();
            this.applied = LogPosition.NONE;
            this.snapshot = LogPosition.NONE;
        } else {
            this.region = header.getRegion();
            this.state = header.getState();
            this.mergeTarget = header.getMergeTarget();
            this.delta = requireNonNull(delta, "delta is null");
            this.applied = new LogPosition(header.getAppliedTerm(), header.getAppliedIndex());
            this.snapshot = applied;
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

    public RegionDelta delta() {
        return delta;
    }

    @Override
    public LogPosition applied() {
        return applied;
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
        listener.applied(this);
        return new byte[0];
    }

    private void applyCommand(RaftCommand command) {
        switch (command.getCommandCase()) {
            case PREWRITE, COMMIT, ROLLBACK, PESSIMISTIC_LOCK, PESSIMISTIC_ROLLBACK, TXN_HEART_BEAT, GARBAGE_COLLECT,
                    TXN_IMPORT -> {
                if (acceptsData(command)) {
                    LogReplayer.apply(delta, command);
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
        RegionDelta right = delta.splitOff(split.getSplitKey().toByteArray());
        region = outcome.left();
        listener.split(this, outcome.right(), right);
    }

    private void commitMerge(CommitMerge commit) {
        Region source = commit.getSource();
        RegionTransitions.Outcome outcome = RegionTransitions.commitMerge(region, source);
        if (outcome.refused()) {
            return;
        }
        RegionDelta absorbed = listener.absorbSource(source.getId());
        if (absorbed == null) {
            // The merged range's rows from the source are not here: this replica can no longer serve the whole
            // region, so it is dropped and placement's rule checker gives the region a fresh learner replica.
            LOG.warn("region {} absorbed region {}, which this learner does not hold; dropping the replica",
                    regionId, source.getId());
            region = outcome.region();
            listener.removed(this, "it merged a region this learner does not hold");
            return;
        }
        delta.absorb(absorbed);
        region = outcome.region();
    }

    /** Drops versions below the GC safe point; holds the apply lock so that a snapshot never sees half of it. */
    public synchronized long collectGarbage(long safePoint) {
        return delta.collectGarbage(safePoint);
    }

    /** Marks the replica gone (removed from the region or merged away); it stops applying. */
    public synchronized void tombstone() {
        state = ReplicaState.TOMBSTONE;
    }

    @Override
    public synchronized LogPosition takeSnapshot() {
        if (region == null) {
            return snapshot;
        }
        LogPosition position = applied;
        files.save(header(position), delta);
        snapshot = position;
        return position;
    }

    /** Saves the replica as it is now (a new split region's first state). */
    public synchronized void save() {
        if (region != null) {
            files.save(header(applied), delta);
            snapshot = applied;
        }
    }

    private ReplicaHeader header(LogPosition position) {
        return ReplicaHeader.newBuilder().setRegion(region).setState(state).setMergeTarget(mergeTarget)
                .setAppliedTerm(position.term()).setAppliedIndex(position.index())
                .setVersions(delta.versionCount()).setPending(delta.pendingCount()).build();
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
                delta = installed.delta();
                applied = installed.position();
                files.save(header(applied), delta);
                snapshot = applied;
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
