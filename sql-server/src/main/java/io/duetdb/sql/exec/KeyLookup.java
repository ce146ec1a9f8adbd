package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.keys.Keys;

/**
 * How the rows of a table whose {@code columns} hold given values are found, by the key that starts with those
 * columns: the clustered primary key, a unique index (one entry), or the leading columns of any index (a range of
 * entries). Foreign keys look their parent and child rows up this way, as InnoDB does through the index a foreign
 * key requires on each side.
 */
final class KeyLookup {
    private static final int PAGE = 256;

    private enum Path {
        /** The values are the whole clustered primary key: one record. */
        CLUSTERED_KEY,
        /** The values are the first columns of a clustered primary key: a range of records. */
        CLUSTERED_PREFIX,
        /** The values are a whole unique index: one entry. */
        UNIQUE_KEY,
        /** The values are the first columns of an index: a range of entries. */
        INDEX_PREFIX,
        /** No key starts with the columns: every record is read and compared. */
        TABLE_SCAN
    }

    private final TableAccess access;
    private final List<Integer> positions;
    private final Path path;
    private final IndexInfo index;

    private KeyLookup(TableAccess access, List<Integer> positions, Path path, IndexInfo index) {
        this.access = access;
        this.positions = positions;
        this.path = path;
        this.index = index;
    }

    /** The lookup of {@code table}'s rows by {@code columns}; empty when no key starts with them. */
    static Optional<KeyLookup> byKey(TableInfo table, List<String> columns) {
        KeyLookup lookup = of(table, columns);
        return lookup.path == Path.TABLE_SCAN ? Optional.empty() : Optional.of(lookup);
    }

    /** The lookup of {@code table}'s rows by {@code columns}, a scan of the table when no key starts with them. */
    static KeyLookup of(TableInfo table, List<String> columns) {
        requireNonNull(table, "table is null");
        TableAccess access = new TableAccess(table);
        List<Integer> positions = columns.stream().map(access::columnIndex).toList();
        boolean clustered = table.hasClusteredPrimaryKey();
        if (clustered) {
            IndexInfo primary = table.indexes().stream().filter(IndexInfo::primary).findFirst().orElseThrow();
            if (primary.startsWith(columns)) {
                return new KeyLookup(access, positions, primary.columns().size() == columns.size() ? Path.CLUSTERED_KEY
                        : Path.CLUSTERED_PREFIX, primary);
            }
        }
        IndexInfo prefix = null;
        for (IndexInfo candidate : table.indexes()) {
            if (candidate.state() != SchemaState.PUBLIC || (candidate.primary() && clustered)
                    || !candidate.startsWith(columns)) {
                continue;
            }
            if (candidate.unique() && candidate.columns().size() == columns.size()) {
                return new KeyLookup(access, positions, Path.UNIQUE_KEY, candidate);
            }
            if (prefix == null) {
                prefix = candidate;
            }
        }
        return prefix != null ? new KeyLookup(access, positions, Path.INDEX_PREFIX, prefix)
                : new KeyLookup(access, positions, Path.TABLE_SCAN, null);
    }

    TableAccess access() {
        return access;
    }

    /**
     * Whether a row holds {@code values} (in the lookup's columns, none of them NULL). A lookup of one key reads it
     * for update (locked in pessimistic mode, checked at commit in optimistic mode), so the row cannot go away
     * before this transaction ends.
     */
    boolean exists(Transaction transaction, List<Object> values) {
        Object[] row = rowOf(values);
        return switch (path) {
            case CLUSTERED_KEY -> transaction.getForUpdate(access.rowKey(access.handleOf(row))).isPresent();
            case UNIQUE_KEY -> transaction.getForUpdate(access.indexKey(index, row, Handle.of(0))).isPresent();
            case CLUSTERED_PREFIX, INDEX_PREFIX -> {
                byte[] start = prefix(row);
                yield !transaction.scan(start, Keys.indexValuesEnd(start), 1).isEmpty();
            }
            case TABLE_SCAN -> !rowsForUpdate(transaction, values).isEmpty();
        };
    }

    /**
     * The rows that hold {@code values} in the lookup's columns (none of them NULL), with their handles, as the newest
     * committed versions show them in pessimistic mode, and read for update: a row found cannot change before this
     * transaction ends, and a row committed by another transaction since this one began is not missed.
     */
    List<TableReader.HandleRow> rowsForUpdate(Transaction transaction, List<Object> values) {
        Object[] probe = rowOf(values);
        List<Handle> handles = new ArrayList<>();
        switch (path) {
            case CLUSTERED_KEY -> handles.add(access.handleOf(probe));
            case UNIQUE_KEY -> transaction.getForUpdate(access.indexKey(index, probe, Handle.of(0)))
                    .ifPresent(value -> handles.add(access.handleOfValue(value)));
            case INDEX_PREFIX -> {
                byte[] start = prefix(probe);
                scanLatest(transaction, start, Keys.indexValuesEnd(start), entry -> handles.add(
                        access.handleOfIndexEntry(index, entry.getKey().toByteArray(), entry.getValue())));
            }
            case CLUSTERED_PREFIX -> {
                byte[] start = prefix(probe);
                scanLatest(transaction, start, Keys.indexValuesEnd(start),
                        entry -> handles.add(access.handleOfRecordKey(entry.getKey().toByteArray())));
            }
            case TABLE_SCAN -> scanLatest(transaction, access.recordStart(), access.recordEnd(), entry -> {
                if (sameKeys(access.decode(entry.getValue()), values)) {
                    handles.add(access.handleOfRecordKey(entry.getKey().toByteArray()));
                }
            });
        }
        List<TableReader.HandleRow> rows = new ArrayList<>(handles.size());
        if (handles.isEmpty()) {
            return rows;
        }
        List<byte[]> keys = handles.stream().map(access::rowKey).toList();
        Map<ByteString, byte[]> found = transaction.getForUpdateAll(keys);
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = found.get(ByteString.copyFrom(keys.get(i)));
            if (value != null) {
                rows.add(new TableReader.HandleRow(handles.get(i), access.decode(value)));
            }
        }
        return rows;
    }

    /** Hands every row of the table, as the transaction's snapshot holds them, to {@code consumer}. */
    void forEachRow(Transaction transaction, Consumer<Object[]> consumer) {
        byte[] from = access.recordStart();
        byte[] end = access.recordEnd();
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scan(from, end, PAGE);
            for (Map.Entry<ByteString, byte[]> entry : page) {
                consumer.accept(access.decode(entry.getValue()));
            }
            if (page.size() < PAGE) {
                return;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            from = Arrays.copyOf(last, last.length + 1);
        }
    }

    /** The values of the lookup's columns in a full row of the table (as index keys compare them). */
    List<Object> valuesOf(Object[] row) {
        List<Object> values = new ArrayList<>(positions.size());
        for (int position : positions) {
            values.add(row[position]);
        }
        return values;
    }

    List<Integer> positions() {
        return positions;
    }

    private Object[] rowOf(List<Object> values) {
        Object[] row = new Object[access.table().columns().size()];
        for (int i = 0; i < positions.size(); i++) {
            row[positions.get(i)] = values.get(i);
        }
        return row;
    }

    private byte[] prefix(Object[] row) {
        List<Object> keyValues = new ArrayList<>(positions.size());
        for (int position : positions) {
            keyValues.add(TableAccess.toKey(access.table().columns().get(position), row[position]));
        }
        if (path == Path.CLUSTERED_PREFIX) {
            return access.recordValuesPrefix(keyValues);
        }
        return Keys.indexValuesPrefix(access.table().id(), index.id(),
                access.indexTypes(index).subList(0, keyValues.size()), keyValues);
    }

    /** Every pair in [start, end) as {@link Transaction#scanLatest} reads them, a page at a time. */
    private static void scanLatest(Transaction transaction, byte[] start, byte[] end,
            Consumer<Map.Entry<ByteString, byte[]>> consumer) {
        byte[] from = start;
        while (true) {
            List<Map.Entry<ByteString, byte[]>> page = transaction.scanLatest(from, end, PAGE);
            page.forEach(consumer);
            if (page.size() < PAGE) {
                return;
            }
            byte[] last = page.get(page.size() - 1).getKey().toByteArray();
            from = Arrays.copyOf(last, last.length + 1);
        }
    }

    /** Whether a row's lookup columns hold {@code values}, compared as the columns' keys compare them. */
    boolean sameKeys(Object[] row, List<Object> values) {
        List<Object> own = new ArrayList<>(positions.size());
        List<Object> given = new ArrayList<>(positions.size());
        for (int i = 0; i < positions.size(); i++) {
            ColumnInfo column = access.table().columns().get(positions.get(i));
            own.add(TableAccess.toKey(column, row[positions.get(i)]));
            given.add(TableAccess.toKey(column, values.get(i)));
        }
        return TableAccess.sameValues(own, given);
    }
}
