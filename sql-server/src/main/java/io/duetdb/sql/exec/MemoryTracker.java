package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.util.List;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The memory one statement's operators hold, estimated from the rows they materialize, against the session's
 * {@code tidb_mem_quota_query}: over it the statement fails with 8175 (TiDB's error) and its rows are released,
 * so one query cannot take the server down. Row sizes are sampled, not measured: an estimate of the heap the
 * rows occupy, within a small factor.
 */
public final class MemoryTracker {
    private static final int SAMPLE_ROWS = 32;
    private static final long ROW_OVERHEAD = 32;

    private final long quota;
    private long used;

    /** A tracker that fails past {@code quota} bytes; zero or less means no limit. */
    public MemoryTracker(long quota) {
        this.quota = quota;
    }

    public static MemoryTracker unlimited() {
        return new MemoryTracker(0);
    }

    /** Accounts for rows an operator holds; answers their estimated bytes. */
    public long consume(List<Object[]> rows, String operator) {
        long bytes = estimate(rows);
        used += bytes;
        check(used, operator);
        return bytes;
    }

    /** Accounts for bytes an operator's state holds (negative: gives them back); fails when that passes the quota. */
    public void take(long bytes, String operator) {
        used = Math.max(0, used + bytes);
        if (bytes > 0) {
            check(used, operator);
        }
    }

    /** Checks that {@code extra} bytes an operator is still gathering fit in what is left of the quota. */
    public void checkExtra(long extra, String operator) {
        check(used + extra, operator);
    }

    /** The quota in bytes; zero or less means none. */
    public long quota() {
        return quota;
    }

    /** Gives back bytes accounted for rows no operator holds any more (an operator's inputs once it is done). */
    public void release(long bytes) {
        used = Math.max(0, used - bytes);
    }

    /** Checks rows an operator is still building (a join's output) against what is left of the quota. */
    public void checkGrowing(List<Object[]> rows, String operator) {
        check(used + estimate(rows), operator);
    }

    private void check(long total, String operator) {
        if (quota > 0 && total > quota) {
            throw new DuetException(ErrorCode.MEMORY_QUOTA_EXCEEDED, "Your query has been cancelled due to exceeding"
                    + " the allowed memory limit for a single SQL query (tidb_mem_quota_query = " + quota + " bytes; "
                    + operator + " brought the estimate to " + total + " bytes). Please try narrowing your query scope or"
                    + " increase the tidb_mem_quota_query limit and try again.");
        }
    }

    public long used() {
        return used;
    }

    static long estimate(List<Object[]> rows) {
        int count = rows.size();
        if (count == 0) {
            return 0;
        }
        int step = Math.max(1, count / SAMPLE_ROWS);
        long sampled = 0;
        int samples = 0;
        for (int i = 0; i < count; i += step) {
            sampled += rowBytes(rows.get(i));
            samples++;
        }
        return sampled * count / samples;
    }

    /** The estimated bytes of one row. */
    static long estimateRow(Object[] row) {
        return rowBytes(row);
    }

    private static long rowBytes(Object[] row) {
        long bytes = ROW_OVERHEAD + 4L * row.length;
        for (Object value : row) {
            bytes += valueBytes(value);
        }
        return bytes;
    }

    private static long valueBytes(Object value) {
        if (value == null || value instanceof Boolean) {
            return 0;
        }
        if (value instanceof String text) {
            return 48 + text.length();
        }
        if (value instanceof byte[] bytes) {
            return 16 + bytes.length;
        }
        if (value instanceof BigDecimal) {
            return 64;
        }
        if (value instanceof java.time.LocalDateTime) {
            return 72;
        }
        return 24;
    }
}
