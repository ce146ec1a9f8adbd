package io.duetdb.common.row;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.google.protobuf.ByteString;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.ColumnType;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;

/**
 * A new row of a table as the key-value mutations that insert it: the record (keyed by its handle, the row codec's
 * value) and an entry in every index writers maintain. Values are the codecs' stored forms, one per column of
 * {@link TableInfo#columns()}. The record and the unique entries are INSERTs (the store refuses them when the key
 * exists), other entries PUTs. Pure: no storage, no clock.
 */
public final class RowMutations {
    private static final byte[] NON_UNIQUE_ENTRY_VALUE = {'0'};

    private final TableInfo table;
    private final List<RowColumn> rowColumns;
    private final List<IndexEntry> indexes;
    private final int handleColumn;
    private final IndexEntry commonHandleKey;

    private record IndexEntry(IndexInfo index, int[] columns, List<ColumnInfo> infos, List<ColumnType> types) {
    }

    public RowMutations(TableInfo table) {
        this.table = requireNonNull(table, "table is null");
        this.rowColumns = table.rowColumns();
        int handle = -1;
        for (int i = 0; i < table.columns().size(); i++) {
            if (table.columns().get(i).name().equalsIgnoreCase(String.valueOf(table.handleColumn()))) {
                handle = i;
            }
        }
        this.handleColumn = handle;
        this.indexes = new ArrayList<>();
        for (IndexInfo index : writableIndexes(table)) {
            indexes.add(entry(index));
        }
        this.commonHandleKey = table.commonHandle() ? entry(table.primaryKey().orElseThrow()) : null;
    }

    /** The indexes writers maintain in the current schema state (public, write-only and reorganizing ones). */
    public static List<IndexInfo> writableIndexes(TableInfo table) {
        List<IndexInfo> writable = new ArrayList<>();
        for (IndexInfo index : table.indexes()) {
            if (index.state().isWritable() && !(index.primary() && table.hasClusteredPrimaryKey())) {
                writable.add(index);
            }
        }
        return writable;
    }

    /** Whether rows are keyed by a hidden row id (no clustered primary key). */
    public boolean needsRowId() {
        return handleColumn < 0 && commonHandleKey == null;
    }

    /** The handle of a row of a table with a clustered primary key. */
    public Handle handleOf(Object[] stored) {
        if (commonHandleKey != null) {
            return Keys.commonHandle(commonHandleKey.types(), values(commonHandleKey, stored));
        }
        if (handleColumn < 0) {
            throw new IllegalStateException("table " + table.name() + " has no clustered primary key");
        }
        return Handle.of(((Number) stored[handleColumn]).longValue());
    }

    /** Appends the mutations that insert the row to {@code out}. */
    public void insert(Object[] stored, Handle handle, List<Mutation> out) {
        out.add(mutation(Op.INSERT, Keys.recordKey(table.id(), handle), RowCodec.encode(rowColumns, Arrays.asList(stored))));
        for (IndexEntry entry : indexes) {
            List<Object> values = values(entry, stored);
            if (entry.index().unique() && !values.contains(null)) {
                out.add(mutation(Op.INSERT, Keys.uniqueIndexKey(table.id(), entry.index().id(), entry.types(), values),
                        handleValue(handle)));
            } else {
                out.add(mutation(Op.PUT, Keys.indexKey(table.id(), entry.index().id(), entry.types(), values, handle),
                        NON_UNIQUE_ENTRY_VALUE));
            }
        }
    }

    /** The value of a unique index entry: the handle of its row. */
    public static byte[] handleValue(Handle handle) {
        return handle.isInt() ? ByteBuffer.allocate(Long.BYTES).putLong(handle.intValue()).array() : handle.encoded();
    }

    /** The value of a non-unique index entry (its handle is in the key). */
    public static byte[] nonUniqueEntryValue() {
        return NON_UNIQUE_ENTRY_VALUE.clone();
    }

    private IndexEntry entry(IndexInfo index) {
        int[] columns = new int[index.columns().size()];
        List<ColumnInfo> infos = new ArrayList<>(columns.length);
        List<ColumnType> types = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++) {
            columns[i] = columnIndex(index.columns().get(i));
            infos.add(table.columns().get(columns[i]));
            types.add(IndexValues.keyType(infos.get(i)));
        }
        return new IndexEntry(index, columns, List.copyOf(infos), List.copyOf(types));
    }

    private static List<Object> values(IndexEntry entry, Object[] stored) {
        List<Object> values = new ArrayList<>(entry.columns().length);
        for (int i = 0; i < entry.columns().length; i++) {
            values.add(IndexValues.keyValue(entry.infos().get(i), stored[entry.columns()[i]]));
        }
        return values;
    }

    private int columnIndex(String name) {
        List<ColumnInfo> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new IllegalStateException("table " + table.name() + " has no column " + name);
    }

    private static Mutation mutation(Op op, byte[] key, byte[] value) {
        return Mutation.newBuilder().setOp(op).setKey(ByteString.copyFrom(key)).setValue(ByteString.copyFrom(value)).build();
    }
}
