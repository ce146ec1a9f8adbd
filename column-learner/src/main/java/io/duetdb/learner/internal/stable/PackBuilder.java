package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.duetdb.common.row.RowColumn;
import io.duetdb.common.row.RowView;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.learner.internal.schema.TableSchema;

/** Builds a {@link ColumnPack} of one table from versions given in pack order, with the table's schema. */
final class PackBuilder {
    private final long tableId;
    private final List<TableSchema.Column> schema;
    private final RowColumn[] rowColumns;
    private final PackColumnBuilder[] builders;
    private byte[][] keys = new byte[256][];
    private long[] commitTs = new long[256];
    private boolean[] deleted = new boolean[256];
    private int rows;

    PackBuilder(TableSchema schema) {
        requireNonNull(schema, "schema is null");
        this.tableId = schema.tableId();
        this.schema = schema.columns();
        this.rowColumns = new RowColumn[this.schema.size()];
        this.builders = new PackColumnBuilder[this.schema.size()];
        for (int i = 0; i < rowColumns.length; i++) {
            TableSchema.Column column = this.schema.get(i);
            rowColumns[i] = RowColumn.of(column.id(), StoredValues.storageType(column.type()));
            builders[i] = PackColumnBuilder.of(column.type());
        }
    }

    int rows() {
        return rows;
    }

    byte[] lastKey() {
        return rows == 0 ? null : keys[rows - 1];
    }

    /** A version from the row codec; {@code row} null for a deletion. */
    void add(byte[] key, long timestamp, RowView row) {
        mark(key, timestamp, row == null);
        for (int i = 0; i < builders.length; i++) {
            if (row == null) {
                builders[i].add(null);
                continue;
            }
            long span = row.span(rowColumns[i].id());
            if (span == RowView.NULL) {
                builders[i].add(null);
            } else if (span == RowView.ABSENT) {
                builders[i].add(schema.get(i).originDefault());
            } else {
                builders[i].add(StoredValues.toCompute(row.get(rowColumns[i]), schema.get(i).type()));
            }
        }
    }

    /** A version from another pack, whose columns may be older than this schema. */
    void copy(ColumnPack pack, int row) {
        boolean isDeleted = pack.deleted(row);
        mark(pack.key(row), pack.commitTs(row), isDeleted);
        for (int i = 0; i < builders.length; i++) {
            TableSchema.Column column = schema.get(i);
            PackColumn source = pack.column(column.id());
            if (isDeleted) {
                builders[i].add(null);
            } else if (source == null) {
                builders[i].add(column.originDefault());
            } else if (source.type().getType() != column.type().getType()
                    || source.type().getScale() != column.type().getScale()) {
                // A decimal's precision may change (ALTER TABLE MODIFY checks the values fit); its scale may not.
                throw new IllegalStateException("column " + column.id() + " of table " + tableId + " changed type from "
                        + source.type().getType() + " to " + column.type().getType() + "; packs cannot convert it");
            } else {
                builders[i].add(source.value(row));
            }
        }
    }

    ColumnPack build(long id) {
        Map<Integer, PackColumn> columns = new HashMap<>();
        for (int i = 0; i < builders.length; i++) {
            columns.put(schema.get(i).id(), builders[i].build());
        }
        return new ColumnPack(id, tableId, Arrays.copyOf(keys, rows), Arrays.copyOf(commitTs, rows),
                Arrays.copyOf(deleted, rows), columns);
    }

    private void mark(byte[] key, long timestamp, boolean isDeleted) {
        if (rows == keys.length) {
            keys = Arrays.copyOf(keys, rows * 2);
            commitTs = Arrays.copyOf(commitTs, rows * 2);
            deleted = Arrays.copyOf(deleted, rows * 2);
        }
        keys[rows] = key;
        commitTs[rows] = timestamp;
        deleted[rows] = isDeleted;
        rows++;
    }
}
