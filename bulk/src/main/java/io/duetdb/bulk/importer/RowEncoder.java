package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.row.RowMutations;
import io.duetdb.proto.kv.Mutation;

/**
 * Turns an input row's text fields into the pairs that store it: the record and its index entries, as INSERT would
 * write them. Fields map to {@code fileColumns} in order; other columns take their defaults. Hidden row ids and
 * AUTO_INCREMENT values the input leaves out are drawn from shared counters. Thread-safe.
 */
final class RowEncoder {
    private final TableInfo table;
    private final RowMutations mutations;
    private final int[] fieldColumns;
    private final Object[] defaults;
    private final boolean[] filled;
    private final FieldParser parser;
    private final int autoIncrementColumn;
    private final AtomicLong nextRowId;
    private final AtomicLong nextAutoId;
    private final AtomicLong maxAutoId = new AtomicLong();

    RowEncoder(TableInfo table, List<String> fileColumns, FieldParser parser, LocalDateTime now, long firstAutoId) {
        this.table = requireNonNull(table, "table is null");
        this.parser = requireNonNull(parser, "parser is null");
        this.mutations = new RowMutations(table);
        List<ColumnInfo> columns = table.columns();
        List<String> names = fileColumns == null || fileColumns.isEmpty()
                ? table.publicColumns().stream().map(ColumnInfo::name).toList() : fileColumns;
        this.fieldColumns = new int[names.size()];
        this.filled = new boolean[columns.size()];
        for (int i = 0; i < names.size(); i++) {
            int index = columnIndex(names.get(i));
            if (filled[index]) {
                throw new DuetException(ErrorCode.NON_UNIQUE_COLUMN, "Column '" + names.get(i) + "' specified twice");
            }
            filled[index] = true;
            fieldColumns[i] = index;
        }
        this.defaults = new Object[columns.size()];
        int autoIncrement = -1;
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo column = columns.get(i);
            if (column.autoIncrement()) {
                autoIncrement = i;
            }
            if (filled[i] || column.autoIncrement()) {
                continue;
            }
            if (column.defaultCurrentTimestamp()) {
                defaults[i] = now;
            } else if (column.hasDefault() || !column.notNull()) {
                defaults[i] = column.defaultValue() == null ? null : column.originDefault();
            } else {
                throw new DuetException(ErrorCode.NO_DEFAULT_FOR_FIELD, "Field '" + column.name()
                        + "' doesn't have a default value");
            }
        }
        this.autoIncrementColumn = autoIncrement;
        this.nextRowId = new AtomicLong(1);
        this.nextAutoId = new AtomicLong(Math.max(1, firstAutoId));
    }

    /** The number of fields a row must have. */
    int fieldCount() {
        return fieldColumns.length;
    }

    /** Encodes one row into {@code out}; fails naming the file, line and column of a field that does not convert. */
    void encode(String file, long line, String[] fields, ExternalSorter.Buffer out) {
        int count = fields.length;
        if (count == fieldColumns.length + 1 && fields[count - 1] != null && fields[count - 1].isEmpty()) {
            // A terminator after the last field (TPC-H's dbgen writes one) is no extra field.
            count--;
        }
        if (count < fieldColumns.length) {
            throw new DuetException(ErrorCode.TOO_FEW_RECORDS, "Row " + line + " doesn't contain data for all columns"
                    + " (" + file + ", line " + line + ": " + count + " fields for " + fieldColumns.length + " columns)");
        }
        if (count > fieldColumns.length) {
            throw new DuetException(ErrorCode.TOO_MANY_RECORDS, "Row " + line + " was truncated; it contained more data"
                    + " than there were input columns (" + file + ", line " + line + ": " + count + " fields for "
                    + fieldColumns.length + " columns)");
        }
        Object[] stored = defaults.clone();
        List<ColumnInfo> columns = table.columns();
        for (int i = 0; i < fieldColumns.length; i++) {
            int index = fieldColumns[i];
            ColumnInfo column = columns.get(index);
            String text = fields[i];
            if (text == null) {
                if (column.notNull() && !column.autoIncrement()) {
                    throw new DuetException(ErrorCode.COLUMN_CANNOT_BE_NULL, "Column '" + column.name()
                            + "' cannot be null (" + file + ", line " + line + ")");
                }
                continue;
            }
            try {
                stored[index] = parser.parse(column, text);
            } catch (DuetException e) {
                throw new DuetException(e.code(), e.getMessage() + " (" + file + ", line " + line + ", column '"
                        + column.name() + "')");
            } catch (RuntimeException e) {
                throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect " + column.type().toSql() + " value: '"
                        + text + "' for column '" + column.name() + "' (" + file + ", line " + line + ")");
            }
        }
        if (autoIncrementColumn >= 0) {
            if (stored[autoIncrementColumn] == null) {
                stored[autoIncrementColumn] = nextAutoId.getAndIncrement();
            }
            long value = ((Number) stored[autoIncrementColumn]).longValue();
            maxAutoId.accumulateAndGet(value, Math::max);
        }
        Handle handle = mutations.needsRowId() ? Handle.of(nextRowId.getAndIncrement()) : mutations.handleOf(stored);
        List<Mutation> pairs = new ArrayList<>(2);
        mutations.insert(stored, handle, pairs);
        for (Mutation pair : pairs) {
            out.add(pair.getKey().toByteArray(), pair.getValue().toByteArray());
        }
    }

    /** The largest AUTO_INCREMENT value written (0 when none). */
    long maxAutoIncrement() {
        return maxAutoId.get();
    }

    /** The hidden row ids handed out. */
    long rowIdsUsed() {
        return nextRowId.get() - 1;
    }

    private int columnIndex(String name) {
        List<ColumnInfo> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + name
                + "' in 'field list'");
    }
}
