package io.duetdb.store.internal.txn;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The cluster-wide wait-for graph between transactions (kept by the placement leader). */
public interface DeadlockDetector {
    /**
     * Records that {@code waiterTs} waits for {@code holderTs} on a key; completes with the cycle (waiter
     * first) if that wait closes one, or an empty list.
     */
    CompletableFuture<List<Long>> detect(long waiterTs, long holderTs, long keyHash);

    /** The waiter stopped waiting for the holder. */
    void cleanUp(long waiterTs, long holderTs);
}
