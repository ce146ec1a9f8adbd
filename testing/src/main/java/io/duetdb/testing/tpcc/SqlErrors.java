package io.duetdb.testing.tpcc;

import java.sql.SQLException;
import java.util.Set;

/** How the driver treats a failed statement: by MySQL error code, as TPC-C drivers do. */
final class SqlErrors {
    /** Deadlock (1213), lock wait timeout (1205) and DuetDB's write conflict (9007): rolled back and retried. */
    private static final Set<Integer> RETRIED = Set.of(1205, 1213, 9007);

    private SqlErrors() {
    }

    static boolean retried(SQLException e) {
        return RETRIED.contains(e.getErrorCode()) || "40001".equals(e.getSQLState());
    }

    /** Whether the connection is gone (a communication failure), so that the terminal must reconnect. */
    static boolean connectionLost(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /** The key errors are counted under: the MySQL error code, or what the driver saw for its own anomalies. */
    static String key(SQLException e) {
        if (e instanceof TpccAnomaly) {
            return "anomaly: " + ((TpccAnomaly) e).kind();
        }
        if (e.getErrorCode() != 0) {
            return String.valueOf(e.getErrorCode());
        }
        return "SQLSTATE " + e.getSQLState();
    }
}
