package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * CREATE TEMPORARY TABLE through Connector/J as MySQL 8.0 has it: a table of one session, found by its name before
 * the table it hides, invisible to other sessions and to SHOW TABLES, read and written like any table (joins,
 * transactions, prepared statements), changed by ALTER, CREATE INDEX and TRUNCATE, and gone when the session ends;
 * those of a SQL server that stopped without ending its sessions are dropped by the servers that remain.
 */
class ItTemporaryTables {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            statement.execute("INSERT INTO t VALUES (1, 'permanent')");
            statement.execute("CREATE TABLE prices (id INT PRIMARY KEY, price INT)");
            statement.execute("INSERT INTO prices VALUES (1, 100), (2, 200), (3, 300)");
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true");
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.rows(statement, sql);
    }

    private static void assertError(Statement statement, String sql, int code, String message) {
        assertThatThrownBy(() -> statement.execute(sql)).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).as(sql).isEqualTo(code);
            assertThat(e.getMessage()).as(sql).isEqualTo(message);
        });
    }

    @Test
    void aTemporaryTableHidesThePermanentOneForItsSessionOnly() throws SQLException {
        try (Connection mine = connect(); Statement statement = mine.createStatement();
                Connection other = connect(); Statement otherStatement = other.createStatement()) {
            statement.execute("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, w INT, KEY (w))");
            statement.execute("INSERT INTO t VALUES (1, 10), (2, 20)");
            assertThat(rows(statement, "SELECT * FROM t ORDER BY id")).containsExactly("1|10", "2|20");
            assertThat(rows(statement, "SELECT COUNT(*) FROM test.t WHERE w > 15")).containsExactly("1");
            assertThat(rows(otherStatement, "SELECT * FROM t")).containsExactly("1|permanent");
            assertThat(rows(statement, "SHOW TABLES LIKE 't'")).containsExactly("t");
            assertThat(rows(statement, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_NAME = 't'"))
                    .containsExactly("1");
            assertThat(rows(statement, "SHOW CREATE TABLE t").get(0))
                    .startsWith("t|CREATE TEMPORARY TABLE `t` (").contains("`w` int DEFAULT NULL", "KEY `w` (`w`)");
            assertThat(rows(statement, "DESCRIBE t")).containsExactly("id|int|NO|PRI|null|", "w|int|YES|MUL|null|");
            assertThat(String.join(",", rows(statement, "SHOW DATABASES"))).doesNotContain("__duet");
            statement.execute("DROP TEMPORARY TABLE t");
            assertThat(rows(statement, "SELECT * FROM t")).containsExactly("1|permanent");
        }
    }

    @Test
    void temporaryTablesAreReadAndWrittenLikeAnyTable() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM t")) {
                assertThat(SqlTesting.rows(count.executeQuery())).containsExactly("1");
                statement.execute("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, price INT)");
                statement.execute("INSERT INTO t SELECT id, price * 2 FROM prices WHERE id < 3");
                // A statement prepared before the temporary table was made reads it now, as MySQL's does.
                assertThat(SqlTesting.rows(count.executeQuery())).containsExactly("2");
            }
            try (PreparedStatement lookup = connection.prepareStatement("SELECT price FROM t WHERE id = ?")) {
                lookup.setInt(1, 2);
                assertThat(SqlTesting.rows(lookup.executeQuery())).containsExactly("400");
            }
            statement.execute("UPDATE t SET price = price + 1 WHERE id = 1");
            assertThat(rows(statement, "SELECT p.id, p.price, t.price FROM prices p JOIN t ON p.id = t.id ORDER BY p.id"))
                    .containsExactly("1|100|201", "2|200|400");
            connection.setAutoCommit(false);
            statement.execute("INSERT INTO t VALUES (9, 9)");
            statement.execute("DELETE FROM t WHERE id = 1");
            connection.rollback();
            connection.setAutoCommit(true);
            assertThat(rows(statement, "SELECT id FROM t ORDER BY id")).containsExactly("1", "2");
            statement.execute("DROP TABLE t");
            assertThat(rows(statement, "SELECT * FROM t")).containsExactly("1|permanent");
        }
    }

    @Test
    void ddlOnTemporaryTablesAndItsErrors() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TEMPORARY TABLE staged AS SELECT id, price FROM prices WHERE price > 100");
            assertThat(rows(statement, "SELECT id, price FROM staged ORDER BY id")).containsExactly("2|200", "3|300");
            statement.execute("CREATE TEMPORARY TABLE copy LIKE prices");
            assertThat(rows(statement, "SHOW CREATE TABLE copy").get(0)).contains("CREATE TEMPORARY TABLE `copy`",
                    "PRIMARY KEY (`id`)");
            statement.execute("ALTER TABLE staged ADD COLUMN note VARCHAR(10) DEFAULT 'new'");
            statement.execute("CREATE INDEX by_price ON staged (price)");
            assertThat(rows(statement, "SELECT id, note FROM staged WHERE price = 300")).containsExactly("3|new");
            statement.execute("TRUNCATE TABLE staged");
            assertThat(rows(statement, "SELECT COUNT(*) FROM staged")).containsExactly("0");
            assertThat(rows(statement, "SELECT COUNT(*) FROM prices")).containsExactly("3");
            statement.execute("CREATE TEMPORARY TABLE IF NOT EXISTS staged (id INT)");
            assertThat(rows(statement, "SHOW WARNINGS")).containsExactly("Note|1050|Table 'staged' already exists");
            assertError(statement, "CREATE TEMPORARY TABLE staged (id INT)", 1050, "Table 'staged' already exists");
            assertError(statement, "CREATE TEMPORARY TABLE child (id INT, p INT, FOREIGN KEY (p) REFERENCES prices (id))",
                    1215, "Cannot add foreign key constraint");
            assertError(statement, "RENAME TABLE staged TO kept", 1235,
                    "This version of DuetDB doesn't yet support 'RENAME TABLE of a temporary table'");
            assertError(statement, "DROP TEMPORARY TABLE prices", 1051, "Unknown table 'test.prices'");
            assertThat(rows(statement, "SELECT COUNT(*) FROM prices")).containsExactly("3");
            statement.execute("DROP TEMPORARY TABLE staged, copy");
            assertError(statement, "SELECT * FROM staged", 1146, "Table 'test.staged' doesn't exist");
        }
    }

    @Test
    void aSessionsTemporaryTablesGoWhenItEnds() throws Exception {
        String holder;
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TEMPORARY TABLE scratch (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO scratch VALUES (1), (2)");
            holder = SqlTesting.executedRows(statement, "ADMIN SHOW DDL JOBS 20").stream().filter(row -> row.contains("|scratch|create table|"))
                    .map(row -> row.split("\\|")[1]).findFirst().orElseThrow();
            assertThat(holder).startsWith("__duet_temporary_");
            assertThat(rows(statement, "SELECT COUNT(*) FROM `" + holder + "`.scratch")).containsExactly("2");
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            LocalCluster.await("the ended session's temporary tables are dropped", Duration.ofSeconds(30),
                    () -> errorOf(statement, "SHOW TABLES FROM `" + holder + "`") == 1049);
            assertError(statement, "SELECT * FROM scratch", 1146, "Table 'test.scratch' doesn't exist");
        }
    }

    @Test
    void temporaryTablesOfAServerThatIsGoneAreDropped() throws Exception {
        String orphan = "__duet_temporary_0badc0de_7_1";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE `" + orphan + "`");
            statement.execute("CREATE TABLE `" + orphan + "`.left_behind (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO `" + orphan + "`.left_behind VALUES (1)");
            try (SqlServer second = SqlTesting.startServer(sqlCluster.cluster(),
                    config -> config.setDroppedTableCheckInterval(Duration.ofMillis(200)))) {
                LocalCluster.await("the orphaned temporary tables are dropped", Duration.ofSeconds(30),
                        () -> errorOf(statement, "SHOW TABLES FROM `" + orphan + "`") == 1049);
            }
        }
    }

    private static int errorOf(Statement statement, String sql) {
        try {
            statement.execute(sql);
            return 0;
        } catch (SQLException e) {
            return e.getErrorCode();
        }
    }
}
