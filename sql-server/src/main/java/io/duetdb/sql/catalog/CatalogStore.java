package io.duetdb.sql.catalog;

import static io.duetdb.common.catalog.CatalogRecords.SCAN_PAGE;
import static io.duetdb.common.catalog.CatalogRecords.idBytes;
import static io.duetdb.common.catalog.CatalogRecords.longBytes;
import static io.duetdb.common.catalog.CatalogRecords.readLong;
import static io.duetdb.common.catalog.CatalogRecords.scanHash;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Keys;

/**
 * The catalog's layout in the transactional key space, TiDB's: a schema version, an id counter, a hash of
 * databases and one hash of tables per database, each value JSON. Every change goes through the caller's
 * transaction, so a DDL statement's catalog writes commit or vanish together. The keys and JSON of the schema
 * version, databases and tables, and their reads, are {@link CatalogRecords}, which readers outside the SQL layer
 * share; the rest of the layout is here.
 */
final class CatalogStore {
    private static final byte[] NEXT_GLOBAL_ID = "NextGlobalID".getBytes(UTF_8);
    private static final byte[] BOOTSTRAP_VERSION = "BootstrapVersion".getBytes(UTF_8);
    private static final byte[] USERS = "Users".getBytes(UTF_8);
    private static final byte[] DDL_JOBS = "DDLJobs".getBytes(UTF_8);
    private static final byte[] DROPPED_TABLES = "DroppedTables".getBytes(UTF_8);
    private static final byte[] STATISTICS = CatalogRecords.statisticsHash();
    private static final byte[] GLOBAL_VARIABLES = "GlobalVariables".getBytes(UTF_8);
    private static final byte[] SERVER_SCHEMA_VERSIONS = "ServerSchemaVersions".getBytes(UTF_8);
    /** DDL job records kept: a new job's record replaces the one this many jobs older. */
    static final int DDL_JOB_HISTORY = 1000;

    private final CatalogRecords records = new CatalogRecords();

    long schemaVersion(Transaction transaction) {
        return records.schemaVersion(transaction);
    }

    /** Moves the schema version on by one and returns the new version. */
    long bumpSchemaVersion(Transaction transaction) {
        byte[] key = CatalogRecords.schemaVersionKey();
        long next = readLong(transaction, key).orElse(0L) + 1;
        transaction.put(key, longBytes(next));
        return next;
    }

    /**
     * Locks the schema version for a DDL statement, so DDL statements run one after another, and answers the
     * version when the transaction's snapshot has the one it locked. A DDL statement that committed while this one
     * waited for the lock is not in this transaction's reads (they are at its start timestamp), so writing
     * the catalog from them would undo it: empty, and the caller starts again in a new transaction.
     */
    OptionalLong lockSchemaVersion(Transaction transaction) {
        byte[] key = CatalogRecords.schemaVersionKey();
        Optional<byte[]> latest = transaction.getForUpdate(key);
        Optional<byte[]> seen = transaction.get(key);
        if (!Arrays.equals(latest.orElse(null), seen.orElse(null))) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(seen.map(value -> ByteBuffer.wrap(value).getLong()).orElse(0L));
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
        return CatalogRecords.advanceCounter(transaction, name, count);
    }

    /** Writes a database's definition; answers it as a load reads it back. */
    DatabaseInfo putDatabase(Transaction transaction, DatabaseInfo database) {
        byte[] value = records.write(database);
        transaction.put(CatalogRecords.databaseKey(database.id()), value);
        return records.read(value, DatabaseInfo.class);
    }

    void deleteDatabase(Transaction transaction, long databaseId) {
        transaction.delete(CatalogRecords.databaseKey(databaseId));
    }

    /** Writes a table's definition; answers it as a load reads it back. */
    TableInfo putTable(Transaction transaction, TableInfo table) {
        byte[] value = records.write(table);
        transaction.put(CatalogRecords.tableKey(table.databaseId(), table.id()), value);
        return records.read(value, TableInfo.class);
    }

    /** Removes the table's definition and records its data for destruction (a rename puts it back at once). */
    void deleteTable(Transaction transaction, long databaseId, long tableId) {
        transaction.delete(CatalogRecords.tableKey(databaseId, tableId));
        putDroppedTable(transaction, new DroppedTable(tableId, 0));
    }

    void putDroppedTable(Transaction transaction, DroppedTable dropped) {
        transaction.put(Keys.metaHashFieldKey(DROPPED_TABLES, idBytes(dropped.tableId())), records.write(dropped));
    }

    void deleteDroppedTable(Transaction transaction, long tableId) {
        transaction.delete(Keys.metaHashFieldKey(DROPPED_TABLES, idBytes(tableId)));
    }

    List<DroppedTable> droppedTables(Transaction transaction) {
        List<DroppedTable> dropped = new ArrayList<>();
        for (byte[] value : scanHash(transaction, DROPPED_TABLES)) {
            dropped.add(records.read(value, DroppedTable.class));
        }
        return dropped;
    }

    /** Writes an account; answers it as a load reads it back. */
    UserInfo putUser(Transaction transaction, UserInfo user) {
        byte[] value = records.write(user);
        transaction.put(Keys.metaHashFieldKey(USERS, userField(user.user(), user.host())), value);
        return records.read(value, UserInfo.class);
    }

    void deleteUser(Transaction transaction, String user, String host) {
        transaction.delete(Keys.metaHashFieldKey(USERS, userField(user, host)));
    }

    List<UserInfo> users(Transaction transaction) {
        List<UserInfo> users = new ArrayList<>();
        for (byte[] value : scanHash(transaction, USERS)) {
            users.add(records.read(value, UserInfo.class));
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
        transaction.put(Keys.metaHashFieldKey(DDL_JOBS, idBytes(job.id())), records.write(job));
    }

    /** Every kept job record, newest first. */
    List<DdlJob> ddlJobs(Transaction transaction) {
        List<DdlJob> jobs = new ArrayList<>();
        for (byte[] value : scanHash(transaction, DDL_JOBS)) {
            jobs.add(records.read(value, DdlJob.class));
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

    void putGlobalVariable(Transaction transaction, String name, String value) {
        transaction.put(Keys.metaHashFieldKey(GLOBAL_VARIABLES, name.getBytes(UTF_8)), value.getBytes(UTF_8));
    }

    void deleteGlobalVariable(Transaction transaction, String name) {
        transaction.delete(Keys.metaHashFieldKey(GLOBAL_VARIABLES, name.getBytes(UTF_8)));
    }

    /** The system variables set with SET GLOBAL, by name. */
    Map<String, String> globalVariables(Transaction transaction) {
        Map<String, String> variables = new java.util.HashMap<>();
        byte[] start = Keys.metaHashPrefix(GLOBAL_VARIABLES);
        byte[] end = Keys.metaHashEnd(GLOBAL_VARIABLES);
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scan(start, end, SCAN_PAGE);
            for (Map.Entry<ByteString, byte[]> entry : page) {
                byte[] key = entry.getKey().toByteArray();
                variables.put(new String(Keys.metaHashFieldOf(key, GLOBAL_VARIABLES), UTF_8),
                        new String(entry.getValue(), UTF_8));
            }
            if (page.size() < SCAN_PAGE) {
                return variables;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            start = java.util.Arrays.copyOf(last, last.length + 1);
        }
    }

    void putServerSchemaVersion(Transaction transaction, ServerSchemaVersion server) {
        transaction.put(Keys.metaHashFieldKey(SERVER_SCHEMA_VERSIONS, server.serverId().getBytes(UTF_8)),
                records.write(server));
    }

    void deleteServerSchemaVersion(Transaction transaction, String serverId) {
        transaction.delete(Keys.metaHashFieldKey(SERVER_SCHEMA_VERSIONS, serverId.getBytes(UTF_8)));
    }

    List<ServerSchemaVersion> serverSchemaVersions(Transaction transaction) {
        List<ServerSchemaVersion> servers = new ArrayList<>();
        for (byte[] value : scanHash(transaction, SERVER_SCHEMA_VERSIONS)) {
            servers.add(records.read(value, ServerSchemaVersion.class));
        }
        return servers;
    }

    private static byte[] userField(String user, String host) {
        return SchemaChanges.userKey(user, host).getBytes(UTF_8);
    }

    List<DatabaseInfo> databases(Transaction transaction) {
        return records.databases(transaction);
    }

    List<TableInfo> tables(Transaction transaction, long databaseId) {
        return records.tables(transaction, databaseId);
    }

    InfoSchema load(Transaction transaction) {
        long version = schemaVersion(transaction);
        List<DatabaseInfo> databases = databases(transaction);
        List<TableInfo> tables = new ArrayList<>();
        for (DatabaseInfo database : databases) {
            tables.addAll(tables(transaction, database.id()));
        }
        return new InfoSchema(version, databases, tables, users(transaction), globalVariables(transaction));
    }
}
