package io.duetdb.placement.internal.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.PlacementSnapshot;
import io.duetdb.proto.placement.Error;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.raft.ReplicatedStateMachine;

/**
 * The thin adapter between the Raft log and {@link PlacementState}: decodes, applies under the write
 * lock, and hands leadership events to the listener. Reads take the read lock through {@link #read}.
 */
public final class PlacementStateMachine implements ReplicatedStateMachine {
    /** Told about leadership on the Raft thread; must return quickly. */
    public interface LeadershipListener {
        void leaderChanged(String leaderId, boolean self);

        void leaderReady();
    }

    private final PlacementState state = new PlacementState();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile LeadershipListener listener;
    private volatile long appliedIndex;

    public void setLeadershipListener(LeadershipListener listener) {
        this.listener = listener;
    }

    @Override
    public byte[] apply(long index, byte[] command) {
        PlacementCommandResult result;
        PlacementCommand decoded;
        try {
            decoded = PlacementCommand.parseFrom(command);
        } catch (InvalidProtocolBufferException e) {
            return PlacementCommandResult.newBuilder().setError(Error.newBuilder()
                    .setType(ErrorType.INVALID_ARGUMENT).setMessage("undecodable placement command")).build().toByteArray();
        }
        lock.writeLock().lock();
        try {
            result = state.apply(decoded);
            appliedIndex = index;
        } finally {
            lock.writeLock().unlock();
        }
        return result.toByteArray();
    }

    /** Runs a read against a consistent view of the state. */
    public <T> T read(Function<PlacementState, T> reader) {
        lock.readLock().lock();
        try {
            return reader.apply(state);
        } finally {
            lock.readLock().unlock();
        }
    }

    public long appliedIndex() {
        return appliedIndex;
    }

    @Override
    public byte[] query(byte[] request) {
        throw new UnsupportedOperationException("placement serves reads from its state directly");
    }

    @Override
    public void writeSnapshot(OutputStream out) throws IOException {
        PlacementSnapshot snapshot = read(PlacementState::toSnapshot);
        snapshot.writeTo(out);
    }

    @Override
    public void readSnapshot(InputStream in) throws IOException {
        PlacementSnapshot snapshot = PlacementSnapshot.parseFrom(in);
        lock.writeLock().lock();
        try {
            state.restore(snapshot);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void onLeaderChanged(String leaderId, boolean self) {
        LeadershipListener current = listener;
        if (current != null) {
            current.leaderChanged(leaderId, self);
        }
    }

    @Override
    public void onLeaderReady() {
        LeadershipListener current = listener;
        if (current != null) {
            current.leaderReady();
        }
    }
}
