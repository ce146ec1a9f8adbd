package io.duetdb.raft;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A state machine that keeps its own state in durable storage (a region in the store's engine), together
 * with the position of the last entry it applied. After a restart Ratis replays the log from the last
 * snapshot; entries at or below {@link #applied()} are skipped, so replay never applies twice. Snapshots are
 * not shipped by Ratis: a replica that is missing log entries fetches the state from the leader itself
 * ({@link #installSnapshot}).
 */
public non-sealed interface DurableStateMachine extends RaftStateMachine {
    /** The last entry whose effects are in storage, or {@link LogPosition#NONE}. */
    LogPosition applied();

    /**
     * Applies a committed entry and records its position with its effects, atomically; entries at or below
     * {@link #applied()} must be skipped. Deterministic: every replica reaches the same state.
     */
    byte[] apply(long term, long index, byte[] command);

    /** Makes everything applied durable; the log may then be purged up to the returned position. */
    LogPosition takeSnapshot();

    /** The position the last {@link #takeSnapshot} or {@link #installSnapshot} covered, if any. */
    Optional<LogPosition> latestSnapshot();

    /**
     * Replaces the local state with the leader's. The leader's log starts at {@code leaderFirstEntry}; the
     * installed state must cover at least the entry before it. Completes with the position installed.
     */
    CompletableFuture<LogPosition> installSnapshot(String leaderId, LogPosition leaderFirstEntry);

    /** This replica learnt who leads now (null: nobody). Called on a Raft thread; must return quickly. */
    default void onLeaderChanged(String leaderId, boolean self) {
    }

    /** This replica became leader and has applied every entry of earlier terms. Must return quickly. */
    default void onLeaderReady() {
    }

    /** A configuration entry was applied: these are the voters and listeners from now on. */
    default void onConfigurationApplied(long index, List<RaftPeerSpec> peers) {
    }
}
