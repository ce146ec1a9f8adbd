package io.duetdb.sql.exec;

import io.duetdb.sql.variables.TidbVariables;

/** The regions a coprocessor read has in flight at once: the session's tidb_distsql_scan_concurrency. */
final class ScanConcurrency {
    private ScanConcurrency() {
    }

    static int of(SessionFunctions session) {
        Object value = session == null ? null : session.systemVariable("", TidbVariables.DISTSQL_SCAN_CONCURRENCY);
        if (value == null) {
            return TidbVariables.DEFAULT_SCAN_CONCURRENCY;
        }
        try {
            return Math.max(1, Integer.parseInt(String.valueOf(value)));
        } catch (NumberFormatException e) {
            return TidbVariables.DEFAULT_SCAN_CONCURRENCY;
        }
    }
}
