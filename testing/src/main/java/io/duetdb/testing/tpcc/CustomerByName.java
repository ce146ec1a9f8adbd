package io.duetdb.testing.tpcc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Payment's and Order-Status's choice among the customers of one last name (clauses 2.5.2.2 and 2.6.2.2): of the
 * rows sorted by C_FIRST, the one at position n / 2 rounded up.
 */
final class CustomerByName {
    private CustomerByName() {
    }

    /** Runs {@code select}, whose first column is C_ID, and returns the middle row's C_ID. */
    static int middle(PreparedStatement select, String what) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet result = select.executeQuery()) {
            while (result.next()) {
                ids.add(result.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw new TpccAnomaly(what + " missing", "no customer has the last name");
        }
        return ids.get((ids.size() - 1) / 2);
    }
}
