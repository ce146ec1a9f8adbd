package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The costs of the access paths to one table, as the TiDB paper prices them (section 5.3, equations (1)–(5)):
 * bytes scanned times {@code scanFactor} plus seeks times {@code seekFactor}. A row scan seeks once per region
 * and reads whole tuples; an index scan seeks once per region of the index and reads its entries, then (the
 * double read) seeks each matching tuple by its handle. A column scan (equation (3)) reads only the columns used.
 */
public record ScanCostModel(double scanFactor, double seekFactor) {
    /** Session variables that set the factors. */
    public static final String SCAN_FACTOR_VARIABLE = "duet_opt_scan_factor";
    public static final String SEEK_FACTOR_VARIABLE = "duet_opt_seek_factor";
    /** What a read from column learners costs beyond its column scan: the wait for their resolved timestamp. */
    public static final String LEARNER_READ_COST_VARIABLE = "duet_opt_learner_read_cost";
    /** In bytes of scan: about what the row store scans in the 30-70 ms a learner read waits for its timestamp. */
    public static final double DEFAULT_LEARNER_READ_COST = 2_000_000;
    /** The session variables' defaults. */
    public static final ScanCostModel DEFAULT = new ScanCostModel(1, 1000);

    public ScanCostModel {
        if (!(scanFactor >= 0) || !(seekFactor >= 0)) {
            throw new IllegalArgumentException("cost factors must be non-negative: scan " + scanFactor
                    + ", seek " + seekFactor);
        }
    }

    /** One column a column scan reads: its average width in bytes and the regions holding it. */
    public record ColumnScan(double columnBytes, long regions) {
    }

    /** Equation (2): {@code S_tuple · N_tuple · f_scan + N_reg · f_seek}. */
    public double rowScan(double tupleBytes, double tuples, long regions) {
        return tupleBytes * tuples * scanFactor + regions * seekFactor;
    }

    /** Equation (3): the sum over the columns read of {@code S_col · N_tuple · f_scan + N_reg · f_seek}. */
    public double columnScan(List<ColumnScan> columns, double tuples) {
        requireNonNull(columns, "columns is null");
        double cost = 0;
        for (ColumnScan column : columns) {
            cost += column.columnBytes() * tuples * scanFactor + column.regions() * seekFactor;
        }
        return cost;
    }

    /** Equation (4): {@code S_index · N_tuple · f_scan + N_reg · f_seek + C_double_read}. */
    public double indexScan(double indexEntryBytes, double tuples, long regions, double doubleRead) {
        return indexEntryBytes * tuples * scanFactor + regions * seekFactor + doubleRead;
    }

    /** Equation (5) with the double read: {@code S_tuple · N_tuple · f_scan + N_tuple · f_seek}. */
    public double doubleRead(double tupleBytes, double tuples) {
        return tupleBytes * tuples * scanFactor + tuples * seekFactor;
    }
}
