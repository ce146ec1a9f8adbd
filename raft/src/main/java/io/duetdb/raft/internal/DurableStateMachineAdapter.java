package io.duetdb.raft.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftConfigurationProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.raft.DurableStateMachine;
import io.duetdb.raft.LogPosition;
import io.duetdb.raft.RaftPeerSpec;

/**
 * The Ratis side of a {@link DurableStateMachine}: snapshots are positions, not files (the state lives in
 * the store's engine), and installing one is left to the state machine (Ratis' notification mode).
 */
public final class DurableStateMachineAdapter extends LifecycleStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(DurableStateMachineAdapter.class);
    private static final Message EMPTY = Message.valueOf(ByteString.EMPTY);

    private final DurableStateMachine delegate;
    private final String name;
    private final StateMachineStorage storage = new StateMachineStorage() {
        @Override
        public void init(RaftStorage raftStorage) {
        }

        @Override
        public SnapshotInfo getLatestSnapshot() {
            return DurableStateMachineAdapter.this.getLatestSnapshot();
        }

        @Override
        public void format() {
        }

        @Override
        public void cleanupOldSnapshots(SnapshotRetentionPolicy snapshotRetentionPolicy) {
        }
    };

    public DurableStateMachineAdapter(DurableStateMachine delegate, String name) {
        this.delegate = delegate;
        this.name = name;
    }

    /**
     * Ratis replays the log from the last snapshot, so the applied position it tracks starts there; the
     * delegate skips entries it has already applied.
     */
    @Override
    void load() {
        Optional<LogPosition> snapshot = delegate.latestSnapshot();
        if (snapshot.isPresent() && snapshot.get().index() >= 0) {
            setLastAppliedTermIndex(TermIndex.valueOf(snapshot.get().term(), snapshot.get().index()));
        }
    }

    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        TermIndex current = getLastAppliedTermIndex();
        if (current == null || index > current.getIndex()) {
            super.notifyTermIndexUpdated(term, index);
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        Optional<LogPosition> snapshot = delegate.latestSnapshot();
        if (snapshot.isEmpty() || snapshot.get().index() < 0) {
            return null;
        }
        TermIndex position = TermIndex.valueOf(snapshot.get().term(), snapshot.get().index());
        return new SnapshotInfo() {
            @Override
            public TermIndex getTermIndex() {
                return position;
            }

            @Override
            public List<FileInfo> getFiles() {
                return List.of();
            }

            @Override
            public String toString() {
                return "position snapshot " + position;
            }
        };
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        try {
            byte[] reply = delegate.apply(entry.getTerm(), entry.getIndex(),
                    entry.getStateMachineLogEntry().getLogData().toByteArray());
            return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(reply)));
        } catch (RuntimeException e) {
            LOG.error("{} failed to apply entry {}: {}", name, entry.getIndex(), e.toString(), e);
            return CompletableFuture.failedFuture(e);
        } finally {
            TermIndex current = getLastAppliedTermIndex();
            if (current == null || entry.getIndex() > current.getIndex()) {
                updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            }
        }
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        // Reads are served from the engine after a ReadIndex round; the round itself needs no answer.
        return CompletableFuture.completedFuture(EMPTY);
    }

    @Override
    public long takeSnapshot() throws IOException {
        LogPosition position = delegate.takeSnapshot();
        return position.index();
    }

    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto roleInfo, TermIndex firstTermIndex) {
        String leader = roleInfo.hasFollowerInfo() && roleInfo.getFollowerInfo().hasLeaderInfo()
                ? roleInfo.getFollowerInfo().getLeaderInfo().getId().getId().toStringUtf8() : null;
        LOG.info("{} must install a snapshot: the leader {} starts its log at {}", name, leader, firstTermIndex);
        return delegate.installSnapshot(leader, new LogPosition(firstTermIndex.getTerm(), firstTermIndex.getIndex()))
                .thenApply(position -> TermIndex.valueOf(position.term(), position.index()));
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId memberId, RaftPeerId newLeaderId) {
        delegate.onLeaderChanged(newLeaderId == null ? null : newLeaderId.toString(),
                newLeaderId != null && newLeaderId.equals(memberId.getPeerId()));
    }

    @Override
    public void notifyLeaderReady() {
        delegate.onLeaderReady();
    }

    @Override
    public void notifyConfigurationChanged(long term, long index, RaftConfigurationProto configuration) {
        List<RaftPeerSpec> peers = new ArrayList<>();
        for (RaftPeerProto peer : configuration.getPeersList()) {
            peers.add(new RaftPeerSpec(peer.getId().toStringUtf8(), peer.getAddress(), false));
        }
        for (RaftPeerProto peer : configuration.getListenersList()) {
            peers.add(new RaftPeerSpec(peer.getId().toStringUtf8(), peer.getAddress(), true));
        }
        delegate.onConfigurationApplied(index, peers);
    }

}
