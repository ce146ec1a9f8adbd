package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.HashSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;

/**
 * This SQL server's registration in the catalog, and a DDL step's wait until every live server has loaded the
 * schema version it committed (TiDB's schema syncer, with the catalog's key space in place of etcd).
 * <p>
 * Each server keeps a record ({@link ServerSchemaVersion}) of the version it has loaded, written when that
 * version moves and at least every half lease. A DDL step returns once every other live record shows its version,
 * at most two leases after it committed (the wait that is correct without any record, F1's). Why a DDL step
 * may end early: a server serves statements only within a lease of a reload that succeeded (see
 * {@link Catalog#current}), and a reload writes the record when it is due <em>before</em> it reads the
 * version. So a server that could still use a schema older than the step's has a record that committed
 * before the step did and is at most about one and a half leases old: the step sees it and waits. A record
 * not refreshed for the time to live (ten seconds, or eight leases if longer: well beyond that, and beyond
 * how far the oracle's clock may jump on a leader change) belongs to a server that stopped or cannot reach
 * the cluster and no longer serves; a DDL step ignores and removes it. A server that stops cleanly removes
 * its own record.
 */
final class SchemaSyncer {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaSyncer.class);
    private static final Duration MINIMUM_TIME_TO_LIVE = Duration.ofSeconds(10);
    private static final long FIRST_POLL_MILLIS = 1;
    private static final long LONGEST_POLL_MILLIS = 20;

    private final TxnClient client;
    private final CatalogStore store;
    private final Duration lease;
    private final long timeToLiveMillis;
    private final String serverId;
    private final String label;
    /** The version in this server's committed record; -1 before the first. */
    private long reportedVersion = -1;
    /** When the report behind the committed record started; valid once {@link #registered}. */
    private long reportedAtNanos;
    private boolean registered;
    private boolean closed;

    SchemaSyncer(TxnClient client, CatalogStore store, Duration lease, String serverId, String label) {
        this.client = requireNonNull(client, "client is null");
        this.store = requireNonNull(store, "store is null");
        this.lease = requireNonNull(lease, "lease is null");
        this.serverId = requireNonNull(serverId, "serverId is null");
        this.label = requireNonNull(label, "label is null");
        this.timeToLiveMillis = Math.max(MINIMUM_TIME_TO_LIVE.toMillis(), 8 * lease.toMillis());
    }

    String serverId() {
        return serverId;
    }

    /**
     * Writes this server's record when {@code loadedVersion} is newer than the recorded one or the record is
     * half a lease old (or was never written); throws when the write fails, so the caller's reload fails.
     */
    synchronized void report(long loadedVersion) {
        long now = System.nanoTime();
        boolean due = !registered || now - reportedAtNanos >= lease.toNanos() / 2;
        if (closed || !due && loadedVersion <= reportedVersion) {
            return;
        }
        // The schema only moves forward: a caller that read an older version than another one reported
        // meanwhile must not take the record back.
        long version = Math.max(loadedVersion, reportedVersion);
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            store.putServerSchemaVersion(transaction, new ServerSchemaVersion(serverId, label, version,
                    Timestamp.fromPacked(transaction.startTs()).physical()));
            transaction.commit();
        } finally {
            transaction.close();
        }
        if (!registered) {
            LOG.info("SQL server {} ({}) registered for schema changes at schema version {}", label, serverId, version);
        }
        registered = true;
        reportedVersion = version;
        reportedAtNanos = now;
    }

    /** Removes this server's record (a clean stop): DDL steps stop waiting for it at once. */
    synchronized void deregister() {
        closed = true;
        if (!registered) {
            return;
        }
        try (Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            store.deleteServerSchemaVersion(transaction, serverId);
            transaction.commit();
            LOG.info("SQL server {} ({}) deregistered from schema changes", label, serverId);
        } catch (RuntimeException e) {
            LOG.warn("Deregistering SQL server {} failed ({}); its record expires in {} ms", label, e.getMessage(),
                    timeToLiveMillis);
        }
    }

    /** The ids of the servers whose records are fresh (this one's included). */
    Set<String> liveServerIds() {
        Set<String> live = new HashSet<>();
        live.add(serverId);
        try (Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            long now = Timestamp.fromPacked(transaction.startTs()).physical();
            for (ServerSchemaVersion server : store.serverSchemaVersions(transaction)) {
                if (now - server.reportedAtMillis() <= timeToLiveMillis) {
                    live.add(server.serverId());
                }
            }
        }
        return live;
    }

    /**
     * Waits until every other live server's record shows {@code version} or newer (this server holds it already),
     * or {@code limit} has passed; removes expired records on the way.
     */
    SchemaSyncResult await(long version, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        long poll = FIRST_POLL_MILLIS;
        while (true) {
            List<String> lagging = new ArrayList<>();
            int live = 0;
            Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
            try {
                long now = Timestamp.fromPacked(transaction.startTs()).physical();
                List<ServerSchemaVersion> expired = new ArrayList<>();
                for (ServerSchemaVersion server : store.serverSchemaVersions(transaction)) {
                    if (server.serverId().equals(serverId)) {
                        continue;
                    }
                    if (now - server.reportedAtMillis() > timeToLiveMillis) {
                        expired.add(server);
                    } else {
                        live++;
                        if (server.version() < version) {
                            lagging.add(server.label());
                        }
                    }
                }
                if (!expired.isEmpty()) {
                    removeExpired(transaction, expired, now);
                }
            } finally {
                transaction.close();
            }
            if (lagging.isEmpty()) {
                return new SchemaSyncResult(true, live, lagging);
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return new SchemaSyncResult(false, live, lagging);
            }
            try {
                Thread.sleep(Math.min(poll, Math.max(1, remaining / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for the schema change"
                        + " to reach every server");
            }
            poll = Math.min(LONGEST_POLL_MILLIS, poll * 2);
        }
    }

    /**
     * Deletes records that expired, in the transaction that read them: a server that wrote its record again
     * since makes the commit fail on the conflict, and its record stays.
     */
    private void removeExpired(Transaction transaction, List<ServerSchemaVersion> expired, long now) {
        for (ServerSchemaVersion server : expired) {
            store.deleteServerSchemaVersion(transaction, server.serverId());
        }
        try {
            transaction.commit();
            for (ServerSchemaVersion server : expired) {
                LOG.info("SQL server {} ({}) removed from schema changes: its record of schema version {} is {} ms"
                        + " old", server.label(), server.serverId(), server.version(), now - server.reportedAtMillis());
            }
        } catch (RuntimeException e) {
            LOG.debug("Removing expired schema registrations failed: {}", e.getMessage());
        }
    }
}
