package io.duetdb.testing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Query results as text, for assertions: each row's columns joined by '|' (NULL as "null"). */
public final class SqlRows {
    private SqlRows() {
    }

    public static List<String> of(Statement statement, String sql) throws SQLException {
        return of(statement.executeQuery(sql));
    }

    /** Reads every row of {@code result} and closes it. */
    public static List<String> of(ResultSet result) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (result) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? "|" : "").append(result.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
