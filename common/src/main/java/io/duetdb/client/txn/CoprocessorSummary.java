package io.duetdb.client.txn;

/**
 * What the stores reported of a coprocessor read: the region answers counted, the rows their scans read, the rows
 * they returned after their own selections, aggregations and limits, and the time the stores spent.
 */
public record CoprocessorSummary(long regions, long scannedRows, long returnedRows, long storeNanos) {
    public static final CoprocessorSummary NONE = new CoprocessorSummary(0, 0, 0, 0);

    public CoprocessorSummary {
        if (regions < 0 || scannedRows < 0 || returnedRows < 0 || storeNanos < 0) {
            throw new IllegalArgumentException("summary counts must not be negative");
        }
    }

    public CoprocessorSummary plus(CoprocessorSummary other) {
        return new CoprocessorSummary(regions + other.regions, scannedRows + other.scannedRows,
                returnedRows + other.returnedRows, storeNanos + other.storeNanos);
    }
}
