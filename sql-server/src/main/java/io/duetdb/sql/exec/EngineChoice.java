package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;

/**
 * Which replicas read a scan of a table's records: the row store's leaders, or the column learners. When the session
 * (tidb_isolation_read_engines) or a READ_FROM_STORAGE hint leaves one engine, it reads. When both may, the cheaper
 * by the TiDB paper's equations (2) and (3) does: a row scan reads whole tuples, a column scan only the columns the
 * query uses, plus {@code duet_opt_learner_read_cost} for the wait until the learners have applied the read's
 * timestamp. Without statistics (the table never analyzed), or while a region of the range has no learner, the row
 * store reads, as it did before the table had replicas.
 */
final class EngineChoice {
    /** The engine chosen, and why when costs chose it (for EXPLAIN; empty otherwise). */
    record Choice(boolean fromLearners, String note) {
        static final Choice ROW_STORE = new Choice(false, "");
        static final Choice LEARNERS = new Choice(true, "");

        Choice {
            requireNonNull(note, "note is null");
        }
    }

    private EngineChoice() {
    }

    /**
     * The engine for a scan of {@code table}'s records [start, end) that reads {@code columns} and, by the estimate,
     * {@code records} records.
     */
    static Choice of(SessionFunctions session, TableInfo table, Transaction transaction, AccessPathEstimator estimator,
            OptionalDouble records, List<ColumnInfo> columns, byte[] start, byte[] end) {
        ReadEngines engines = ReadEngines.of(session, table);
        if (engines.learnersOnly()) {
            return Choice.LEARNERS;
        }
        if (mppEnforced(session, engines, table, transaction, start, end)) {
            return MPP_ENFORCED;
        }
        if (!engines.columnar() || !engines.rowStore() || table.columnarReplicas() == 0 || estimator == null
                || records.isEmpty() || !transaction.learnersCover(start, end)) {
            return Choice.ROW_STORE;
        }
        ScanCostModel model = estimator.model();
        double tuples = records.getAsDouble();
        long regions = estimator.regions(start, end);
        double rowCost = model.rowScan(estimator.tupleBytes(), tuples, regions);
        double columnCost = learnerCost(session, estimator, columns, tuples, regions);
        boolean columnsCheaper = columnCost < rowCost;
        String note = columnsCheaper
                ? String.format(Locale.ROOT, "columns: est. cost %.4g, cheaper than rows (%.4g)", columnCost, rowCost)
                : String.format(Locale.ROOT, "rows: est. cost %.4g, cheaper than columns (%.4g)", rowCost, columnCost);
        return new Choice(columnsCheaper, note);
    }

    /**
     * Learners, when a scan of all of {@code table}'s records in columns costs less than the index range (with its
     * double read, or covering) the row store's costs chose; null otherwise (then the index is read).
     */
    static Choice insteadOfIndex(SessionFunctions session, TableInfo table, Transaction transaction,
            AccessPathEstimator estimator, TableReader reader, List<ColumnInfo> columns, byte[] start, byte[] end) {
        ReadEngines engines = ReadEngines.of(session, table);
        if (mppEnforced(session, engines, table, transaction, start, end)) {
            return MPP_ENFORCED;
        }
        OptionalDouble indexCost = reader.indexRangeCost();
        if (!engines.columnar() || table.columnarReplicas() == 0 || estimator == null || estimator.rows().isEmpty()
                || indexCost.isEmpty() || !transaction.learnersCover(start, end)) {
            return null;
        }
        double columnCost = learnerCost(session, estimator, columns, estimator.rows().getAsLong(),
                estimator.regions(start, end));
        if (columnCost >= indexCost.getAsDouble()) {
            return null;
        }
        return new Choice(true, String.format(Locale.ROOT, "columns: est. cost %.4g, cheaper than index %s range"
                + " (%.4g)", columnCost, reader.rangeIndex().name(), indexCost.getAsDouble()));
    }

    /** Equation (3) over {@code columns}, plus the wait for the learners' resolved timestamp. */
    private static final Choice MPP_ENFORCED = new Choice(true, "columns: tidb_enforce_mpp");

    /** With {@code tidb_enforce_mpp}, a table the learners can serve is read from them, whatever the costs say. */
    private static boolean mppEnforced(SessionFunctions session, ReadEngines engines, TableInfo table,
            Transaction transaction, byte[] start, byte[] end) {
        return MppPlanner.enforced(session) && engines.columnar() && table.columnarReplicas() > 0
                && transaction.learnersCover(start, end);
    }

    private static double learnerCost(SessionFunctions session, AccessPathEstimator estimator, List<ColumnInfo> columns,
            double tuples, long regions) {
        List<ScanCostModel.ColumnScan> scans = new ArrayList<>();
        for (ColumnInfo column : columns) {
            scans.add(new ScanCostModel.ColumnScan(estimator.columnBytes(column), regions));
        }
        return estimator.model().columnScan(scans, tuples) + learnerReadCost(session);
    }

    private static double learnerReadCost(SessionFunctions session) {
        Object value = session.systemVariable("", ScanCostModel.LEARNER_READ_COST_VARIABLE);
        return value == null ? ScanCostModel.DEFAULT_LEARNER_READ_COST : Double.parseDouble(String.valueOf(value));
    }
}
