package io.duetdb.testing.sql;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;

/**
 * Statements and answers shared by DuetDB and MySQL's relatives: each statement runs on DuetDB and, when a private
 * MariaDB runs here, on MariaDB too, so that an answer written down as MySQL's is checked against a real server.
 */
final class SharedAnswers {
    private final Supplier<String> duetUrl;
    private final PrivateMariaDbServer mariaDb;

    /** {@code mariaDb} may be null: then only DuetDB is asked. */
    SharedAnswers(Supplier<String> duetUrl, PrivateMariaDbServer mariaDb) {
        this.duetUrl = requireNonNull(duetUrl, "duetUrl is null");
        this.mariaDb = mariaDb;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(duetUrl.get());
    }

    /** Runs statements on DuetDB and, when it runs, on MariaDB. */
    void onBoth(String... statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
        if (mariaDb != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb.url());
                    Statement statement = connection.createStatement()) {
                for (String sql : statements) {
                    statement.execute(sql);
                }
            }
        }
    }

    /** Asserts MySQL's answer on DuetDB and, when it runs, on MariaDB (which shares it). */
    void assertShared(String query, String... expected) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, query)).as(query).containsExactly(expected);
        }
        if (mariaDb != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb.url());
                    Statement statement = connection.createStatement()) {
                assertThat(SqlTesting.rows(statement, query)).as("MariaDB: " + query).containsExactly(expected);
            }
        }
    }

    /** MySQL's error for {@code sql} on DuetDB; MariaDB, when it runs, must fail with the same code. */
    void assertError(String sql, int code, String sqlState, String message) throws SQLException {
        assertDuetError(sql, code, sqlState, message);
        if (mariaDb != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb.url());
                    Statement statement = connection.createStatement()) {
                assertThatThrownBy(() -> statement.execute(sql)).as("MariaDB: " + sql)
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(code));
            }
        }
    }

    /** MySQL 8.0's error for {@code sql}, asked of DuetDB only (MariaDB answers it otherwise). */
    void assertDuetError(String sql, int code, String sqlState, String message) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute(sql)).as(sql).isInstanceOfSatisfying(SQLException.class,
                    e -> {
                        assertThat(e.getErrorCode()).as(sql).isEqualTo(code);
                        assertThat(e.getSQLState()).as(sql).isEqualTo(sqlState);
                        assertThat(e.getMessage()).as(sql).isEqualTo(message);
                    });
        }
    }
}
