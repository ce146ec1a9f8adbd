package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.region.RegionDescriptions;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RaftEntry;
import io.duetdb.proto.raftcmd.RaftEntryResult;
import io.duetdb.raft.DurableStateMachine;
import io.duetdb.raft.LogPosition;
import io.duetdb.raft.RaftPeerSpec;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;

/**
 * A region replica's state machine: decodes each log entry, applies its commands to one engine write batch
 * together with the applied position, and tells the store what changed. A replica without state (created
 * empty on this store) gets it by installing a snapshot fetched from the leader.
 */
public final class RegionStateMachine implements DurableStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(RegionStateMachine.class);

    /** How the store hears about what the region did. Called on the region's apply thread or Raft threads. */
    public interface Listener {
        void applied(RegionStateMachine region, List<ApplyOutcome> outcomes);

        void leaderChanged(RegionStateMachine region, String leaderId, boolean self);

        void leaderReady(RegionStateMachine region);

        void configurationApplied(RegionStateMachine region, List<RaftPeerSpec> peers);
    }

    /** Fetches and ingests a snapshot of the region from a store that holds it. */
    public interface SnapshotInstaller {
        CompletableFuture<InstalledSnapshot> install(long regionId, String leaderId, LogPosition leaderFirstEntry);
    }

    private final long regionId;
    private final Engine engine;
    private final Listener listener;
    private final SnapshotInstaller installer;
    private volatile RegionLocalState state;
    private volatile LogPosition applied;
    private volatile LogPosition snapshot;

    public RegionStateMachine(long regionId, RegionLocalState state, LogPosition applied, LogPosition snapshot,
            Engine engine, Listener listener, SnapshotInstaller installer) {
        this.regionId = regionId;
        this.state = state;
        this.applied = requireNonNull(applied, "applied is null");
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
        this.engine = requireNonNull(engine, "engine is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.installer = requireNonNull(installer, "installer is null");
    }

    public long regionId() {
        return regionId;
    }

    /** The region's state, or null while this replica waits for its first snapshot. */
    public RegionLocalState state() {
        return state;
    }

    /** The region as this replica knows it, or null while it waits for its first snapshot. */
    public Region region() {
        RegionLocalState current = state;
        return current == null ? null : current.getRegion();
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
        RaftEntryResult.Builder results = RaftEntryResult.newBuilder();
        List<ApplyOutcome> outcomes = new ArrayList<>();
        RegionLocalState current = state;
        LogPosition position = new LogPosition(term, index);
        EngineWriteBatch batch = engine.newWriteBatch();
        try {
            Set<ByteString> touched = new HashSet<>();
            for (RaftCommand raftCommand : entry.getCommandsList()) {
                if (current == null || current.getState() == PeerState.TOMBSTONE) {
                    results.addResults(CommandApplier.regionError(RegionErrors.regionNotFound(regionId)));
                    continue;
                }
                List<ByteString> keys = CommandApplier.transactionalKeys(raftCommand);
                if (!keys.isEmpty() && keys.stream().anyMatch(touched::contains)) {
                    // Transactional actions read the engine: let them see what earlier commands of this entry
                    // wrote. Safe without the applied position because transactional commands are idempotent.
                    engine.write(batch, false);
                    batch.close();
                    batch = engine.newWriteBatch();
                    touched.clear();
                }
                touched.addAll(keys);
                ApplyOutcome outcome = CommandApplier.apply(current, raftCommand, engine, batch);
                outcomes.add(outcome);
                results.addResults(outcome.result());
                current = outcome.state();
            }
            RegionStorage.putApplyState(batch, regionId, RegionStorage.applyState(position, snapshot));
            engine.write(batch, false);
        } finally {
            batch.close();
        }
        state = current;
        applied = position;
        if (!outcomes.isEmpty()) {
            listener.applied(this, outcomes);
        }
        return results.build().toByteArray();
    }

    @Override
    public synchronized LogPosition takeSnapshot() {
        LogPosition position = applied;
        engine.syncWal();
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            RegionStorage.putApplyState(batch, regionId, RegionStorage.applyState(position, position));
            engine.write(batch, true);
        }
        snapshot = position;
        return position;
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
                state = installed.state();
                applied = installed.position();
                snapshot = installed.position();
            }
            LOG.info("region {} installed a snapshot from {} at {}: {}", regionId, leaderId, installed.position(),
                    RegionDescriptions.describe(installed.state().getRegion()));
            listener.applied(this, List.of(ApplyOutcome.of(CommandResult.newBuilder()
                    .setRegion(installed.state().getRegion()).build(), installed.state())));
            return installed.position();
        });
    }

    @Override
    public void onLeaderChanged(String leaderId, boolean self) {
        listener.leaderChanged(this, leaderId, self);
    }

    @Override
    public void onLeaderReady() {
        listener.leaderReady(this);
    }

    @Override
    public void onConfigurationApplied(long index, List<RaftPeerSpec> peers) {
        listener.configurationApplied(this, peers);
    }
}
