package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** One connection's prepared statements by text, each prepared once and kept until the terminal closes. */
final class PreparedStatements implements AutoCloseable {
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private String last = "";

    PreparedStatements(Connection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    Connection connection() {
        return connection;
    }

    /** The text of the statement taken last: the one a transaction's error came from. */
    String last() {
        return last;
    }

    PreparedStatement get(String sql) throws SQLException {
        last = sql;
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /** The statement with parameters {@code values} bound in order. */
    PreparedStatement bind(String sql, Object... values) throws SQLException {
        PreparedStatement statement = get(sql);
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
        return statement;
    }

    @Override
    public void close() {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException e) {
                // the connection is going too
            }
        }
        statements.clear();
    }
}
