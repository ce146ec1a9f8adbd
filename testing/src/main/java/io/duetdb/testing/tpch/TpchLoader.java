package io.duetdb.testing.tpch;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;

/**
 * What an endpoint holds of the TPC-H tables, so that a benchmark can reuse a load of the same scale factor.
 * Loading itself is {@link io.duetdb.testing.reference.DataLoader}'s.
 */
public final class TpchLoader {
    private TpchLoader() {
    }

    /** Row counts of the eight tables on an endpoint; a missing table counts -1. */
    public static Map<TpchTable, Long> rowCounts(Connection connection) {
        Map<TpchTable, Long> counts = new EnumMap<>(TpchTable.class);
        for (TpchTable table : TpchTable.values()) {
            try (Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + table.sqlName())) {
                result.next();
                counts.put(table, result.getLong(1));
            } catch (SQLException e) {
                System.out.printf("SELECT COUNT(*) FROM %s failed: %s%n", table.sqlName(), e.getMessage());
                counts.put(table, -1L);
            }
        }
        return counts;
    }

    /** Whether the endpoint holds exactly the rows {@code data} generates (compared by count per table). */
    public static boolean holds(Connection connection, TpchData data) {
        Map<TpchTable, Long> counts = rowCounts(connection);
        for (TpchTable table : TpchTable.values()) {
            long expected = table == TpchTable.LINEITEM ? lineItems(data) : data.approximateRows(table);
            if (counts.get(table) != expected) {
                return false;
            }
        }
        return true;
    }

    private static long lineItems(TpchData data) {
        long[] count = {0};
        data.generate(TpchTable.LINEITEM, row -> count[0]++);
        return count[0];
    }
}
