package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;


import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The catalog as one sql-server sees it, and the running of DDL changes.
 * <p>
 * Schema leases (F1, as TiDB does it): every server reloads the schema at least once per lease, and a server
 * that could not do so within a lease refuses statements (8027) rather than use a schema that may be two
 * versions old. A DDL change runs in its own pessimistic transaction that locks the schema version key, so
 * DDL statements across all servers apply one at a time; a change that moves an object through several
 * states waits two leases between states, so that no two servers are more than one state apart.
 */
public final class Catalog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
    private static final int DDL_ATTEMPTS = 10;

    private final TxnClient client;
    private final Duration lease;
    private final CatalogStore store = new CatalogStore();
    private final ScheduledExecutorService syncer;
    private volatile InfoSchema cached = new InfoSchema(-1, java.util.List.of(), java.util.List.of());
    private volatile long loadedAtNanos;

    public Catalog(TxnClient client, Duration lease) {
        this.client = requireNonNull(client, "client is null");
        this.lease = requireNonNull(lease, "lease is null");
        this.syncer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("sql", "catalog",
                "schema-syncer"));
    }

    /** Bootstraps the catalog if this is the cluster's first server, loads it, and keeps it fresh. */
    public void start() {
        bootstrap();
        reload();
        long period = Math.max(1, lease.toMillis() / 4);
        syncer.scheduleWithFixedDelay(() -> {
            try {
                reload();
            } catch (RuntimeException e) {
                if (!syncer.isShutdown()) {
                    LOG.warn("Reloading the schema failed ({}); retrying", e.getMessage());
                }
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        syncer.shutdownNow();
    }

    public Duration lease() {
        return lease;
    }

    /** The newest schema this server knows, refreshed within the last lease. */
    public InfoSchema current() {
        if (System.nanoTime() - loadedAtNanos > lease.toNanos()) {
            try {
                reload();
            } catch (RuntimeException e) {
                throw new DuetException(ErrorCode.SCHEMA_OUT_OF_DATE, "Information schema is out of date: schema"
                        + " failed to update in 1 lease, please make sure the cluster is reachable", e);
            }
        }
        return cached;
    }

    /** Reads the schema version at a fresh snapshot and loads the schema when it moved. */
    public void reload() {
        long started = System.nanoTime();
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            infoSchema(transaction);
        } finally {
            transaction.close();
        }
        loadedAtNanos = started;
    }

    /** Waits until every live server has loaded the schema committed before this call (two leases). */
    public void awaitSchemaPropagation() {
        try {
            Thread.sleep(2 * lease.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for the schema change"
                    + " to reach every server");
        }
    }

    /** Creates the default databases once per cluster. */
    public void bootstrap() {
        runDdlInternal("bootstrap", (transaction, current) -> {
            if (current.users().isEmpty()) {
                // root from any host, no password, every privilege (a cluster set up before accounts existed too).
                java.util.Set<Privilege> all = java.util.EnumSet.allOf(Privilege.class);
                store.putUser(transaction, new UserInfo("root", "%", AuthenticationPlugin.MYSQL_NATIVE_PASSWORD, "", all,
                        java.util.Map.of(), java.util.Map.of()));
                LOG.info("Catalog bootstrapped: account 'root'@'%' created without a password");
            }
            if (store.isBootstrapped(transaction)) {
                return null;
            }
            if (current.database("test").isEmpty()) {
                store.putDatabase(transaction, new DatabaseInfo(store.nextGlobalId(transaction), "test"));
            }
            store.markBootstrapped(transaction);
            LOG.info("Catalog bootstrapped: database test created");
            return null;
        });
    }

    /** The schema as of {@code transaction}'s snapshot. */
    public InfoSchema infoSchema(Transaction transaction) {
        long version = store.schemaVersion(transaction);
        InfoSchema current = cached;
        if (current.version() == version) {
            return current;
        }
        synchronized (this) {
            if (cached.version() == version) {
                return cached;
            }
            InfoSchema loaded = store.load(transaction);
            if (loaded.version() > cached.version()) {
                cached = loaded;
                LOG.info("Schema version {} loaded ({} databases)", loaded.version(), loaded.databases().size());
            }
            return loaded;
        }
    }

    /** A DDL step: reads the current schema in the DDL transaction and writes its changes through the store. */
    public interface DdlStep<T> {
        T apply(DdlTransaction transaction, InfoSchema current);
    }

    /** What a DDL step may do to the catalog. */
    public final class DdlTransaction {
        private final Transaction transaction;

        DdlTransaction(Transaction transaction) {
            this.transaction = transaction;
        }

        public Transaction transaction() {
            return transaction;
        }

        public long nextId() {
            return store.nextGlobalId(transaction);
        }

        public void putDatabase(DatabaseInfo database) {
            store.putDatabase(transaction, database);
        }

        public void deleteDatabase(long databaseId) {
            store.deleteDatabase(transaction, databaseId);
        }

        public void putTable(TableInfo table) {
            store.putTable(transaction, table);
        }

        public void deleteTable(long databaseId, long tableId) {
            store.deleteTable(transaction, databaseId, tableId);
        }

        public void putUser(UserInfo user) {
            store.putUser(transaction, user);
        }

        public void deleteUser(String user, String host) {
            store.deleteUser(transaction, user, host);
        }

        /** Records a new DDL job with the DDL step's changes; answers it with its id. */
        public DdlJob putNewJob(DdlJob job) {
            return store.putNewDdlJob(transaction, job);
        }

        /** Updates a job's record with the DDL step's changes. */
        public void putJob(DdlJob job) {
            store.putDdlJob(transaction, job);
        }
    }

    /** Runs one DDL step in its own transaction, retried on conflicts with other servers' DDL. */
    public <T> T runDdl(String description, DdlStep<T> step) {
        T result = runDdlInternal(description, (transaction, current) -> step.apply(new DdlTransaction(transaction),
                current));
        // A DDL statement returns once every server uses the new schema, as in MySQL and TiDB.
        awaitSchemaPropagation();
        return result;
    }

    private <T> T runDdlInternal(String description, java.util.function.BiFunction<Transaction, InfoSchema, T> step) {
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
            try {
                if (!store.lockSchemaVersion(transaction)) {
                    // Another DDL statement committed after this transaction began: read the catalog again.
                    transaction.close();
                    last = new DuetException(ErrorCode.WRITE_CONFLICT, "DDL " + description
                            + " kept losing the schema version to concurrent DDL statements");
                    continue;
                }
                InfoSchema current = store.load(transaction);
                T result = step.apply(transaction, current);
                long version = store.bumpSchemaVersion(transaction);
                transaction.commit();
                LOG.info("DDL {} committed at schema version {}", description, version);
                reload();
                return result;
            } catch (DuetException e) {
                transaction.close();
                if (e.code() != ErrorCode.WRITE_CONFLICT && e.code() != ErrorCode.TRANSACTION_RETRYABLE
                        && e.code() != ErrorCode.DEADLOCK) {
                    throw e;
                }
                last = e;
            } catch (RuntimeException e) {
                transaction.close();
                throw e;
            }
        }
        throw last;
    }

    /** Updates a job's record on its own (backfill progress, the end of a job), retried on conflicts. */
    public void putJob(DdlJob job) {
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
            try {
                store.putDdlJob(transaction, job);
                transaction.commit();
                return;
            } catch (DuetException e) {
                last = e;
            } finally {
                transaction.close();
            }
        }
        throw last;
    }

    /**
     * The dropped tables whose data waits for destruction; those no server had seen yet are marked with this
     * read's snapshot timestamp (see {@link DroppedTable}).
     */
    public java.util.List<DroppedTable> observeDroppedTables() {
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            java.util.List<DroppedTable> dropped = new java.util.ArrayList<>();
            boolean marked = false;
            for (DroppedTable table : store.droppedTables(transaction)) {
                if (table.observedTs() == 0) {
                    table = table.withObservedTs(transaction.startTs());
                    store.putDroppedTable(transaction, table);
                    marked = true;
                }
                dropped.add(table);
            }
            if (marked) {
                transaction.commit();
            }
            return dropped;
        } finally {
            transaction.close();
        }
    }

    /** Forgets a dropped table once its data is gone. */
    public void forgetDroppedTable(long tableId) {
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            store.deleteDroppedTable(transaction, tableId);
            transaction.commit();
        } finally {
            transaction.close();
        }
    }

    /** Stores a table's statistics (JSON) in the catalog, replacing the previous ones. */
    public void putStatistics(long tableId, byte[] json) {
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            store.putStatistics(transaction, tableId, json);
            transaction.commit();
        } finally {
            transaction.close();
        }
    }

    /** Every table's statistics (JSON), read at a fresh snapshot. */
    public java.util.List<byte[]> statistics() {
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            return store.statistics(transaction);
        } finally {
            transaction.close();
        }
    }

    /** The newest {@code limit} DDL job records, newest first, read at a fresh snapshot. */
    public java.util.List<DdlJob> ddlJobs(int limit) {
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            java.util.List<DdlJob> jobs = store.ddlJobs(transaction);
            return jobs.subList(0, Math.min(limit, jobs.size()));
        } finally {
            transaction.close();
        }
    }

    /** Allocates {@code count} consecutive values of a named counter (AUTO_INCREMENT and row id blocks). */
    public long allocate(String counter, long count) {
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
            try {
                long before = store.advanceCounter(transaction, counter, count);
                transaction.commit();
                return before + 1;
            } catch (DuetException e) {
                transaction.close();
                last = e;
            }
        }
        throw last;
    }

    /** Moves a counter to at least {@code value} (an explicit AUTO_INCREMENT value larger than any allocated). */
    public void rebase(String counter, long value) {
        Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
        try {
            long before = store.advanceCounter(transaction, counter, 0);
            if (value > before) {
                store.advanceCounter(transaction, counter, value - before);
            }
            transaction.commit();
        } finally {
            transaction.close();
        }
    }

}
