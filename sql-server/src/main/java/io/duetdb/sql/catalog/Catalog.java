package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;


import java.time.Duration;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The catalog as one sql-server sees it, and the running of DDL changes.
 * <p>
 * Schema leases (F1, as TiDB does it): every server reloads the schema at least once per lease, and a server
 * that could not do so within a lease refuses statements (8027) rather than use a schema that may be two
 * versions old. A DDL change runs in its own pessimistic transaction that locks the schema version key, so
 * DDL statements across all servers apply one at a time; each step then waits until every live server has
 * loaded the new version ({@link SchemaSyncer}), at most two leases, so that no two servers are more than one
 * state apart.
 */
public final class Catalog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
    private static final int DDL_ATTEMPTS = 10;

    private final TxnClient client;
    private final Duration lease;
    private final CatalogStore store = new CatalogStore();
    private final ScheduledExecutorService reloader;
    private final SchemaSyncer syncer;
    private final DdlStepObserver observer;
    /**
     * Serializes this server's DDL steps. They all lock the one schema-version key, and a step that waited for it
     * finds the version moved past its snapshot and must start again: without this, a burst of DDL from many
     * sessions of one server spent its attempts losing to itself (9007).
     */
    private final ReentrantLock localSteps = new ReentrantLock(true);
    private volatile boolean started;
    private volatile InfoSchema cached = new InfoSchema(-1, java.util.List.of(), java.util.List.of());
    private volatile long loadedAtNanos;

    /** What a DDL step took: its commit, and the wait for the other servers. */
    public interface DdlStepObserver {
        DdlStepObserver NONE = (commit, sync, result) -> { };

        void stepDone(Duration commit, Duration sync, SchemaSyncResult result);
    }

    /** A catalog that reads and never registers: for tools that inspect a cluster. */
    public Catalog(TxnClient client, Duration lease) {
        this(client, lease, "tool", DdlStepObserver.NONE);
    }

    /** {@code label}: how other servers' logs name this one (its address). */
    public Catalog(TxnClient client, Duration lease, String label, DdlStepObserver observer) {
        this.client = requireNonNull(client, "client is null");
        this.lease = requireNonNull(lease, "lease is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.syncer = new SchemaSyncer(client, store, lease, java.util.UUID.randomUUID().toString(), label);
        this.reloader = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("sql", "catalog",
                "schema-syncer"));
    }

    /**
     * Bootstraps the catalog if this is the cluster's first server, registers this server for schema changes,
     * loads the schema, and keeps it fresh.
     */
    public void start() {
        bootstrap();
        started = true;
        reload();
        // Other servers' DDL steps wait for this one to load their version: check often, well within a lease.
        long period = Math.max(5, Math.min(lease.toMillis() / 4, Math.max(10, lease.toMillis() / 10)));
        reloader.scheduleWithFixedDelay(() -> {
            try {
                reload();
            } catch (RuntimeException e) {
                if (!reloader.isShutdown()) {
                    LOG.warn("Reloading the schema failed ({}); retrying", e.getMessage());
                }
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        reloader.shutdownNow();
        if (started) {
            syncer.deregister();
        }
    }

    public Duration lease() {
        return lease;
    }

    /** The newest schema this server knows, refreshed within the last lease. */
    /** The id under which this server registers its schema version (unique to this start of the server). */
    public String serverId() {
        return syncer.serverId();
    }

    /** The ids of the SQL servers alive now (their schema registrations are fresh), this one's included. */
    public Set<String> liveServerIds() {
        return syncer.liveServerIds();
    }

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

    /**
     * Reads the schema version at a fresh snapshot and loads the schema when it moved. A started catalog reports
     * the version it holds when its record is due before reading (see {@link SchemaSyncer}), and the new one after.
     */
    public void reload() {
        long reloadStarted = System.nanoTime();
        if (started) {
            syncer.report(cached.version());
        }
        Transaction transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
        try {
            infoSchema(transaction);
        } finally {
            transaction.close();
        }
        if (started) {
            syncer.report(cached.version());
        }
        loadedAtNanos = reloadStarted;
    }

    /**
     * Waits until every live server has loaded {@code version} (this one has): until each other registered server
     * reports it, or two leases (after which every server that still serves has reloaded).
     */
    private SchemaSyncResult awaitSchemaPropagation(long version) {
        Duration limit = lease.multipliedBy(2);
        if (started) {
            return syncer.await(version, limit);
        }
        try {
            Thread.sleep(limit.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for the schema change"
                    + " to reach every server");
        }
        return new SchemaSyncResult(false, 0, java.util.List.of());
    }

    /** Creates the default databases once per cluster. */
    public void bootstrap() {
        runBootstrapStep((transaction, current) -> {
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

    /** What a DDL step may do to the catalog; the definitions it writes are kept for this server's new schema. */
    public final class DdlTransaction {
        private final Transaction transaction;
        private final SchemaChanges changes = new SchemaChanges();

        DdlTransaction(Transaction transaction) {
            this.transaction = transaction;
        }

        public long nextId() {
            return store.nextGlobalId(transaction);
        }

        public void putDatabase(DatabaseInfo database) {
            changes.putDatabase(store.putDatabase(transaction, database));
        }

        public void deleteDatabase(long databaseId) {
            store.deleteDatabase(transaction, databaseId);
            changes.deleteDatabase(databaseId);
        }

        public void putTable(TableInfo table) {
            changes.putTable(store.putTable(transaction, table));
        }

        public void deleteTable(long databaseId, long tableId) {
            store.deleteTable(transaction, databaseId, tableId);
            changes.deleteTable(tableId);
        }

        /** Whether [start, end) holds no committed pair at this step's read timestamp. */
        public boolean rangeEmpty(byte[] start, byte[] end) {
            return transaction.scan(start, end, 1).isEmpty();
        }

        public void putUser(UserInfo user) {
            changes.putUser(store.putUser(transaction, user));
        }

        public void deleteUser(String user, String host) {
            store.deleteUser(transaction, user, host);
            changes.deleteUser(user, host);
        }

        /** A system variable's global value (SET GLOBAL), which new sessions on every server start from. */
        public void putGlobalVariable(String name, String value) {
            store.putGlobalVariable(transaction, name, value);
            changes.putGlobalVariable(name, value);
        }

        public void deleteGlobalVariable(String name) {
            store.deleteGlobalVariable(transaction, name);
            changes.deleteGlobalVariable(name);
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

    /**
     * Runs one DDL step in its own transaction, retried on conflicts with other servers' DDL, and returns once
     * every live server uses the new schema, as in MySQL and TiDB. This server holds the new schema as the step
     * commits (the schema it locked with the step's changes), so only the other servers are waited for.
     */
    public <T> T runDdl(String description, DdlStep<T> step) {
        long stepStarted = System.nanoTime();
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            localSteps.lock();
            Transaction transaction = null;
            T result;
            long version;
            InfoSchema next;
            try {
                // Optimistic: every step writes the schema version, so a step of another server that commits in
                // between fails this one's prewrite on that key (a write conflict), and it runs again on the newer
                // catalog; steps of this server take turns on the lock above. A pessimistic lock would cost one
                // more replicated write per step.
                transaction = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
                long seen = store.schemaVersion(transaction);
                InfoSchema current = cached;
                if (current.version() != seen) {
                    current = store.load(transaction);
                }
                DdlTransaction ddl = new DdlTransaction(transaction);
                result = step.apply(ddl, current);
                version = store.bumpSchemaVersion(transaction);
                next = ddl.changes.applyTo(current, version);
                transaction.commit();
                install(next);
            } catch (DuetException e) {
                if (transaction != null) {
                    transaction.close();
                }
                if (e.code() != ErrorCode.WRITE_CONFLICT && e.code() != ErrorCode.TRANSACTION_RETRYABLE
                        && e.code() != ErrorCode.DEADLOCK) {
                    throw e;
                }
                last = e;
                continue;
            } catch (RuntimeException e) {
                if (transaction != null) {
                    transaction.close();
                }
                throw e;
            } finally {
                localSteps.unlock();
            }
            long committed = System.nanoTime();
            if (started) {
                // Only other servers' later steps read this server's record, for their newer versions: the
                // report need not delay this step.
                try {
                    reloader.execute(this::reportQuietly);
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // The server is stopping: its record goes with it.
                }
            }
            SchemaSyncResult sync = awaitSchemaPropagation(version);
            long synced = System.nanoTime();
            LOG.info("DDL {} at schema version {}: {} ms (commit {} ms, {} {} ms)", description, version,
                    millis(synced - stepStarted), millis(committed - stepStarted), sync.confirmed()
                            ? "confirmed by " + sync.servers() + " other server(s) in"
                            : "not confirmed by " + sync.lagging() + ": waited the full two leases,",
                    millis(synced - committed));
            observer.stepDone(Duration.ofNanos(committed - stepStarted), Duration.ofNanos(synced - committed), sync);
            return result;
        }
        throw last;
    }

    private void reportQuietly() {
        try {
            syncer.report(cached.version());
        } catch (RuntimeException e) {
            LOG.warn("Reporting schema version {} failed ({}); retrying", cached.version(), e.getMessage());
        }
    }

    /** Makes {@code schema} this server's current one unless it holds a newer one already. */
    private synchronized void install(InfoSchema schema) {
        if (schema.version() > cached.version()) {
            cached = schema;
            LOG.info("Schema version {} loaded ({} databases)", schema.version(), schema.databases().size());
        }
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    /** Runs the bootstrap step: like a DDL step, but reloading the schema and waiting for nobody. */
    private void runBootstrapStep(java.util.function.BiFunction<Transaction, InfoSchema, Void> step) {
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
            try {
                if (store.lockSchemaVersion(transaction).isEmpty()) {
                    transaction.close();
                    last = new DuetException(ErrorCode.WRITE_CONFLICT, "the catalog's bootstrap kept losing the"
                            + " schema version to concurrent DDL statements");
                    continue;
                }
                step.apply(transaction, store.load(transaction));
                store.bumpSchemaVersion(transaction);
                transaction.commit();
                reload();
                return;
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
