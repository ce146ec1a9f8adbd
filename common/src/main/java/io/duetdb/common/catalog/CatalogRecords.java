package io.duetdb.common.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlType;

/**
 * The catalog's records in the transactional key space, TiDB's layout, for whoever reads the catalog: the schema
 * version (an 8-byte big-endian meta key), a hash of databases by id and one hash of tables per database by id,
 * each value a record as JSON. The SQL layer's catalog store writes them; a reader outside it (a learner decoding
 * table rows) reads the same records here.
 */
public final class CatalogRecords {
    /** Rows a hash scan reads per request. */
    public static final int SCAN_PAGE = 1024;
    private static final String SCHEMA_VERSION = "SchemaVersion";
    private static final String DATABASES = "DBs";
    private static final String TABLES_PREFIX = "DB:";
    private static final String COUNTER_PREFIX = "Counter:";
    private static final String STATISTICS = "Stats";

    private final ObjectMapper json = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .addMixIn(SqlType.class, SqlTypeFields.class)
            .addMixIn(ColumnInfo.class, ColumnInfoFields.class)
            .addMixIn(TableInfo.class, TableInfoFields.class)
            .addMixIn(DatabaseInfo.class, DatabaseInfoFields.class);

    /** Types other than ENUM and SET store no values, as before those types came (so the stored form stays). */
    private interface SqlTypeFields {
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<String> elements();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        Collation collation();
    }

    /** Columns without an expression and tables without CHECK constraints store neither (as before they came). */
    private interface ColumnInfoFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        ColumnExpression expression();
    }

    private interface DatabaseInfoFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Collation collation();
    }

    private interface TableInfoFields {
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<CheckConstraint> checks();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        Collation collation();

        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<ForeignKey> foreignKeys();
    }

    /** The schema version, 0 before the first schema change. */
    public long schemaVersion(Transaction transaction) {
        return readLong(transaction, schemaVersionKey()).orElse(0L);
    }

    public List<DatabaseInfo> databases(Transaction transaction) {
        List<DatabaseInfo> databases = new ArrayList<>();
        for (byte[] value : scanHash(transaction, databasesHash())) {
            databases.add(read(value, DatabaseInfo.class));
        }
        return databases;
    }

    public List<TableInfo> tables(Transaction transaction, long databaseId) {
        List<TableInfo> tables = new ArrayList<>();
        for (byte[] value : scanHash(transaction, tablesHash(databaseId))) {
            tables.add(read(value, TableInfo.class));
        }
        return tables;
    }

    /** A record as its stored JSON value. */
    public byte[] write(Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise " + value, e);
        }
    }

    /** A record of {@code type} from its stored JSON value. */
    public <T> T read(byte[] value, Class<T> type) {
        try {
            return json.readValue(value, type);
        } catch (IOException e) {
            throw new IllegalStateException("corrupt catalog entry of type " + type.getSimpleName(), e);
        }
    }

    /** The schema version's meta key. */
    public static byte[] schemaVersionKey() {
        return Keys.metaKey(SCHEMA_VERSION.getBytes(UTF_8));
    }

    /** The hash of tables' statistics (ANALYZE results as JSON), by table id. */
    public static byte[] statisticsHash() {
        return STATISTICS.getBytes(UTF_8);
    }

    /** The row count the table's last ANALYZE found, empty when it was never analyzed. */
    public Optional<Long> analyzedRowCount(Transaction transaction, long tableId) {
        Optional<byte[]> value = transaction.get(Keys.metaHashFieldKey(statisticsHash(), idBytes(tableId)));
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            JsonNode rowCount = json.readTree(value.get()).get("rowCount");
            return rowCount == null ? Optional.empty() : Optional.of(rowCount.asLong());
        } catch (IOException e) {
            throw new IllegalStateException("corrupt statistics of table " + tableId, e);
        }
    }

    /** The meta key of a named counter (AUTO_INCREMENT values, hidden row ids). */
    public static byte[] counterKey(String name) {
        return Keys.metaKey((COUNTER_PREFIX + name).getBytes(UTF_8));
    }

    /** The counter a table's AUTO_INCREMENT column takes its values from. */
    public static String autoIncrementCounter(long tableId) {
        return "AutoID:" + tableId;
    }

    /** The counter a table without a clustered primary key takes its hidden row ids from. */
    public static String rowIdCounter(long tableId) {
        return "RowID:" + tableId;
    }

    /**
     * Moves a counter on by {@code count} in {@code transaction} (which must lock the key: a pessimistic one) and
     * answers its value before: the values after it, up to it plus {@code count}, are the caller's.
     */
    public static long advanceCounter(Transaction transaction, String name, long count) {
        byte[] key = counterKey(name);
        long before = transaction.getForUpdate(key).map(value -> ByteBuffer.wrap(value).getLong()).orElse(0L);
        transaction.put(key, longBytes(before + count));
        return before;
    }

    /** The hash of databases, by id. */
    public static byte[] databasesHash() {
        return DATABASES.getBytes(UTF_8);
    }

    /** The hash of a database's tables, by id. */
    public static byte[] tablesHash(long databaseId) {
        return (TABLES_PREFIX + databaseId).getBytes(UTF_8);
    }

    /** A database's key in the databases hash. */
    public static byte[] databaseKey(long databaseId) {
        return Keys.metaHashFieldKey(databasesHash(), idBytes(databaseId));
    }

    /** A table's key in its database's tables hash. */
    public static byte[] tableKey(long databaseId, long tableId) {
        return Keys.metaHashFieldKey(tablesHash(databaseId), idBytes(tableId));
    }

    /** An id as a hash field: 8 bytes, big-endian. */
    public static byte[] idBytes(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    /** A meta integer value (the schema version, counters): 8 bytes, big-endian. */
    public static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    /** The meta integer value at {@code key}, empty when it was never written. */
    public static Optional<Long> readLong(Transaction transaction, byte[] key) {
        return transaction.get(key).map(value -> ByteBuffer.wrap(value).getLong());
    }

    /** Every value of a meta hash, in field order. */
    public static List<byte[]> scanHash(Transaction transaction, byte[] hash) {
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
            start = Arrays.copyOf(last, last.length + 1);
        }
    }
}
