package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.exec.Coercion;
import io.duetdb.sql.exec.TableAccess;

/**
 * Reads a table's rows at one snapshot for ALTER TABLE's column changes: whether the table has rows at all, and
 * whether every value of a changed column fits its new definition (no NULL in a column made NOT NULL, no value
 * out of a narrowed type's range). The change is published before the check, so writers already keep to it; the
 * snapshot is taken after, so it sees every row written under the old definition.
 */
final class ColumnValueCheck {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnValueCheck.class);
    static final int PAGE_ROWS = 1024;

    private final TxnClient client;

    ColumnValueCheck(TxnClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    boolean hasRows(TableInfo table) {
        TableAccess access = new TableAccess(table);
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            return !snapshot.scan(access.recordStart(), access.recordEnd(), 1).isEmpty();
        }
    }

    /**
     * Checks every row's value of {@code column} (as {@code table} now defines it) against its definition; fails
     * as MySQL's ALTER TABLE does in strict mode, naming the first row that does not fit.
     */
    void check(TableInfo table, ColumnInfo column, BooleanSupplier cancelled, DdlJobRecord job) {
        int index = new TableAccess(table).columnIndex(column.name());
        long rows = forEachRow(table, cancelled, job, (row, number) -> check(column, row[index], number));
        LOG.info("Checked column {} of {}: {} rows fit {}", column.name(), table.name(), rows, column.type().toSql());
    }

    /** What a scan hands each row: its decoded values and its number (1 for the first row). */
    @FunctionalInterface
    interface RowVisitor {
        void visit(Object[] row, long number);
    }

    /**
     * Hands every row of {@code table} (its decoded values) to {@code visitor}, page by page at one snapshot, with
     * the job's progress; returns the number of rows. KILL QUERY ({@code cancelled}) stops it with 1317.
     */
    long forEachRow(TableInfo table, BooleanSupplier cancelled, DdlJobRecord job, RowVisitor visitor) {
        TableAccess access = new TableAccess(table);
        long rows = 0;
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            byte[] start = access.recordStart();
            byte[] end = access.recordEnd();
            while (true) {
                if (cancelled.getAsBoolean()) {
                    throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                }
                List<Map.Entry<ByteString, byte[]>> page = snapshot.scan(start, end, PAGE_ROWS);
                for (Map.Entry<ByteString, byte[]> row : page) {
                    rows++;
                    visitor.visit(access.decode(row.getValue()), rows);
                }
                job.progress(rows, true);
                if (page.size() < PAGE_ROWS) {
                    break;
                }
                byte[] last = page.get(page.size() - 1).getKey().toByteArray();
                start = Arrays.copyOf(last, last.length + 1);
            }
        }
        job.progress(rows, false);
        return rows;
    }

    private static void check(ColumnInfo column, Object value, long row) {
        if (value == null) {
            if (column.notNull()) {
                throw new DuetException(ErrorCode.INVALID_USE_OF_NULL, "Invalid use of NULL value");
            }
            return;
        }
        try {
            Coercion.toColumn(value, column);
        } catch (DuetException e) {
            if (e.code() == ErrorCode.OUT_OF_RANGE_VALUE) {
                throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "Out of range value for column '"
                        + column.name() + "' at row " + row);
            }
            throw new DuetException(ErrorCode.DATA_TRUNCATED, "Data truncated for column '" + column.name()
                    + "' at row " + row);
        }
    }
}
