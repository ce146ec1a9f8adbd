package io.duetdb.raft.internal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;

import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.raft.ReplicatedStateMachine;

/**
 * The Ratis side of a {@link ReplicatedStateMachine}: decodes log entries, dispatches them, moves the
 * applied index, and keeps whole-state snapshots as single files in the group's state-machine directory.
 */
public final class StateMachineAdapter extends LifecycleStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(StateMachineAdapter.class);
    private static final Message EMPTY = Message.valueOf(ByteString.EMPTY);

    private final ReplicatedStateMachine delegate;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final String name;

    public StateMachineAdapter(ReplicatedStateMachine delegate, String name) {
        this.delegate = delegate;
        this.name = name;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        storage.init(raftStorage);
        super.initialize(server, groupId, raftStorage);
    }

    @Override
    void load() throws IOException {
        loadSnapshot(storage.loadLatestSnapshot());
    }

    private void loadSnapshot(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        Path file = snapshot.getFile().getPath();
        if (snapshot.hasMd5()) {
            MD5FileUtil.verifySavedMD5(file.toFile(), snapshot.getFile().getFileDigest());
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            delegate.readSnapshot(in);
        }
        setLastAppliedTermIndex(snapshot.getTermIndex());
        LOG.info("{} loaded snapshot {} at {}", name, file.getFileName(), snapshot.getTermIndex());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        byte[] command = entry.getStateMachineLogEntry().getLogData().toByteArray();
        try {
            byte[] reply = delegate.apply(entry.getIndex(), command);
            return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(reply)));
        } catch (RuntimeException e) {
            // A deterministic failure fails alike on every replica; the state machine moves on.
            LOG.error("{} failed to apply entry {}: {}", name, entry.getIndex(), e.toString(), e);
            return CompletableFuture.failedFuture(e);
        } finally {
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        if (request.getContent().isEmpty()) {
            // A ReadIndex round with nothing to read: the caller only wanted to confirm leadership.
            return CompletableFuture.completedFuture(EMPTY);
        }
        try {
            byte[] reply = delegate.query(request.getContent().toByteArray());
            return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(reply)));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return INVALID_INDEX;
        }
        File target = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        Path temporary = target.toPath().resolveSibling(target.getName() + ".tmp");
        MessageDigest digest = MD5FileUtil.newMD5();
        try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(temporary)), digest)) {
            delegate.writeSnapshot(out);
        }
        Files.move(temporary, target.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        MD5Hash md5 = MD5Hash.newInstance(digest.digest());
        MD5FileUtil.saveMD5File(target, md5);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(target.toPath(), md5), last));
        LOG.info("{} took snapshot at {} ({} bytes)", name, last, Files.size(target.toPath()));
        return last.getIndex();
    }

    private static final long INVALID_INDEX = -1;

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId memberId, RaftPeerId newLeaderId) {
        String leader = newLeaderId == null ? null : newLeaderId.toString();
        delegate.onLeaderChanged(leader, newLeaderId != null && newLeaderId.equals(memberId.getPeerId()));
    }

    @Override
    public void notifyLeaderReady() {
        delegate.onLeaderReady();
    }
}
