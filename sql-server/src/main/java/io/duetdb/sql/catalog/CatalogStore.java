package io.duetdb.sql.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.keys.Keys;

/**
 * The catalog's layout in the transactional key space, TiDB's: a schema version, an id counter, a hash of
 * databases and one hash of tables per database, each value JSON. Every change goes through the caller's
 * transaction, so a DDL statement's catalog writes commit or vanish together.
 */
final class CatalogStore {
    private static final byte[] SCHEMA_VERSION = "SchemaVersion".getBytes(UTF_8);
    private static final byte[] NEXT_GLOBAL_ID = "NextGlobalID".getBytes(UTF_8);
    private static final byte[] BOOTSTRAP_VERSION = "BootstrapVersion".getBytes(UTF_8);
    private static final byte[] DATABASES = "DBs".getBytes(UTF_8);
    private static final byte[] USERS = "Users".getBytes(UTF_8);
    private static final byte[] DDL_JOBS = "DDLJobs".getBytes(UTF_8);
    private static final byte[] DROPPED_TABLES = "DroppedTables".getBytes(UTF_8);
    private static final byte[] STATISTICS = "Stats".getBytes(UTF_8);
    /** DDL job records kept: a new job's record replaces the one this many jobs older. */
    static final int DDL_JOB_HISTORY = 1000;
    private static final int SCAN_PAGE = 1024;

    private final ObjectMapper json = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    long schemaVersion(Transaction transaction) {
        return readLong(transaction, Keys.metaKey(SCHEMA_VERSION)).orElse(0L);
    }

    /** Moves the schema version on by one and returns the new version. */
    long bumpSchemaVersion(Transaction transaction) {
        byte[] key = Keys.metaKey(SCHEMA_VERSION);
        long next = readLong(transaction, key).orElse(0L) + 1;
        transaction.put(key, longBytes(next));
        return next;
    }

    /**
     * Locks the schema version for a DDL statement, so DDL statements run one after another, and tells whether
     * the transaction's snapshot has the version it locked. A DDL statement that committed while this one
     * waited for the lock is not in this transaction's reads (they are at its start timestamp), so writing
     * the catalog from them would undo it: false, and the caller starts again in a new transaction.
     */
    boolean lockSchemaVersion(Transaction transaction) {
        byte[] key = Keys.metaKey(SCHEMA_VERSION);
        Optional<byte[]> latest = transaction.getForUpdate(key);
        Optional<byte[]> seen = transaction.get(key);
        return Arrays.equals(latest.orElse(null), seen.orElse(null));
    }

    long nextGlobalId(Transaction transaction) {
        byte[] key = Keys.metaKey(NEXT_GLOBAL_ID);
        long next = readLong(transaction, key).orElse(0L) + 1;
        transaction.put(key, longBytes(next));
        return next;
    }

    boolean isBootstrapped(Transaction transaction) {
        return transaction.get(Keys.metaKey(BOOTSTRAP_VERSION)).isPresent();
    }

    void markBootstrapped(Transaction transaction) {
        transaction.put(Keys.metaKey(BOOTSTRAP_VERSION), longBytes(1));
    }

    /** Adds {@code count} to a counter and returns its value before (an allocation of [before + 1, before + count]). */
    long advanceCounter(Transaction transaction, String name, long count) {
        byte[] key = Keys.metaKey(("Counter:" + name).getBytes(UTF_8));
        long before = readLong(transaction, key).orElse(0L);
        transaction.put(key, longBytes(before + count));
        return before;
    }

    void putDatabase(Transaction transaction, DatabaseInfo database) {
        transaction.put(Keys.metaHashFieldKey(DATABASES, idBytes(database.id())), write(database));
    }

    void deleteDatabase(Transaction transaction, long databaseId) {
        transaction.delete(Keys.metaHashFieldKey(DATABASES, idBytes(databaseId)));
    }

    void putTable(Transaction transaction, TableInfo table) {
        transaction.put(Keys.metaHashFieldKey(tablesHash(table.databaseId()), idBytes(table.id())), write(table));
    }

    /** Removes the table's definition and records its data for destruction (a rename puts it back at once). */
    void deleteTable(Transaction transaction, long databaseId, long tableId) {
        transaction.delete(Keys.metaHashFieldKey(tablesHash(databaseId), idBytes(tableId)));
        putDroppedTable(transaction, new DroppedTable(tableId, 0));
    }

    void putDroppedTable(Transaction transaction, DroppedTable dropped) {
        transaction.put(Keys.metaHashFieldKey(DROPPED_TABLES, idBytes(dropped.tableId())), write(dropped));
    }

    void deleteDroppedTable(Transaction transaction, long tableId) {
        transaction.delete(Keys.metaHashFieldKey(DROPPED_TABLES, idBytes(tableId)));
    }

    List<DroppedTable> droppedTables(Transaction transaction) {
        List<DroppedTable> dropped = new ArrayList<>();
        for (byte[] value : scanHash(transaction, DROPPED_TABLES)) {
            dropped.add(read(value, DroppedTable.class));
        }
        return dropped;
    }

    void putUser(Transaction transaction, UserInfo user) {
        transaction.put(Keys.metaHashFieldKey(USERS, userField(user.user(), user.host())), write(user));
    }

    void deleteUser(Transaction transaction, String user, String host) {
        transaction.delete(Keys.metaHashFieldKey(USERS, userField(user, host)));
    }

    List<UserInfo> users(Transaction transaction) {
        List<UserInfo> users = new ArrayList<>();
        for (byte[] value : scanHash(transaction, USERS)) {
            users.add(read(value, UserInfo.class));
        }
        return users;
    }

    /**
     * Writes a new job's record with the next job id (ids are consecutive) and removes the record
     * {@link #DDL_JOB_HISTORY} jobs older.
     */
    DdlJob putNewDdlJob(Transaction transaction, DdlJob job) {
        long id = advanceCounter(transaction, "DdlJob", 1) + 1;
        if (id > DDL_JOB_HISTORY) {
            transaction.delete(Keys.metaHashFieldKey(DDL_JOBS, idBytes(id - DDL_JOB_HISTORY)));
        }
        DdlJob numbered = job.withId(id);
        putDdlJob(transaction, numbered);
        return numbered;
    }

    void putDdlJob(Transaction transaction, DdlJob job) {
        transaction.put(Keys.metaHashFieldKey(DDL_JOBS, idBytes(job.id())), write(job));
    }

    /** Every kept job record, newest first. */
    List<DdlJob> ddlJobs(Transaction transaction) {
        List<DdlJob> jobs = new ArrayList<>();
        for (byte[] value : scanHash(transaction, DDL_JOBS)) {
            jobs.add(read(value, DdlJob.class));
        }
        jobs.sort((a, b) -> Long.compare(b.id(), a.id()));
        return jobs;
    }

    /** A table's statistics as JSON, whatever class the statistics package gives them. */
    void putStatistics(Transaction transaction, long tableId, byte[] json) {
        transaction.put(Keys.metaHashFieldKey(STATISTICS, idBytes(tableId)), json);
    }

    void deleteStatistics(Transaction transaction, long tableId) {
        transaction.delete(Keys.metaHashFieldKey(STATISTICS, idBytes(tableId)));
    }

    List<byte[]> statistics(Transaction transaction) {
        return scanHash(transaction, STATISTICS);
    }

    private static byte[] userField(String user, String host) {
        return (user + "@" + host.toLowerCase(java.util.Locale.ROOT)).getBytes(UTF_8);
    }

    List<DatabaseInfo> databases(Transaction transaction) {
        List<DatabaseInfo> databases = new ArrayList<>();
        for (byte[] value : scanHash(transaction, DATABASES)) {
            databases.add(read(value, DatabaseInfo.class));
        }
        return databases;
    }

    List<TableInfo> tables(Transaction transaction, long databaseId) {
        List<TableInfo> tables = new ArrayList<>();
        for (byte[] value : scanHash(transaction, tablesHash(databaseId))) {
            tables.add(read(value, TableInfo.class));
        }
        return tables;
    }

    InfoSchema load(Transaction transaction) {
        long version = schemaVersion(transaction);
        List<DatabaseInfo> databases = databases(transaction);
        List<TableInfo> tables = new ArrayList<>();
        for (DatabaseInfo database : databases) {
            tables.addAll(tables(transaction, database.id()));
        }
        return new InfoSchema(version, databases, tables, users(transaction));
    }

    private List<byte[]> scanHash(Transaction transaction, byte[] hash) {
        List<byte[]> values = new ArrayList<>();
        byte[] start = Keys.metaHashPrefix(hash);
        byte[] end = Keys.metaHashEnd(hash);
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scan(start, end, SCAN_PAGE);
            for (Map.Entry<ByteString, byte[]> entry : page) {
                values.add(entry.getValue());
            }
            if (page.size() < SCAN_PAGE) {
                return values;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            start = java.util.Arrays.copyOf(last, last.length + 1);
        }
    }

    private static byte[] tablesHash(long databaseId) {
        return ("DB:" + databaseId).getBytes(UTF_8);
    }

    private static byte[] idBytes(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    private static Optional<Long> readLong(Transaction transaction, byte[] key) {
        return transaction.get(key).map(value -> ByteBuffer.wrap(value).getLong());
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private byte[] write(Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise " + value, e);
        }
    }

    private <T> T read(byte[] value, Class<T> type) {
        try {
            return json.readValue(value, type);
        } catch (IOException e) {
            throw new IllegalStateException("corrupt catalog entry of type " + type.getSimpleName(), e);
        }
    }
}
