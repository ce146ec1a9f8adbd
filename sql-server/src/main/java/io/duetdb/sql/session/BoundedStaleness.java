package io.duetdb.sql.session;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;

/**
 * Reads that may be a little stale, at the newest timestamp the column learners serve without asking the region
 * leaders (their lowest resolved timestamp): TiDB's {@code tidb_bounded_staleness(oldest, newest)}, and DuetDB's
 * {@code duet_max_staleness}.
 */
final class BoundedStaleness {
    private BoundedStaleness() {
    }

    /**
     * TiDB's rule: the resolved timestamp when it lies between the bounds, else the bound it passed (a read below
     * the resolved timestamp waits for nothing; one above it waits for the learner as any read does).
     */
    static long between(long oldest, long newest, long resolved) {
        if (oldest > newest) {
            throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP,
                    "invalid as of timestamp: the bounds of tidb_bounded_staleness are in the wrong order");
        }
        return Math.min(newest, Math.max(oldest, resolved));
    }

    /**
     * The resolved timestamp if it is at most {@code maxStalenessMillis} older than {@code nowMillis}, else 0 (the
     * read takes a new timestamp).
     */
    static long within(long resolved, long nowMillis, long maxStalenessMillis) {
        if (resolved <= 0 || maxStalenessMillis <= 0) {
            return 0;
        }
        return nowMillis - Timestamp.fromPacked(resolved).physical() <= maxStalenessMillis ? resolved : 0;
    }
}
