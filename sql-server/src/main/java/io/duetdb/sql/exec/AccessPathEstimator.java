package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.BitSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.apache.calcite.rex.RexNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.row.IndexValues;
import io.duetdb.sql.prepare.DuetTable;
import io.duetdb.sql.prepare.StatisticsMetadata;

/**
 * What the access path costs need to know of one table: the rows ANALYZE counted, the fraction a condition
 * keeps, tuple and index entry sizes from the columns' average widths, and the regions a key range spans.
 */
final class AccessPathEstimator {
    /** {@code t{tableId}_r{handle}} or {@code t{tableId}_i{indexId}}: the bytes every key starts with. */
    private static final double KEY_BYTES = 19;
    /** A column ANALYZE has not measured (added since) counts as a number's width. */
    private static final double UNMEASURED_COLUMN_BYTES = 8;

    private final DuetTable table;
    private final Transaction transaction;
    private final ScanCostModel model;
    /** The public columns the reader's consumer uses, when it can read them from an index alone; else null. */
    private final BitSet neededColumns;

    AccessPathEstimator(DuetTable table, Transaction transaction, ScanCostModel model, BitSet neededColumns) {
        this.table = requireNonNull(table, "table is null");
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.model = requireNonNull(model, "model is null");
        this.neededColumns = neededColumns == null ? null : (BitSet) neededColumns.clone();
    }

    /**
     * The same estimates for a consumer that uses only {@code columns} (public positions) and can read them
     * from an index's entries: an index holding them all then costs no double read (equation (5)'s first case).
     */
    AccessPathEstimator needing(BitSet columns) {
        return new AccessPathEstimator(table, transaction, model, requireNonNull(columns, "columns is null"));
    }

    /** Whether {@code index}'s entries hold every needed column (its columns and the clustered handle). */
    boolean covers(IndexInfo index) {
        if (neededColumns == null) {
            return false;
        }
        for (String name : index.columns()) {
            if (table.table().column(name).map(IndexValues::keyedBySortKey).orElse(true)) {
                return false; // its keys hold sort keys, not the text
            }
        }
        List<ColumnInfo> columns = table.table().publicColumns();
        for (int position = neededColumns.nextSetBit(0); position >= 0; position = neededColumns.nextSetBit(position + 1)) {
            String name = columns.get(position).name();
            boolean inIndex = index.columns().stream().anyMatch(name::equalsIgnoreCase)
                    || name.equalsIgnoreCase(String.valueOf(table.table().handleColumn()));
            if (!inIndex) {
                return false;
            }
        }
        return true;
    }

    /** An estimator with the factors the session sets, or null when there is no transaction to ask for regions. */
    static AccessPathEstimator of(DuetTable table, Transaction transaction, SessionFunctions session) {
        if (transaction == null) {
            return null;
        }
        return new AccessPathEstimator(table, transaction, new ScanCostModel(
                factor(session, ScanCostModel.SCAN_FACTOR_VARIABLE, ScanCostModel.DEFAULT.scanFactor()),
                factor(session, ScanCostModel.SEEK_FACTOR_VARIABLE, ScanCostModel.DEFAULT.seekFactor())), null);
    }

    private static double factor(SessionFunctions session, String variable, double defaultValue) {
        Object value = session.systemVariable("", variable);
        return value == null ? defaultValue : Double.parseDouble(String.valueOf(value));
    }

    ScanCostModel model() {
        return model;
    }

    /** The rows ANALYZE counted; empty when the table was never analyzed (then the paths are chosen by rule). */
    OptionalLong rows() {
        return table.statistics().rowCount(table.table().id());
    }

    /** The rows that satisfy all of {@code conjuncts}, of {@code rows}. */
    double rowsMatching(long rows, List<RexNode> conjuncts) {
        return rows * StatisticsMetadata.selectivity(table, conjuncts);
    }

    /** {@code S_tuple}: a record's key and its columns. */
    double tupleBytes() {
        double bytes = KEY_BYTES;
        for (ColumnInfo column : table.table().publicColumns()) {
            bytes += columnBytes(column);
        }
        return bytes;
    }

    /** {@code S_index}: an index entry's key prefix, its columns and the handle. */
    double indexEntryBytes(IndexInfo index) {
        double bytes = KEY_BYTES + Long.BYTES;
        for (String name : index.columns()) {
            for (ColumnInfo column : table.table().publicColumns()) {
                if (column.name().equalsIgnoreCase(name)) {
                    bytes += columnBytes(column);
                }
            }
        }
        return bytes;
    }

    /** {@code S_col}: a column's average width as ANALYZE measured it. */
    double columnBytes(ColumnInfo column) {
        OptionalDouble measured = table.statistics().averageWidth(table.table().id(), column.id());
        return measured.isPresent() ? measured.getAsDouble() : UNMEASURED_COLUMN_BYTES;
    }

    /** {@code N_reg}: the regions the keys [start, end) span. */
    long regions(byte[] start, byte[] end) {
        return transaction.regionCount(start, end);
    }
}
