package io.duetdb.compute.scan;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * How many rows a scan puts in each batch: few at first, doubling up to the request's batch size, as TiKV's batch
 * executors grow theirs. A scan under a limit (ORDER BY the key LIMIT 1) then stops after a small batch instead of
 * reading a whole batch of the range for the one row kept; a long scan reaches full batches after a few.
 */
public final class ScanBatches {
    public static final int FIRST_ROWS = 32;

    private ScanBatches() {
    }

    public static int first(int batchRows) {
        return Math.max(1, Math.min(batchRows, FIRST_ROWS));
    }

    public static int next(int current, int batchRows) {
        return (int) Math.min(batchRows, 2L * current);
    }

    /**
     * Fails the scan when its thread was interrupted: the server is stopping (its executor was shut down) and the
     * storage is about to close under the scan.
     */
    public static void checkNotInterrupted(String server) {
        if (Thread.currentThread().isInterrupted()) {
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, server + " is stopping");
        }
    }
}
