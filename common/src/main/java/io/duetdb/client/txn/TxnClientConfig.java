package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Settings of the transaction client.
 *
 * @param lockTtl how long a transaction's locks stay valid without a heartbeat; a crashed client's locks are
 *                resolved by others after this
 * @param lockWaitTimeout how long a pessimistic lock waits for a conflicting lock (innodb_lock_wait_timeout)
 * @param requestTimeout how long one request retries region errors before giving up
 * @param maxEntries most keys one transaction may write
 * @param maxBytes most bytes (keys and values) one transaction may write
 * @param safePointInterval how often the client reports its oldest active transaction to placement
 */
public record TxnClientConfig(Duration lockTtl, Duration lockWaitTimeout, Duration requestTimeout, int maxEntries,
        long maxBytes, Duration safePointInterval) {
    public static final TxnClientConfig DEFAULT = new TxnClientConfig(Duration.ofSeconds(20), Duration.ofSeconds(50),
            Duration.ofSeconds(20), 300_000, 100L << 20, Duration.ofSeconds(5));

    public TxnClientConfig {
        requireNonNull(lockTtl, "lockTtl is null");
        requireNonNull(lockWaitTimeout, "lockWaitTimeout is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(safePointInterval, "safePointInterval is null");
        if (lockTtl.toMillis() < 100) {
            throw new IllegalArgumentException("lock TTL must be at least 100 ms");
        }
        if (lockWaitTimeout.isNegative() || lockWaitTimeout.toMillis() > 60_000) {
            throw new IllegalArgumentException("lock wait timeout must be between 0 and 60 s");
        }
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("transaction size limits must be positive");
        }
    }

    public TxnClientConfig withLockTtl(Duration ttl) {
        return new TxnClientConfig(ttl, lockWaitTimeout, requestTimeout, maxEntries, maxBytes, safePointInterval);
    }

    public TxnClientConfig withLockWaitTimeout(Duration timeout) {
        return new TxnClientConfig(lockTtl, timeout, requestTimeout, maxEntries, maxBytes, safePointInterval);
    }

    public TxnClientConfig withSafePointInterval(Duration interval) {
        return new TxnClientConfig(lockTtl, lockWaitTimeout, requestTimeout, maxEntries, maxBytes, interval);
    }

    public TxnClientConfig withLimits(int entries, long bytes) {
        return new TxnClientConfig(lockTtl, lockWaitTimeout, requestTimeout, entries, bytes, safePointInterval);
    }
}
