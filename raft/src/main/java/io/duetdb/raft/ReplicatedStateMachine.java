package io.duetdb.raft;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * What a Raft group replicates. Commands arrive in log order on one thread; {@link #apply} must be
 * deterministic (no clock, randomness or I/O beyond its own state) so that every replica reaches the same
 * state, and must not throw for bad input: it answers such commands with an error reply instead.
 */
public non-sealed interface ReplicatedStateMachine extends RaftStateMachine {
    /** Applies the committed command at {@code index} and returns the reply for whoever proposed it. */
    byte[] apply(long index, byte[] command);

    /** Answers a read against the applied state (after a ReadIndex round when linearizable). */
    byte[] query(byte[] request);

    /** Writes the whole applied state; called between applies, so it sees a consistent state. */
    void writeSnapshot(OutputStream out) throws IOException;

    /** Replaces the state with a snapshot's. */
    void readSnapshot(InputStream in) throws IOException;

    /** This replica learnt who leads now; {@code leaderId} is null when nobody does. Must return quickly. */
    default void onLeaderChanged(String leaderId, boolean self) {
    }

    /** This replica became leader and has applied every entry committed before its term. Must return quickly. */
    default void onLeaderReady() {
    }
}
