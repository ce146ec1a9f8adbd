package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The catalog as one sql-server sees it: the schema at the version a transaction reads, cached by version, and
 * the running of DDL changes. A DDL change runs in its own pessimistic transaction that locks the schema
 * version key, so DDL statements across all servers apply one at a time, and moves the version on.
 */
public final class Catalog {
    private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
    private static final int DDL_ATTEMPTS = 10;

    private final TxnClient client;
    private final CatalogStore store = new CatalogStore();
    private volatile InfoSchema cached = new InfoSchema(-1, java.util.List.of(), java.util.List.of());

    public Catalog(TxnClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    /** Creates the default databases once per cluster. */
    public void bootstrap() {
        runDdlInternal("bootstrap", (transaction, current) -> {
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
    }

    /** Runs one DDL step in its own transaction, retried on conflicts with other servers' DDL. */
    public <T> T runDdl(String description, DdlStep<T> step) {
        return runDdlInternal(description, (transaction, current) -> step.apply(new DdlTransaction(transaction), current));
    }

    private <T> T runDdlInternal(String description, java.util.function.BiFunction<Transaction, InfoSchema, T> step) {
        DuetException last = null;
        for (int attempt = 0; attempt < DDL_ATTEMPTS; attempt++) {
            Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
            try {
                store.lockSchemaVersion(transaction);
                InfoSchema current = store.load(transaction);
                T result = step.apply(transaction, current);
                long version = store.bumpSchemaVersion(transaction);
                transaction.commit();
                LOG.info("DDL {} committed at schema version {}", description, version);
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
