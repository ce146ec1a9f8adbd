package io.duetdb.placement.internal.tso;

import static java.util.Objects.requireNonNull;

import java.util.function.LongSupplier;

import io.duetdb.common.time.Timestamp;

/**
 * Hands out timestamps on the leader. It serves only (a) inside a window [start, limit) of physical
 * milliseconds that was committed through Raft, so a later leader, which starts at or above the last
 * committed limit, can never repeat a timestamp; and (b) while it holds a leader lease, so that two
 * leaders never serve at the same time and timestamps grow in real-time order across leader changes.
 */
public final class TimestampOracle {
    /** The oracle cannot serve right now; the caller answers NOT_LEADER or UNAVAILABLE. */
    public static final class UnavailableException extends Exception {
        private static final long serialVersionUID = 1L;

        private final boolean notLeader;

        UnavailableException(String message, boolean notLeader) {
            super(message, null, false, false);
            this.notLeader = notLeader;
        }

        public boolean notLeader() {
            return notLeader;
        }
    }

    /** The last timestamp of a batch of {@code count} consecutive logical values in one millisecond. */
    public record Batch(long physical, long lastLogical, int count) {
    }

    private final LongSupplier wallClockMillis;
    private final LongSupplier monotonicNanos;
    private final long windowMillis;

    private boolean serving;
    private long generation;
    private long physical;
    private long logical;
    private long limitMillis;
    private long leaseExpiryNanos;
    private boolean leaseEverGranted;

    public TimestampOracle(LongSupplier wallClockMillis, LongSupplier monotonicNanos, long windowMillis) {
        this.wallClockMillis = requireNonNull(wallClockMillis, "wallClockMillis is null");
        this.monotonicNanos = requireNonNull(monotonicNanos, "monotonicNanos is null");
        if (windowMillis < 10) {
            throw new IllegalArgumentException("TSO window must be at least 10 ms");
        }
        this.windowMillis = windowMillis;
    }

    /** Starts a leadership term: a fresh generation, nothing served until {@link #start}. */
    public synchronized long beginTerm() {
        serving = false;
        leaseEverGranted = false;
        return ++generation;
    }

    /** Stops serving at once (leadership lost or unknown). */
    public synchronized void resign() {
        serving = false;
        generation++;
        notifyAll();
    }

    /** Begins serving from a newly reserved window; ignored if the generation moved on meanwhile. */
    public synchronized boolean start(long forGeneration, long startMillis, long newLimitMillis) {
        if (forGeneration != generation) {
            return false;
        }
        physical = startMillis;
        logical = 0;
        limitMillis = newLimitMillis;
        serving = true;
        notifyAll();
        return true;
    }

    public synchronized void extend(long forGeneration, long newLimitMillis) {
        if (forGeneration == generation && newLimitMillis > limitMillis) {
            limitMillis = newLimitMillis;
            notifyAll();
        }
    }

    /** Extends the lease to {@code expiryNanos} (monotonic clock), if still in the same generation. */
    public synchronized void renewLease(long forGeneration, long expiryNanos) {
        if (forGeneration == generation && (!leaseEverGranted || expiryNanos - leaseExpiryNanos > 0)) {
            leaseExpiryNanos = expiryNanos;
            leaseEverGranted = true;
            notifyAll();
        }
    }

    public synchronized long generation() {
        return generation;
    }

    public synchronized boolean serving() {
        return serving;
    }

    /** Whether the window should be extended now: less than a third of it is left ahead of the clock. */
    public synchronized boolean needsExtension() {
        return serving && limitMillis - Math.max(physical, wallClockMillis.getAsLong()) < windowMillis * 2 / 3;
    }

    public synchronized long limitMillis() {
        return limitMillis;
    }

    public long windowMillis() {
        return windowMillis;
    }

    /**
     * Allocates {@code count} timestamps, waiting up to {@code maxWaitMillis} for a window extension or a
     * lease renewal that is on its way.
     */
    public synchronized Batch allocate(int count, long maxWaitMillis) throws UnavailableException, InterruptedException {
        if (count < 1 || count > Timestamp.MAX_LOGICAL + 1) {
            throw new IllegalArgumentException("cannot allocate " + count + " timestamps in one batch");
        }
        long deadline = monotonicNanos.getAsLong() + maxWaitMillis * 1_000_000L;
        while (true) {
            if (!serving) {
                throw new UnavailableException("this member is not serving timestamps (not the ready leader)", true);
            }
            long now = monotonicNanos.getAsLong();
            String blocked = null;
            if (!leaseEverGranted || now - leaseExpiryNanos >= 0) {
                blocked = "leader lease expired";
            } else {
                long clock = wallClockMillis.getAsLong();
                if (clock > physical) {
                    physical = clock;
                    logical = 0;
                }
                if (logical + count > Timestamp.MAX_LOGICAL + 1) {
                    // The logical part would overflow: borrow the next millisecond.
                    physical++;
                    logical = 0;
                }
                if (physical < limitMillis) {
                    logical += count;
                    return new Batch(physical, logical - 1, count);
                }
                blocked = "timestamp window exhausted at " + limitMillis;
            }
            long remaining = deadline - now;
            if (remaining <= 0) {
                throw new UnavailableException(blocked, false);
            }
            wait(Math.max(1, remaining / 1_000_000L));
        }
    }
}
