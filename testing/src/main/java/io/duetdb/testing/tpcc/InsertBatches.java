package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.duetdb.testing.reference.DataLoader;

/**
 * Rows collected per table into multi-row {@code INSERT INTO t (columns) VALUES (...), (...)} statements of up to
 * {@code rowsPerInsert} rows, each run in autocommit through one connection's statement as soon as it is full.
 * Counts the rows written per table in shared counters, for progress.
 */
final class InsertBatches {
    private final Statement statement;
    private final int rowsPerInsert;
    private final Map<TpccTable, AtomicLong> written;
    private final Map<TpccTable, StringBuilder> pending = new EnumMap<>(TpccTable.class);
    private final Map<TpccTable, Integer> pendingRows = new EnumMap<>(TpccTable.class);

    InsertBatches(Statement statement, int rowsPerInsert, Map<TpccTable, AtomicLong> written) {
        this.statement = requireNonNull(statement, "statement is null");
        if (rowsPerInsert < 1) {
            throw new IllegalArgumentException("rowsPerInsert must be positive");
        }
        this.rowsPerInsert = rowsPerInsert;
        this.written = requireNonNull(written, "written is null");
    }

    void add(TpccTable table, Object[] values) throws SQLException {
        StringBuilder sql = pending.computeIfAbsent(table, key -> new StringBuilder());
        int rows = pendingRows.getOrDefault(table, 0);
        sql.append(rows == 0 ? "INSERT INTO " + table.sqlName() + " (" + table.columnList() + ") VALUES (" : ",(");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sql.append(',');
            }
            DataLoader.literal(sql, values[i]);
        }
        sql.append(')');
        pendingRows.put(table, rows + 1);
        if (rows + 1 >= rowsPerInsert) {
            flush(table);
        }
    }

    /** Writes every table's pending rows. */
    void flush() throws SQLException {
        for (TpccTable table : TpccTable.values()) {
            flush(table);
        }
    }

    private void flush(TpccTable table) throws SQLException {
        int rows = pendingRows.getOrDefault(table, 0);
        if (rows == 0) {
            return;
        }
        StringBuilder sql = pending.get(table);
        statement.executeUpdate(sql.toString());
        sql.setLength(0);
        pendingRows.put(table, 0);
        written.get(table).addAndGet(rows);
    }
}
