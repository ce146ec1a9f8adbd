package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.IndexValues;
import io.duetdb.common.row.RowCodec;
import io.duetdb.common.row.RowColumn;
import io.duetdb.common.row.RowMutations;
import io.duetdb.common.types.ColumnType;
import io.duetdb.common.types.SqlTypeName;

/**
 * A table's key and value layout: row keys by handle (integer, or common: the clustered primary key's datums), the row codec over the table's columns, index entries,
 * and the conversion between the executor's values and the codecs' stored values. Rows passed in and out are
 * arrays of all columns in {@link TableInfo#columns()} order (public and in-flight ones alike).
 */
public final class TableAccess {
    private final TableInfo table;
    private final List<RowColumn> rowColumns;
    private final int handleColumnIndex;
    private final int[] publicColumnIndexes;
    /** The clustered primary key of a common-handle table, or null. */
    private final IndexInfo commonHandleKey;

    public TableAccess(TableInfo table) {
        this.table = requireNonNull(table, "table is null");
        this.rowColumns = table.rowColumns();
        int handleIndex = -1;
        for (int i = 0; i < table.columns().size(); i++) {
            if (table.columns().get(i).name().equalsIgnoreCase(String.valueOf(table.handleColumn()))) {
                handleIndex = i;
            }
        }
        this.handleColumnIndex = handleIndex;
        List<ColumnInfo> visible = table.publicColumns();
        this.publicColumnIndexes = new int[visible.size()];
        // By identity: publicColumns() holds the very instances of columns(), and comparing column records field
        // by field for every statement was a tenth of a TPC-C run's CPU.
        List<ColumnInfo> all = table.columns();
        for (int i = 0; i < visible.size(); i++) {
            int position = -1;
            for (int j = 0; j < all.size() && position < 0; j++) {
                if (all.get(j) == visible.get(i)) {
                    position = j;
                }
            }
            publicColumnIndexes[i] = position;
        }
        this.commonHandleKey = table.commonHandle() ? table.primaryKey().orElseThrow() : null;
    }

    public TableInfo table() {
        return table;
    }

    /** The index in the full column array of each public column, in public order. */
    public int[] publicColumnIndexes() {
        return publicColumnIndexes;
    }

    /** The index in the full column array of the clustered handle column, or -1. */
    public int handleColumnIndex() {
        return handleColumnIndex;
    }

    public byte[] rowKey(long handle) {
        return Keys.recordKey(table.id(), handle);
    }

    public byte[] rowKey(Handle handle) {
        return Keys.recordKey(table.id(), handle);
    }

    /** The clustered primary key of a common-handle table, or null for integer handles. */
    public IndexInfo commonHandleKey() {
        return commonHandleKey;
    }

    /** The handle of a full row of a table whose primary key is clustered (integer or common handle). */
    public Handle handleOf(Object[] row) {
        if (commonHandleKey != null) {
            return Keys.commonHandle(indexTypes(commonHandleKey), indexValues(commonHandleKey, row));
        }
        if (handleColumnIndex < 0) {
            throw new IllegalStateException("table " + table.name() + " has no clustered primary key");
        }
        return Handle.of(Values.toLong(row[handleColumnIndex]));
    }

    /** The handle a record key of this table ends with. */
    public Handle handleOfRecordKey(byte[] recordKey) {
        return commonHandleKey != null ? Keys.commonHandleOf(recordKey) : Handle.of(Keys.handleOf(recordKey));
    }

    /**
     * The record keys a common-handle table's rows start with when the primary key's first columns hold
     * {@code values} (storage forms); {@link Keys#indexValuesEnd} bounds them.
     */
    public byte[] recordValuesPrefix(List<Object> values) {
        return Keys.recordValuesPrefix(table.id(), indexTypes(commonHandleKey).subList(0, values.size()), values);
    }

    public byte[] recordStart() {
        return Keys.recordPrefix(table.id());
    }

    public byte[] recordEnd() {
        return Keys.recordEnd(table.id());
    }

    public Object[] decode(byte[] value) {
        Object[] stored = RowCodec.decode(value, rowColumns);
        Object[] row = new Object[stored.length];
        for (int i = 0; i < stored.length; i++) {
            row[i] = fromStorage(table.columns().get(i), stored[i]);
        }
        return row;
    }

    public byte[] encode(Object[] row) {
        List<Object> stored = new ArrayList<>(row.length);
        for (int i = 0; i < row.length; i++) {
            stored.add(toStorage(table.columns().get(i), row[i]));
        }
        return RowCodec.encode(rowColumns, stored);
    }

    /** The public columns of a full row, in public order. */
    public Object[] publicValues(Object[] row) {
        Object[] values = new Object[publicColumnIndexes.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = row[publicColumnIndexes[i]];
        }
        return values;
    }

    /** The indexes writers maintain in the current schema state (public, write-only and reorganizing ones). */
    public List<IndexInfo> writableIndexes() {
        return RowMutations.writableIndexes(table);
    }

    /** The indexes whose entries writers remove (every index that has entries, including delete-only ones). */
    public List<IndexInfo> deletableIndexes() {
        List<IndexInfo> indexes = new ArrayList<>();
        for (IndexInfo index : table.indexes()) {
            if (!(index.primary() && table.hasClusteredPrimaryKey())) {
                indexes.add(index);
            }
        }
        return indexes;
    }

    /** The values of an index's columns in a full row as its keys hold them ({@link #toKey}). */
    public List<Object> indexValues(IndexInfo index, Object[] row) {
        List<Object> values = new ArrayList<>(index.columns().size());
        for (String columnName : index.columns()) {
            int position = columnIndex(columnName);
            values.add(toKey(table.columns().get(position), row[position]));
        }
        return values;
    }

    /** The stored values of an index's columns in a full row, as a duplicate-key error names them. */
    public List<Object> indexDisplayValues(IndexInfo index, Object[] row) {
        List<Object> values = new ArrayList<>(index.columns().size());
        for (String columnName : index.columns()) {
            int position = columnIndex(columnName);
            values.add(toStorage(table.columns().get(position), row[position]));
        }
        return values;
    }

    public List<ColumnType> indexTypes(IndexInfo index) {
        List<ColumnType> types = new ArrayList<>(index.columns().size());
        for (String columnName : index.columns()) {
            types.add(IndexValues.keyType(table.columns().get(columnIndex(columnName))));
        }
        return types;
    }

    /** Whether an index's keys can give back its columns' values (none of them is keyed by a sort key). */
    public boolean keysHoldValues(IndexInfo index) {
        for (String columnName : index.columns()) {
            if (IndexValues.keyedBySortKey(table.columns().get(columnIndex(columnName)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The key of a row's entry in an index. Unique entries are keyed by the values alone unless a value is
     * NULL (NULLs never collide, so such entries carry the handle like a plain index's).
     */
    public byte[] indexKey(IndexInfo index, Object[] row, Handle handle) {
        List<Object> values = indexValues(index, row);
        if (index.unique() && !values.contains(null)) {
            return Keys.uniqueIndexKey(table.id(), index.id(), indexTypes(index), values);
        }
        return Keys.indexKey(table.id(), index.id(), indexTypes(index), values, handle);
    }

    public boolean isUniqueEntry(IndexInfo index, Object[] row) {
        return index.unique() && !indexValues(index, row).contains(null);
    }

    /** The value of a unique index entry: the handle of its row. */
    public static byte[] handleValue(Handle handle) {
        return RowMutations.handleValue(handle);
    }

    /** The handle a unique index entry's value holds. */
    public Handle handleOfValue(byte[] value) {
        return commonHandleKey != null ? Handle.common(value) : Handle.of(ByteBuffer.wrap(value).getLong());
    }

    /** The handle of an index entry: a unique entry holds it as its value, a non-unique one ends its key with it. */
    public Handle handleOfIndexEntry(IndexInfo index, byte[] key, byte[] value) {
        if (!isNonUniqueEntryValue(value)) {
            return handleOfValue(value);
        }
        return commonHandleKey != null ? Keys.commonHandleOfIndexEntry(key, indexTypes(index))
                : Handle.of(Keys.handleOfIndexEntry(key));
    }

    /** The value of a non-unique index entry (its handle is in the key). */
    public static byte[] nonUniqueEntryValue() {
        return RowMutations.nonUniqueEntryValue();
    }

    private static boolean isNonUniqueEntryValue(byte[] value) {
        return value.length == 1 && value[0] == '0';
    }

    /**
     * The handles of the index entries in [start, end), in index order, handed to {@code page} a page of
     * {@code pageSize} entries at a time: a unique index's entry holds its handle as the value, others in the key.
     */
    void forEachIndexPage(Transaction transaction, IndexInfo index, byte[] start, byte[] end, int pageSize,
            Consumer<List<Handle>> page) {
        forEachIndexPageWhile(transaction, index, start, end, pageSize, handles -> {
            page.accept(handles);
            return true;
        });
    }

    /**
     * As {@link #forEachIndexPage}, stopping after a page for which {@code page} answers false. A range whose start
     * is not before its end (a condition such as {@code a BETWEEN 9 AND 1}) holds no entries.
     */
    void forEachIndexPageWhile(Transaction transaction, IndexInfo index, byte[] start, byte[] end, int pageSize,
            Predicate<List<Handle>> page) {
        if (end.length > 0 && Arrays.compareUnsigned(start, end) >= 0) {
            page.test(List.of());
            return;
        }
        byte[] from = start;
        while (true) {
            List<Map.Entry<ByteString, byte[]>> entries = transaction.scan(from, end, pageSize);
            List<Handle> handles = new ArrayList<>(entries.size());
            for (Map.Entry<ByteString, byte[]> entry : entries) {
                handles.add(handleOfIndexEntry(index, entry.getKey().toByteArray(), entry.getValue()));
            }
            if (!page.test(handles) || entries.size() < pageSize) {
                return;
            }
            byte[] last = entries.get(entries.size() - 1).getKey().toByteArray();
            from = Arrays.copyOf(last, last.length + 1);
        }
    }

    public int columnIndex(String columnName) {
        for (int i = 0; i < table.columns().size(); i++) {
            if (table.columns().get(i).name().equalsIgnoreCase(columnName)) {
                return i;
            }
        }
        throw new IllegalStateException("table " + table.name() + " has no column " + columnName);
    }

    public static Object toStorage(ColumnInfo column, Object value) {
        if (value == null) {
            return null;
        }
        ColumnType storage = column.type().storageType();
        return switch (storage) {
            case INT64 -> Values.toLong(value);
            case UINT64 -> value instanceof BigDecimal decimal ? decimal.toBigInteger().longValue()
                    : Values.toLong(value);
            case FLOAT32 -> (float) Values.toDouble(value);
            case FLOAT64 -> Values.toDouble(value);
            case DECIMAL -> Values.toDecimal(value);
            case STRING -> Values.toText(value);
            case BYTES -> value instanceof byte[] ? value : Values.toText(value).getBytes(StandardCharsets.UTF_8);
            default -> value;
        };
    }

    /** A value of the column as index keys hold it: stored, and collated text as its sort key. */
    public static Object toKey(ColumnInfo column, Object value) {
        return IndexValues.keyValue(column, toStorage(column, value));
    }

    public static Object fromStorage(ColumnInfo column, Object stored) {
        if (stored == null) {
            return null;
        }
        if (stored instanceof Float number) {
            return Double.valueOf(Float.toString(number));
        }
        if (column.type().storageType() == ColumnType.UINT64 && column.type().name() == SqlTypeName.BIGINT) {
            return new BigDecimal(new BigInteger(Long.toUnsignedString((Long) stored)));
        }
        return stored;
    }

    static boolean sameValues(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            if (x == null || y == null) {
                if (x != y) {
                    return false;
                }
            } else if (x instanceof byte[] bytesX && y instanceof byte[] bytesY) {
                if (!Arrays.equals(bytesX, bytesY)) {
                    return false;
                }
            } else if (Values.compare(x, y) != 0 || !x.getClass().equals(y.getClass())) {
                return false;
            }
        }
        return true;
    }
}
