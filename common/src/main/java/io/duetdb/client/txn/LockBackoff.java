package io.duetdb.client.txn;

/**
 * How long a reader or writer sleeps before it looks again at a live transaction's lock: 1 ms at first, doubling to
 * 100 ms. Most locks a reader meets belong to commits in flight that end within milliseconds; a fixed 100 ms sleep
 * made every such encounter cost a tenth of a second.
 */
final class LockBackoff {
    static final long FIRST_MILLIS = 1;
    static final long MAX_MILLIS = 100;

    private long nextMillis = FIRST_MILLIS;

    /** The sleep before the next look, at most {@code limitMillis} (the lock's remaining time or the deadline's). */
    long next(long limitMillis) {
        long sleep = Math.max(1, Math.min(nextMillis, limitMillis));
        nextMillis = Math.min(MAX_MILLIS, nextMillis * 2);
        return sleep;
    }
}
