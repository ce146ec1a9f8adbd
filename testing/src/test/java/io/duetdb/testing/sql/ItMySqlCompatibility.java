package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * SQL that MySQL 8.0 accepts and DuetDB once refused, through Connector/J: GROUP BY with functional dependencies,
 * MySQL's type rules, truth values and MySQL's errors. Each expected answer is MySQL 8.0's, written down; where
 * MariaDB gives the same answer and a private MariaDB can run here, it is asked too, so the written answer is
 * checked against a real server.
 */
class ItMySqlCompatibility {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static String url;
    static PrivateMariaDbServer mariaDb;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        server = SqlTesting.startServer(cluster, config -> { });
        url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&allowPublicKeyRetrieval=true";
        mariaDb = PrivateMariaDbServer.startIfInstalled().orElse(null);
    }

    @AfterAll
    static void stop() {
        if (mariaDb != null) {
            mariaDb.close();
        }
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** Runs statements on DuetDB and, when it runs, on MariaDB. */
    private static void onBoth(String... statements) throws SQLException {
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
    private static void assertShared(String query, String... expected) throws SQLException {
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

    private static List<String> rows(PreparedStatement statement) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                    row.append(i > 1 ? "|" : "").append(result.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    @Test
    void groupByAcceptsColumnsFunctionallyDependentOnTheGroupedOnes() throws SQLException {
        onBoth("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10), w_ytd DECIMAL(12,2))",
                "CREATE TABLE history (h_w_id INT, h_amount DECIMAL(6,2))",
                "INSERT INTO warehouse VALUES (1, 'one', 30.00), (2, 'two', 10.00)",
                "INSERT INTO history VALUES (1, 10.00), (1, 20.00), (2, 4.00), (2, 5.00)");
        String consistency = "SELECT count(*) cn FROM (SELECT w_id, w_ytd, SUM(h_amount) sm FROM history, warehouse"
                + " WHERE h_w_id = w_id AND w_id = ? GROUP BY w_id) t1 WHERE w_ytd <> sm";
        for (String options : List.of("", "&useServerPrepStmts=true")) {
            try (Connection connection = DriverManager.getConnection(url + options);
                    PreparedStatement statement = connection.prepareStatement(consistency)) {
                statement.setInt(1, 1);
                assertThat(rows(statement)).as(options).containsExactly("0");
                statement.setInt(1, 2);
                assertThat(rows(statement)).as(options).containsExactly("1");
            }
        }
        assertShared("SELECT w_id, w_name, w_ytd, SUM(h_amount) FROM history JOIN warehouse ON h_w_id = w_id"
                + " GROUP BY h_w_id HAVING w_ytd > 15 ORDER BY w_name", "1|one|30.00|30.00");
        assertShared("SELECT w_name, COUNT(*) FROM warehouse WHERE w_id = 2", "two|1");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT h_w_id, ANY_VALUE(h_w_id * 10) FROM history GROUP BY h_w_id"
                    + " ORDER BY h_w_id")).containsExactly("1|10", "2|20");
            assertThat(SqlTesting.rows(statement, "SELECT ANY_VALUE(h_amount) FROM history ORDER BY 1"))
                    .containsExactly("4.00", "5.00", "10.00", "20.00");
            assertThatThrownBy(() -> statement.executeQuery("SELECT h_w_id, h_amount FROM history GROUP BY h_w_id"))
                    .isInstanceOf(SQLException.class)
                    .hasMessage("Expression #2 of SELECT list is not in GROUP BY clause and contains nonaggregated"
                            + " column 'test.history.h_amount' which is not functionally dependent on columns in GROUP"
                            + " BY clause; this is incompatible with sql_mode=only_full_group_by")
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1055))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
            assertThatThrownBy(() -> statement.executeQuery("SELECT w_name, COUNT(*) FROM warehouse"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1140));
            // Without ONLY_FULL_GROUP_BY any column is accepted, with some value of its group.
            statement.execute("SET sql_mode = 'STRICT_TRANS_TABLES'");
            assertThat(SqlTesting.rows(statement, "SELECT h_w_id, h_amount IN (10, 20, 4, 5) FROM history"
                    + " GROUP BY h_w_id ORDER BY h_w_id")).containsExactly("1|1", "2|1");
            assertThat(SqlTesting.rows(statement, "SELECT w_name, COUNT(*) FROM warehouse WHERE w_id > 1"))
                    .containsExactly("two|1");
        }
    }
}
