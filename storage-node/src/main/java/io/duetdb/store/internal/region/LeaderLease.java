package io.duetdb.store.internal.region;

/**
 * The region leader's lease for local reads (TiKV's local reader). A committed proposal or a ReadIndex round
 * that began at time t in term T proves that a majority followed this leader after t, so no other leader can
 * exist before t + (minimum election timeout); the lease runs to t plus a safety fraction of that. It is
 * revoked when leadership moves, including a transfer this store starts.
 */
public final class LeaderLease {
    private final long durationNanos;
    private long term = -1;
    private long expiryNanos;

    public LeaderLease(long durationNanos) {
        this.durationNanos = durationNanos;
    }

    public synchronized void renew(long forTerm, long startNanos) {
        long expiry = startNanos + durationNanos;
        if (forTerm > term) {
            term = forTerm;
            expiryNanos = expiry;
        } else if (forTerm == term && expiry - expiryNanos > 0) {
            expiryNanos = expiry;
        }
    }

    public synchronized boolean isValid(long currentTerm, long nowNanos) {
        return term == currentTerm && nowNanos - expiryNanos < 0;
    }

    /** Valid but with less than a third of its duration left: time to renew in the background. */
    public synchronized boolean isExpiringSoon(long nowNanos) {
        return expiryNanos - nowNanos < durationNanos / 3;
    }

    public synchronized void revoke() {
        term = -1;
        expiryNanos = 0;
    }
}
