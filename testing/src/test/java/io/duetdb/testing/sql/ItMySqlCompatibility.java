package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SQL that MySQL 8.0 accepts and DuetDB once refused, through Connector/J: GROUP BY with functional dependencies,
 * MySQL's type rules, truth values and MySQL's errors. Each expected answer is MySQL 8.0's, written down; where
 * MariaDB gives the same answer and a private MariaDB can run here, it is asked too, so the written answer is
 * checked against a real server.
 */
class ItMySqlCompatibility {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    @RegisterExtension
    static final MariaDbAnswers mariaDbAnswers = new MariaDbAnswers(sqlCluster);

    /** The private MariaDB, or null when it is not installed here. */
    private static PrivateMariaDbServer mariaDb() {
        return mariaDbAnswers.server();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    private static SharedAnswers answers() {
        return mariaDbAnswers.answers();
    }

    private static void onBoth(String... statements) throws SQLException {
        answers().onBoth(statements);
    }

    private static void assertShared(String query, String... expected) throws SQLException {
        answers().assertShared(query, expected);
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

    /**
     * Found by ItRandomQueries (seed 5): a date compared with a string that reads as no date compares with the zero
     * date, as MySQL does ({@code d <> ''} keeps every dated row; it was NULL, and {@code d <=> 'ab'} matched the
     * NULL dates); LPAD and RPAD give NULL for NULL (IS NULL of them folded to FALSE).
     */
    @Test
    void datesAgainstUnreadableStringsAndPaddingOfNull() throws SQLException {
        onBoth("CREATE TABLE dated (id INT PRIMARY KEY, d DATE, t DATETIME, s VARCHAR(10), KEY (d), KEY (s))",
                "INSERT INTO dated VALUES (1, NULL, NULL, NULL), (2, '2024-01-05', '2024-01-05 10:00:00', ''),"
                        + " (3, '2024-02-01', NULL, 'abc'), (4, NULL, '2023-12-31 23:59:59', ' a')");
        assertShared("SELECT id, d <=> 'ab', d > 'ab', d = 'ab', d <> '', 'x' < d, '' >= d, t <> 'never' FROM dated"
                + " ORDER BY id", "1|0|null|null|null|null|null|null", "2|0|1|0|1|1|0|1", "3|0|1|0|1|1|0|null",
                "4|0|null|null|null|null|null|1");
        assertShared("SELECT id FROM dated WHERE d <> '' ORDER BY id", "2", "3");
        assertShared("SELECT id FROM dated WHERE d <=> 'ab' OR t = '' ORDER BY id");
        assertShared("SELECT id FROM dated WHERE NOT (d < 'nope') ORDER BY id", "2", "3");
        assertShared("SELECT id, LPAD(s, 3, '*'), RPAD(s, 2, '-') FROM dated ORDER BY id", "1|null|null", "2|***|--",
                "3|abc|ab", "4|* a| a");
        assertShared("SELECT id FROM dated WHERE LPAD(s, 3, '*') IS NULL OR RPAD(s, 3, '*') IS NULL ORDER BY id", "1");
        assertShared("SELECT id FROM dated WHERE NOT (LPAD(s, 3, '*') IS NULL) ORDER BY id", "2", "3", "4");
        assertShared("SELECT LPAD('a', -1, '*') IS NULL", "1");
        // A string that is not a constant is read row by row the same way, and compares as a date-time.
        onBoth("CREATE TABLE due (id INT PRIMARY KEY, d DATE, s VARCHAR(30))",
                "INSERT INTO due VALUES (1, NULL, NULL), (2, '2024-01-05', ''), (3, '2024-02-01', '2024-01-05'),"
                        + " (4, '2024-03-01', '2024-03-01 00:00:01'), (5, '2024-03-02', NULL)");
        assertShared("SELECT id, d >= s, d <> s, d = CONCAT(s, ''), s < d, d <=> s, d >= LOWER('X%') FROM due ORDER BY id",
                "1|null|null|null|null|1|null", "2|1|1|0|1|0|1", "3|1|1|0|1|0|1", "4|0|1|0|0|0|1",
                "5|null|null|null|null|0|1");
        assertShared("SELECT id FROM due WHERE d >= s ORDER BY id", "2", "3");
        // A date with a date-time constant compares as date-times (seed 99: '2024-01-31 10:20:30' <> LAST_DAY(d)).
        assertShared("SELECT id, d = '2024-01-05 10:00:00', d < '2024-01-05 00:00:01', '2024-02-01 00:00:00' = d,"
                + " LAST_DAY(d) <> '2024-01-31 10:20:30' FROM due ORDER BY id", "1|null|null|null|null", "2|0|1|0|1",
                "3|0|0|1|1", "4|0|0|0|1", "5|0|0|0|1");
        assertShared("SELECT id FROM due WHERE d = '2024-01-05 10:00:00' OR d > '2024-03-01 12:00:00' ORDER BY id", "5");
    }

    /** Found by ItRandomQueries (seed 31337): an IN list over a CASE whose condition is an IN list failed with 1105. */
    @Test
    void inListsNestedInInListsEvaluate() throws SQLException {
        onBoth("CREATE TABLE nested_in (id INT PRIMARY KEY, s0 VARCHAR(10), s1 VARCHAR(10), KEY (s0))",
                "INSERT INTO nested_in VALUES (1, 'a', 'b'), (2, 'x%', NULL), (3, NULL, 'q'), (4, 'B', ''), (5, 'c', NULL)");
        String condition = "CASE WHEN s0 NOT IN ('x%', 'B') THEN COALESCE(s1, 'ab') ELSE UPPER(s1) END IN ('a', '', 'ab')";
        assertShared("SELECT id, (" + condition + ") IS TRUE FROM nested_in ORDER BY id", "1|0", "2|0", "3|0", "4|1", "5|1");
        assertShared("SELECT id FROM nested_in WHERE " + condition + " ORDER BY id", "4", "5");
        assertShared("SELECT id FROM nested_in WHERE NOT (" + condition + ") ORDER BY id", "1", "3");
    }

    @Test
    void showWarningsListsNotesAndTheLastError() throws SQLException {
        List<String> expected = List.of(
                "Note|1050|Table 'noted' already exists",
                "Note|1051|Unknown table 'test.missing_one'",
                "Note|1007|Can't create database 'test'; database exists",
                "Note|1008|Can't drop database 'missing_db'; database doesn't exist",
                "Error|1146|Table 'test.missing_two' doesn't exist",
                "errors: Error|1146|Table 'test.missing_two' doesn't exist",
                "error count: 1",
                "with sql_notes off: ");
        assertThat(diagnostics(connect())).isEqualTo(expected);
        if (mariaDb() != null) {
            assertThat(diagnostics(DriverManager.getConnection(mariaDb().url()))).as("MariaDB").isEqualTo(expected);
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP VIEW IF EXISTS missing_view");
            assertThat(SqlTesting.rows(statement, "SHOW WARNINGS"))
                    .containsExactly("Note|1051|Unknown table 'test.missing_view'");
            statement.execute("CREATE TEMPORARY TABLE noted_temporary (id INT)");
            assertThatThrownBy(() -> statement.execute("CREATE VIEW over_temporary AS SELECT * FROM noted_temporary"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1352);
                        assertThat(e.getMessage()).isEqualTo("View's SELECT refers to a temporary table 'noted_temporary'");
                    });
        }
        // A failed COM_STMT_PREPARE leaves its error too (Connector/J told not to fall back to client-side prepares).
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()
                + "&useServerPrepStmts=true&emulateUnsupportedPstmts=false");
                Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> connection.prepareStatement("SELECT nosuch FROM missing_three WHERE id = ?"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
            assertThat(SqlTesting.rows(statement, "SHOW WARNINGS"))
                    .containsExactly("Error|1146|Table 'test.missing_three' doesn't exist");
        }
    }

    /** What SHOW WARNINGS, SHOW ERRORS and SHOW COUNT(*) ERRORS say after statements that leave notes or fail. */
    private static List<String> diagnostics(Connection connection) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (connection; Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS noted");
            statement.execute("CREATE TABLE noted (id INT PRIMARY KEY)");
            for (String sql : List.of("CREATE TABLE IF NOT EXISTS noted (id INT)", "DROP TABLE IF EXISTS missing_one",
                    "CREATE DATABASE IF NOT EXISTS test", "DROP DATABASE IF EXISTS missing_db")) {
                statement.execute(sql);
                seen.addAll(SqlTesting.rows(statement, "SHOW WARNINGS"));
            }
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM missing_two")).isInstanceOf(SQLException.class);
            seen.addAll(SqlTesting.rows(statement, "SHOW WARNINGS"));
            seen.add("errors: " + String.join(",", SqlTesting.rows(statement, "SHOW ERRORS")));
            seen.add("error count: " + String.join(",", SqlTesting.rows(statement, "SHOW COUNT(*) ERRORS")));
            statement.execute("SET sql_notes = 0");
            statement.execute("DROP TABLE IF EXISTS missing_one");
            seen.add("with sql_notes off: " + String.join(",", SqlTesting.rows(statement, "SHOW WARNINGS")));
            statement.execute("SET sql_notes = 1");
            statement.execute("DROP TABLE noted");
        }
        return seen;
    }

    @Test
    void modifiersAndOptionsThatChangeNothingAreAccepted() throws Exception {
        onBoth("CREATE TABLE tuned (a INT NOT NULL, c VARCHAR(9), d INT, UNIQUE KEY u USING BTREE (c(3)),"
                        + " KEY k (d) USING HASH KEY_BLOCK_SIZE = 4 COMMENT 'x') KEY_BLOCK_SIZE=8 STATS_PERSISTENT=0",
                "INSERT LOW_PRIORITY INTO tuned VALUES (1, 'a', 1)", "INSERT HIGH_PRIORITY IGNORE INTO tuned VALUES (2, 'b', 2)",
                "REPLACE LOW_PRIORITY INTO tuned VALUES (3, 'c', 3)", "UPDATE LOW_PRIORITY tuned SET d = 7 WHERE a = 1",
                "DELETE LOW_PRIORITY QUICK IGNORE FROM tuned WHERE a = 2 LIMIT 1");
        assertShared("SELECT a, c, d FROM tuned ORDER BY a", "1|a|7", "3|c|3");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // MySQL's NDB storage hints (MariaDB has none of them).
            statement.execute("CREATE TABLE hinted (a INT COLUMN_FORMAT FIXED STORAGE DISK, b INT STORAGE MEMORY,"
                    + " KEY kb (b) INVISIBLE)");
            statement.execute("INSERT INTO hinted VALUES (1, 2)");
            assertThat(SqlTesting.rows(statement, "SELECT a + b FROM hinted")).containsExactly("3");
            for (String create : List.of("CREATE PROCEDURE p() BEGIN SELECT 1; END",
                    "CREATE DEFINER=`root`@`%` TRIGGER t BEFORE INSERT ON hinted FOR EACH ROW SET NEW.a = 1",
                    "CREATE FUNCTION f() RETURNS INT RETURN 1", "CREATE EVENT e ON SCHEDULE EVERY 1 HOUR DO SELECT 1")) {
                assertThatThrownBy(() -> statement.execute(create)).as(create).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("errorCode", 1235).hasMessageContaining("doesn't yet support");
            }
        }
    }

    @Test
    void columnsAreModifiedChangedRenamedAndGivenDefaults() throws SQLException {
        onBoth("CREATE TABLE altered (id INT PRIMARY KEY, a INT, b VARCHAR(10), c INT, KEY kb (b))",
                "INSERT INTO altered VALUES (1, 10, 'x', NULL), (2, 20, 'yy', 5)",
                "ALTER TABLE altered MODIFY a BIGINT NOT NULL DEFAULT 7, CHANGE b title VARCHAR(20) AFTER id",
                "ALTER TABLE altered RENAME COLUMN c TO d, RENAME INDEX kb TO k_title",
                "ALTER TABLE altered ALTER COLUMN d SET DEFAULT 3",
                "INSERT INTO altered (id, title) VALUES (3, 'zzz')", "ALTER TABLE altered ALTER d DROP DEFAULT",
                "ALTER TABLE altered MODIFY COLUMN a TINYINT NOT NULL", "ALTER TABLE altered RENAME COLUMN id TO ident");
        assertShared("SELECT * FROM altered ORDER BY ident", "1|x|10|null", "2|yy|20|5", "3|zzz|7|3");
        assertShared("SELECT title FROM altered WHERE ident = 2", "yy");
        assertShared("SELECT title FROM altered WHERE title = 'zzz'", "zzz");
        assertShared("SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS"
                + " WHERE TABLE_NAME = 'altered' ORDER BY ORDINAL_POSITION",
                "ident|int|NO|null", "title|varchar|YES|20", "a|tinyint|NO|null", "d|int|YES|null");
        assertShared("SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_NAME = 'altered'"
                + " ORDER BY SEQ_IN_INDEX, NON_UNIQUE", "PRIMARY|ident", "k_title|title");
        // A narrower type is checked against every row, and a failed check leaves the column as it was.
        assertError("ALTER TABLE altered MODIFY title VARCHAR(2)", 1265, "01000",
                "Data truncated for column 'title' at row 3");
        // Connector/J reports an out-of-range value as a data truncation (SQLSTATE 22001).
        assertError("INSERT INTO altered (ident, a) VALUES (4, 200)", 1264, "22001",
                "Data truncation: Out of range value for column 'a' at row 1");
        onBoth("INSERT INTO altered (ident, title, a) VALUES (4, 'four', 4)");
        assertShared("SELECT title FROM altered WHERE ident = 4", "four");
        // Several columns at once, and a column with its unique key (Django's ADD COLUMN ... UNIQUE).
        onBoth("ALTER TABLE altered ADD COLUMN (x INT, y INT DEFAULT 2), ADD z INT UNIQUE",
                "UPDATE altered SET z = ident");
        assertShared("SELECT ident, x, y, z FROM altered WHERE ident < 3 ORDER BY ident", "1|null|2|1", "2|null|2|2");
        assertError("UPDATE altered SET z = 1 WHERE ident = 2", 1062, "23000",
                "Duplicate entry '1' for key 'altered.z'");
        // Rows written before ADD COLUMN keep the default it was added with.
        onBoth("CREATE TABLE origins (id INT PRIMARY KEY)", "INSERT INTO origins VALUES (1)",
                "ALTER TABLE origins ADD COLUMN e INT DEFAULT 4", "ALTER TABLE origins ALTER e SET DEFAULT 9",
                "ALTER TABLE origins MODIFY e BIGINT NOT NULL DEFAULT 8", "INSERT INTO origins (id) VALUES (2)");
        assertShared("SELECT id, e FROM origins ORDER BY id", "1|4", "2|8");
        // Another stored type is a new column on an empty table.
        onBoth("CREATE TABLE retyped (a INT, b VARCHAR(5))", "ALTER TABLE retyped MODIFY a VARCHAR(10), MODIFY b INT UNSIGNED",
                "INSERT INTO retyped VALUES ('ten', 7)");
        assertShared("SELECT a, b + 1 FROM retyped", "ten|8");
        // On a table with rows, every row is rewritten into the new type, as MySQL converts an INSERT's values:
        // DECIMAL scale, fewer fractional seconds, text to numbers and back, a rename and a new place at once.
        onBoth("CREATE TABLE rewritten (id INT PRIMARY KEY, a INT, b VARCHAR(10), c DECIMAL(10,2), d DATETIME(3))",
                "INSERT INTO rewritten VALUES (1, 10, '12', 1.25, '2026-01-01 10:00:00.467'), (2, -3, '7', 2.5, NULL),"
                        + " (3, NULL, NULL, NULL, '2026-02-02 00:00:00.499')",
                "ALTER TABLE rewritten MODIFY a VARCHAR(20), MODIFY c DECIMAL(12,4), MODIFY d DATETIME",
                "ALTER TABLE rewritten CHANGE b bn INT UNSIGNED AFTER d",
                "INSERT INTO rewritten VALUES (4, 'four', 4.5, '2026-03-03 03:03:03', 44)");
        assertShared("SELECT id, a, c, CAST(d AS CHAR), bn + 1 FROM rewritten ORDER BY id",
                "1|10|1.2500|2026-01-01 10:00:00|13", "2|-3|2.5000|null|8", "3|null|null|2026-02-02 00:00:00|null",
                "4|four|4.5000|2026-03-03 03:03:03|45");
        assertShared("SELECT COLUMN_NAME, DATA_TYPE, NUMERIC_SCALE, CHARACTER_MAXIMUM_LENGTH, DATETIME_PRECISION"
                + " FROM information_schema.COLUMNS WHERE TABLE_NAME = 'rewritten' ORDER BY ORDINAL_POSITION",
                "id|int|0|null|null", "a|varchar|null|20|null", "c|decimal|4|null|null", "d|datetime|null|null|0",
                "bn|int|0|null|null");
        // A row that does not convert fails the ALTER and leaves the column as it was (MySQL 8.0's errors; MariaDB
        // answers 1292 and 1265).
        answers().assertDuetError("ALTER TABLE rewritten MODIFY a INT", 1366, "HY000",
                "Incorrect integer value: 'four' for column 'a' at row 1");
        answers().assertDuetError("ALTER TABLE rewritten MODIFY bn BIGINT NOT NULL", 1138, "22001",
                "Data truncation: Invalid use of NULL value");
        assertShared("SELECT a, bn FROM rewritten WHERE id = 4", "four|44");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE nulls (id INT PRIMARY KEY, v INT)");
            statement.execute("INSERT INTO nulls VALUES (1, NULL)");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE nulls MODIFY v INT NOT NULL"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1138));
            statement.execute("INSERT INTO nulls VALUES (2, NULL)");
            statement.execute("ALTER TABLE nulls ADD INDEX kw (id, v)");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE nulls MODIFY v VARCHAR(5)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1235);
                        assertThat(e.getMessage()).contains("from int to varchar(5)").contains("its indexes");
                    });
            statement.execute("ALTER TABLE nulls DROP INDEX kw");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE nulls RENAME INDEX missing TO other"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1176));
            // MySQL 8.0's invisible indexes are accepted (with a warning that the index is still used).
            statement.execute("ALTER TABLE nulls ADD INDEX kv (v)");
            statement.execute("ALTER TABLE nulls ALTER INDEX kv INVISIBLE");
            SQLWarning warning = statement.getWarnings();
            assertThat(warning == null ? null : warning.getMessage()).contains("index 'kv'");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE nulls ALTER INDEX missing VISIBLE"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1176));
            assertThatThrownBy(() -> statement.execute("ALTER TABLE nulls CHANGE v id INT"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1060));
            assertThat(SqlTesting.rows(statement, "SELECT count(*) FROM nulls WHERE v IS NULL")).containsExactly("2");
        }
    }

    @Test
    void updatesAndDeletesJoinTablesAndReadSubQueries() throws SQLException {
        onBoth("CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(10), balance INT)",
                "CREATE TABLE payments (pid INT PRIMARY KEY, account INT, amount INT)",
                "CREATE TABLE flagged (name VARCHAR(10) NOT NULL, UNIQUE KEY (name))",
                "INSERT INTO accounts VALUES (1, 'ann', 100), (2, 'bob', 50), (3, 'cy', 0)",
                "INSERT INTO payments VALUES (10, 1, 5), (11, 1, 7), (12, 2, 20), (13, 9, 1)",
                "INSERT INTO flagged VALUES ('cy')");
        String joinedUpdate = "UPDATE accounts a JOIN payments p ON p.account = a.id"
                + " SET a.balance = a.balance - p.amount, p.amount = 0 WHERE p.amount > 6";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate(joinedUpdate)).isEqualTo(4);
        }
        if (mariaDb() != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb().url());
                    Statement statement = connection.createStatement()) {
                assertThat(statement.executeUpdate(joinedUpdate)).as("MariaDB").isEqualTo(4);
            }
        }
        onBoth("UPDATE accounts SET balance = balance + 1 WHERE id IN (SELECT account FROM payments WHERE amount = 0)",
                "DELETE p FROM payments p LEFT JOIN accounts a ON a.id = p.account WHERE a.id IS NULL",
                "DELETE FROM accounts, flagged USING accounts JOIN flagged ON flagged.name = accounts.owner",
                "DELETE FROM payments WHERE account = (SELECT id FROM accounts WHERE owner = 'bob')",
                "UPDATE payments SET amount = (SELECT max(balance) FROM accounts) ORDER BY pid DESC LIMIT 1");
        assertShared("SELECT * FROM accounts ORDER BY id", "1|ann|94", "2|bob|31");
        assertShared("SELECT * FROM payments ORDER BY pid", "10|1|5", "11|1|94");
        assertShared("SELECT count(*) FROM flagged", "0");
        try (Connection connection = connect()) {
            // MySQL 8.0 refuses ORDER BY and LIMIT with several tables (MariaDB allows them).
            try (Statement statement = connection.createStatement()) {
                assertThatThrownBy(() -> statement.execute("UPDATE accounts a JOIN payments p ON p.account = a.id"
                        + " SET a.balance = 0 ORDER BY a.id")).isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo(1221);
                            assertThat(e.getMessage()).isEqualTo("Incorrect usage of UPDATE and ORDER BY");
                        });
            }
            // Prepared, the sub-query's placeholder is bound before the statement runs.
            try (PreparedStatement update = connection.prepareStatement("UPDATE accounts SET balance = 0"
                    + " WHERE id IN (SELECT account FROM payments WHERE amount = ?)")) {
                update.setInt(1, 5);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (Statement statement = connection.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT id, balance FROM accounts ORDER BY id"))
                        .containsExactly("1|0", "2|31");
                statement.execute("CREATE TABLE keyless (v INT)");
                assertThatThrownBy(() -> statement.execute("DELETE keyless FROM keyless JOIN accounts ON v = id"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1235));
            }
        }
    }

    @Test
    void tablesAreCreatedFromQueries() throws SQLException {
        onBoth("CREATE TABLE sources (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL, price DECIMAL(6,2))",
                "INSERT INTO sources VALUES (1, 'a', 1.50), (2, 'b', NULL), (3, 'c', 3.25)",
                "CREATE TABLE copies AS SELECT id, name, price * 2 AS doubled FROM sources WHERE id < 3",
                "CREATE TABLE keyed (id INT PRIMARY KEY, note VARCHAR(5) DEFAULT 'n') SELECT id, name FROM sources",
                "CREATE TABLE labelled SELECT count(*), max(price) AS top FROM sources");
        assertShared("SELECT * FROM copies ORDER BY id", "1|a|3.00", "2|b|null");
        assertShared("SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS"
                + " WHERE TABLE_NAME = 'copies' ORDER BY ORDINAL_POSITION", "id|int|NO", "name|varchar|NO",
                "doubled|decimal|YES");
        // Columns only in the CREATE part come first (MySQL orders them so).
        assertShared("SELECT * FROM keyed ORDER BY id", "n|1|a", "n|2|b", "n|3|c");
        assertShared("SELECT * FROM labelled", "3|3.25");
        assertShared("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'labelled'"
                + " ORDER BY ORDINAL_POSITION", "count(*)", "top");
        // A table whose rows cannot all be written is not left behind.
        assertError("CREATE TABLE duplicated (id INT PRIMARY KEY) SELECT 1 AS id UNION ALL SELECT 1", 1062, "23000",
                "Duplicate entry '1' for key 'duplicated.PRIMARY'");
        assertShared("SELECT count(*) FROM information_schema.TABLES WHERE TABLE_NAME = 'duplicated'", "0");
    }

    /** MySQL 8.0.19's row alias, which MariaDB lacks: the answers of MySQL's documented examples. */
    @Test
    void insertsReadTheirRowThroughARowAlias() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE upserted (id INT PRIMARY KEY, n INT, m INT)");
            statement.execute("INSERT INTO upserted VALUES (1, 1, 1)");
            assertThat(statement.executeUpdate("INSERT INTO upserted VALUES (1, 5, 7), (2, 2, 2) AS new"
                    + " ON DUPLICATE KEY UPDATE n = upserted.n + new.n, m = new.m")).isEqualTo(3);
            statement.execute("INSERT INTO upserted (id, n) VALUES (2, 10) AS fresh (i, x)"
                    + " ON DUPLICATE KEY UPDATE n = x + fresh.i");
            statement.execute("INSERT INTO upserted SET id = 3, n = 3 AS r ON DUPLICATE KEY UPDATE n = r.n + 1");
            statement.execute("INSERT INTO upserted SET id = 3, n = 30 AS r ON DUPLICATE KEY UPDATE n = r.n + 1");
            assertThat(SqlTesting.rows(statement, "SELECT * FROM upserted ORDER BY id"))
                    .containsExactly("1|6|7", "2|12|2", "3|31|null");
            assertThatThrownBy(() -> statement.execute("INSERT INTO upserted VALUES (1, 1, 1) AS new (a, b, c)"
                    + " ON DUPLICATE KEY UPDATE n = new.z")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1054));
        }
    }

    @Test
    void encodingAndWeekFunctionsAnswerAsMySqlDoes() throws SQLException {
        // The examples of MySQL's manual.
        assertShared("SELECT WEEK('2008-02-20'), WEEK('2008-02-20', 1), WEEK('2008-12-31', 1), YEARWEEK('1987-01-01'),"
                + " WEEK('2000-01-01', 0), WEEK('2000-01-01', 2), TO_DAYS('2007-10-07'), FROM_DAYS(730669),"
                + " WEEKDAY('2008-02-03 22:23:00')", "7|8|53|198652|0|52|733321|2000-07-03|6");
        assertShared("SELECT INET_ATON('10.0.5.9'), INET_NTOA(167773449), INET_ATON('127.1'), INET_ATON('1.2.3.256'),"
                + " CRC32('MySQL'), TO_BASE64('abc'), CAST(FROM_BASE64('YWJj') AS CHAR), CAST(UNHEX('4D7953514C') AS CHAR),"
                + " UNHEX('GG'), BIN(12), OCT(12)",
                "167773449|10.0.5.9|2130706433|null|3259397556|YWJj|abc|MySQL|null|1100|14");
        assertShared("SELECT FIND_IN_SET('b', 'a,b,c,d'), FIND_IN_SET('z', 'a,b'), FIELD('Bb', 'Aa', 'Bb', 'Cc'),"
                + " FIELD(NULL, 'a'), FIELD('c', NULL, 'c'), ELT(1, 'Aa', 'Bb'), ELT(3, 'Aa', 'Bb')",
                "2|0|2|0|2|Aa|null");
        // Every week mode around the turns of years whose first days fall on different weekdays, as MariaDB counts.
        StringBuilder dates = new StringBuilder();
        for (String year : List.of("2019", "2020", "2021", "2022", "2024", "2026")) {
            for (String day : List.of("-01-01", "-01-02", "-01-03", "-01-04", "-01-05", "-01-06", "-01-07", "-01-08",
                    "-12-28", "-12-29", "-12-30", "-12-31")) {
                dates.append(dates.length() == 0 ? "SELECT " : " UNION ALL SELECT ").append("DATE '").append(year)
                        .append(day).append("' AS d");
            }
        }
        String weeks = "SELECT d, WEEK(d), WEEK(d, 1), WEEK(d, 2), WEEK(d, 3), WEEK(d, 4), WEEK(d, 5), WEEK(d, 6),"
                + " WEEK(d, 7), YEARWEEK(d), YEARWEEK(d, 1), YEARWEEK(d, 3), YEARWEEK(d, 6) FROM (" + dates + ") ds ORDER BY d";
        List<String> duet;
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            duet = SqlTesting.rows(statement, weeks);
        }
        assertThat(duet).hasSize(72).contains("2021-01-01|0|0|52|53|0|0|53|52|202052|202053|202053|202053");
        if (mariaDb() != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb().url());
                    Statement statement = connection.createStatement()) {
                assertThat(duet).as("MariaDB").isEqualTo(SqlTesting.rows(statement, weeks));
            }
        }
    }

    @Test
    void dateAndTimeFunctionsReadTextAndNumbersAsMySqlDoes() throws SQLException {
        assertShared("SELECT YEAR('2020-02-10'), MONTH('2020-02-10'), DAYOFMONTH('2020-02-10'), QUARTER('2020-02-10'),"
                + " DAYOFWEEK('2020-02-10'), DAYOFYEAR('2020-02-10'), DAYNAME('2020-02-10'), MONTHNAME('2020-02-10'),"
                + " LAST_DAY('2020-02-10')", "2020|2|10|1|2|41|Monday|February|2020-02-29");
        assertShared("SELECT HOUR('10:11:12'), MINUTE('2020-02-10 10:11:12'), SECOND(102030), YEAR(20200210),"
                + " HOUR('838:00:00'), MICROSECOND('10:11:12.5'), EXTRACT(YEAR FROM '2020-02-10'),"
                + " EXTRACT(HOUR FROM '10:11:12')", "10|11|30|2020|838|500000|2020|10");
        assertShared("SELECT TIMESTAMPDIFF(DAY, '2020-01-01', '2020-02-10'),"
                + " TIMESTAMPDIFF(MONTH, '2020-01-31', '2020-03-01 10:00:00'),"
                + " TIMESTAMPDIFF(SECOND, DATE '2020-01-01', TIMESTAMP '2020-01-01 00:01:00'),"
                + " TIMESTAMPDIFF(YEAR, '2020-13-01', '2021-01-01')", "40|1|60|null");
        assertShared("SELECT TIME_TO_SEC('10:00:00'), TIME_TO_SEC('-01:00:01'), SEC_TO_TIME(3661), MAKEDATE(2020, 40),"
                + " MAKETIME(12, 15, 30), TIMESTAMP('2020-02-10'), TIMESTAMP('2020-02-10', '10:00:00')",
                "36000|-3601|01:01:01|2020-02-09|12:15:30|2020-02-10 00:00:00|2020-02-10 10:00:00");
        assertShared("SELECT ADDTIME('10:00:00', '01:00:00'), ADDTIME('2007-12-31 23:59:59.999999', '1 1:1:1.000002'),"
                + " SUBTIME('10:00:00', '01:30:00'), TIMEDIFF('10:00:00', '09:00:00'),"
                + " TIMEDIFF('2020-01-02 00:00:00', '2020-01-01 12:00:00')",
                "11:00:00|2008-01-02 01:01:01.000001|08:30:00|01:00:00|12:00:00");
        assertShared("SELECT CONVERT_TZ('2020-01-01 00:00:00', '+00:00', '+01:00'), PERIOD_ADD(202001, 14),"
                + " PERIOD_DIFF(202003, 201912), TO_SECONDS('2020-02-10'), TIME_FORMAT('100:11:12', '%H %k %i %s'),"
                + " TIME('2020-02-10 10:11:12')", "2020-01-01 01:00:00|202103|3|63748512000|100 100 11 12|10:11:12");
        assertShared("SELECT CAST(20200210 AS DATETIME), CAST(20200210 AS DATE), CAST(102030 AS TIME),"
                + " DATE_ADD('2020-01-31', INTERVAL 1 MONTH), WEEK('2020-02-10'), YEARWEEK('2020-02-10', 1),"
                + " WEEKDAY('2020-02-10')", "2020-02-10 00:00:00|2020-02-10|10:20:30|2020-02-29|6|202007|0");
        onBoth("CREATE TABLE events (id INT PRIMARY KEY, at VARCHAR(20), happened DATETIME, took TIME)",
                "INSERT INTO events VALUES (1, '2024-03-01 08:30:00', '2024-03-01 08:30:00', '01:30:00'),"
                        + " (2, '2023-12-31', '2023-12-31 23:59:59', '25:00:00')");
        assertShared("SELECT id, YEAR(at), HOUR(at), YEAR(happened), HOUR(took), TIME_TO_SEC(took),"
                + " TIMESTAMPDIFF(HOUR, at, happened) FROM events ORDER BY id", "1|2024|8|2024|1|5400|0",
                "2|2023|0|2023|25|90000|23");
        // The zone database's names, which MariaDB loads only on request: MySQL 8.0's answers, asked of DuetDB.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT CONVERT_TZ('2020-07-01 12:00:00', 'UTC', 'Europe/Oslo'),"
                    + " CONVERT_TZ('2020-07-01 12:00:00', 'UTC', 'Nowhere/Else'), LOCALTIME IS NOT NULL,"
                    + " CURRENT_TIME IS NOT NULL, UTC_TIMESTAMP() IS NOT NULL"))
                    .containsExactly("2020-07-01 14:00:00|null|1|1|1");
        }
    }

    @Test
    void userVariablesTakeValuesInsideExpressionsAndHexLiteralsAreNumbers() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT @v := 5, @v, @a := @b := 3")).containsExactly("5|5|3");
            assertThat(SqlTesting.rows(statement, "SELECT @a + @b")).containsExactly("6");
            statement.execute("SET @n := 10");
            assertThat(SqlTesting.rows(statement, "SELECT @n := @n + 1, @n := @n * 2, @x := 'text', CONCAT(@x, '!')"))
                    .containsExactly("11|22|text|text!");
            assertThat(SqlTesting.rows(statement, "SELECT @n")).containsExactly("22");
            assertThatThrownBy(() -> statement.executeQuery("SELECT 1 := 2")).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1064));
        }
        assertShared("SELECT b'101' + 0, 0x41 + 0, 0b101 + 1, HEX(0x4142), 0xff * 2, BENCHMARK(100, MD5('x'))",
                "5|65|6|4142|510|0");
        // MySQL 8.0 reads X'41' in arithmetic as the number 65 (MariaDB as the string 'A', so 0).
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT X'41' + 0")).containsExactly("65");
        }
        onBoth("CREATE TABLE ranked (id INT PRIMARY KEY, score INT)", "INSERT INTO ranked VALUES (1, 30), (2, 10), (3, 20)");
        String runningTotal = "SELECT id, @total := @total + score FROM ranked ORDER BY id";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET @total := 0");
            assertThat(SqlTesting.rows(statement, runningTotal)).containsExactly("1|30", "2|40", "3|60");
        }
        if (mariaDb() != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb().url());
                    Statement statement = connection.createStatement()) {
                statement.execute("SET @total := 0");
                assertThat(SqlTesting.rows(statement, runningTotal)).as("MariaDB").containsExactly("1|30", "2|40", "3|60");
            }
        }
    }

    @Test
    void bitColumnsHoldNumbersThatClientsReadAsBytes() throws SQLException {
        onBoth("CREATE TABLE bits (id INT PRIMARY KEY, f BIT(1) NOT NULL DEFAULT 0, m BIT(12) DEFAULT b'1111')",
                "INSERT INTO bits (id, f) VALUES (1, b'1')", "INSERT INTO bits VALUES (2, 0, b'000100000001'), (3, TRUE, 7)");
        assertShared("SELECT id, f + 0, m + 0, HEX(m), BIN(m) FROM bits ORDER BY id", "1|1|15|F|1111", "2|0|257|101|100000001",
                "3|1|7|7|111");
        assertShared("SELECT id FROM bits WHERE f = 1 AND m > 10 ORDER BY id", "1");
        assertShared("SELECT COLUMN_TYPE, NUMERIC_PRECISION FROM information_schema.COLUMNS WHERE TABLE_NAME = 'bits'"
                + " AND COLUMN_NAME <> 'id' ORDER BY COLUMN_NAME", "bit(1)|1", "bit(12)|12");
        assertError("INSERT INTO bits VALUES (4, 2, 0)", 1406, "22001",
                "Data truncation: Data too long for column 'f' at row 1");
        assertError("CREATE TABLE wide (b BIT(65))", 1439, "42000", "Display width out of range for column 'b' (max = 64)");
        for (String url : mariaDb() == null ? List.of(sqlCluster.url()) : List.of(sqlCluster.url(), mariaDb().url())) {
            try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT f, m FROM bits WHERE id = 2")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getMetaData().getColumnTypeName(1)).as(url).isEqualTo("BIT");
                assertThat(result.getObject(1)).as(url).isEqualTo(Boolean.FALSE);
                assertThat(result.getLong(2)).as(url).isEqualTo(257L);
                assertThat(result.getBytes(2)).as(url).containsExactly(1, 1);
            }
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE bits").get(0))
                    .contains("`f` bit(1) NOT NULL DEFAULT b'0'", "`m` bit(12) DEFAULT b'1111'");
        }
    }

    @Test
    void enumAndSetColumnsKeepOnlyTheirValues() throws SQLException {
        onBoth("CREATE TABLE shirts (id INT PRIMARY KEY, size ENUM('small', 'Medium', 'large') NOT NULL,"
                + " tags SET('a', 'b', 'c'))",
                "INSERT INTO shirts VALUES (1, 'medium', 'c,a,c'), (2, 3, 5), (3, 'small', ''), (4, 'large', NULL)",
                "INSERT INTO shirts (id) VALUES (5)");
        assertShared("SELECT id, size, tags, LENGTH(tags) FROM shirts ORDER BY id", "1|Medium|a,c|3",
                "2|large|a,c|3", "3|small||0", "4|large|null|null", "5|small|null|null");
        assertShared("SELECT id FROM shirts WHERE size = 'MEDIUM' OR FIND_IN_SET('c', tags) ORDER BY id", "1", "2");
        assertShared("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_MAXIMUM_LENGTH FROM"
                + " information_schema.COLUMNS WHERE TABLE_NAME = 'shirts' AND COLUMN_NAME <> 'id' ORDER BY COLUMN_NAME",
                "size|enum|enum('small','Medium','large')|6", "tags|set|set('a','b','c')|5");
        assertError("INSERT INTO shirts VALUES (6, 'huge', NULL)", 1265, "01000",
                "Data truncated for column 'size' at row 1");
        assertError("INSERT INTO shirts VALUES (6, 'small', 'a,z')", 1265, "01000",
                "Data truncated for column 'tags' at row 1");
        assertError("INSERT INTO shirts VALUES (6, 0, NULL)", 1265, "01000", "Data truncated for column 'size' at row 1");
        assertError("CREATE TABLE twice (a ENUM('x', 'X'))", 1291, "HY000",
                "Column 'a' has duplicated value 'X' in ENUM");
        onBoth("ALTER TABLE shirts MODIFY size ENUM('small', 'Medium', 'large', 'huge') NOT NULL",
                "INSERT INTO shirts VALUES (6, 'huge', 'b')");
        assertShared("SELECT size, tags FROM shirts WHERE id = 6", "huge|b");
        // ORDER BY sorts an ENUM by its values' places and a SET by its members' bits; MAX compares the text.
        assertShared("SELECT id FROM shirts ORDER BY size, id", "3", "5", "1", "2", "4", "6");
        assertShared("SELECT s.id FROM (SELECT id, size FROM shirts WHERE id > 1) s ORDER BY s.size DESC, s.id LIMIT 2",
                "6", "2");
        assertShared("SELECT id FROM shirts ORDER BY tags, id", "4", "5", "3", "6", "1", "2");
        assertShared("SELECT MAX(size) FROM shirts", "small");
        // In a numeric context an ENUM is its value's place and a SET its members' bits.
        // (DuetDB types size + 0 as DOUBLE, MySQL as BIGINT: the values agree.)
        assertShared("SELECT id, CAST(size AS UNSIGNED), CAST(tags AS SIGNED), CAST(size + 0 AS SIGNED),"
                + " CAST(size * 2 AS SIGNED) FROM shirts ORDER BY id",
                "1|2|5|2|4", "2|3|5|3|6", "3|1|0|1|2", "4|3|null|3|6", "5|1|null|1|2", "6|4|2|4|8");
        assertShared("SELECT id FROM shirts WHERE size = 3 OR tags = 2 ORDER BY id", "2", "4", "6");
        assertShared("SELECT id FROM shirts WHERE size * 10 = 20 OR tags + 0 = 5 ORDER BY id", "1", "2");
        assertShared("SELECT id FROM shirts WHERE size > 2 AND size < 4 ORDER BY id", "2", "4");
        assertShared("SELECT a.id, b.id FROM shirts a JOIN shirts b ON a.size + 0 = b.id WHERE a.id < 4 ORDER BY a.id",
                "1|2", "2|3", "3|1");
        assertError("ALTER TABLE shirts MODIFY size ENUM('small', 'large', 'huge') NOT NULL", 1265, "01000",
                "Data truncated for column 'size' at row 1");
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT size, tags FROM shirts WHERE id = 1")) {
            // MySQL sends ENUM and SET as strings (254) flagged ENUM or SET; Connector/J names both CHAR.
            assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("CHAR");
            assertThat(result.getMetaData().getColumnTypeName(2)).isEqualTo("CHAR");
            assertThat(result.getMetaData().getPrecision(1)).isEqualTo(6);
        }
    }

    @Test
    void jsonColumnsKeepDocumentsThatJsonFunctionsRead() throws SQLException {
        onBoth("CREATE TABLE docs (id INT PRIMARY KEY, doc JSON)", "INSERT INTO docs VALUES (1, '{\"name\": \"ann\","
                + " \"tags\": [\"a\", \"b\"], \"age\": 31}'), (2, '[1, 2, [3]]'), (3, NULL)");
        assertShared("SELECT id, JSON_TYPE(doc), JSON_LENGTH(doc), JSON_DEPTH(doc), JSON_VALID(doc) FROM docs ORDER BY id",
                "1|OBJECT|3|3|1", "2|ARRAY|3|3|1", "3|null|null|null|null");
        assertShared("SELECT id FROM docs WHERE JSON_CONTAINS(doc, '\"b\"', '$.tags') ORDER BY id", "1");
        assertShared("SELECT JSON_UNQUOTE(JSON_EXTRACT(doc, '$.name')), JSON_EXTRACT(doc, '$.age'),"
                + " JSON_CONTAINS_PATH(doc, 'all', '$.name', '$.city') FROM docs WHERE id = 1", "ann|31|0");
        // MySQL 8.0's own answers: MariaDB keeps JSON as the text written and has no -> operators.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT doc FROM docs ORDER BY id")).containsExactly(
                    "{\"age\": 31, \"name\": \"ann\", \"tags\": [\"a\", \"b\"]}", "[1, 2, [3]]", "null");
            assertThat(SqlTesting.rows(statement, "SELECT id, doc->'$.name', doc->>'$.name', doc->'$.tags[1]' FROM docs"
                    + " WHERE doc->'$.age' > 30 AND doc->'$.name' = 'ann'")).containsExactly("1|\"ann\"|ann|\"b\"");
            statement.execute("UPDATE docs SET doc = JSON_SET(doc, '$.age', 32, '$.city', 'Oslo') WHERE id = 1");
            statement.execute("INSERT INTO docs SELECT 4, JSON_OBJECT('n', JSON_ARRAY(1, 2), 'ok', TRUE)");
            assertThat(SqlTesting.rows(statement, "SELECT doc FROM docs WHERE id IN (1, 4) ORDER BY id")).containsExactly(
                    "{\"age\": 32, \"city\": \"Oslo\", \"name\": \"ann\", \"tags\": [\"a\", \"b\"]}",
                    "{\"n\": [1, 2], \"ok\": true}");
            try (ResultSet result = statement.executeQuery("SELECT doc, doc->'$.n', doc->>'$.n' FROM docs WHERE id = 4")) {
                assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("JSON");
                assertThat(result.getMetaData().getColumnTypeName(2)).isEqualTo("JSON");
                assertThat(result.getMetaData().getColumnTypeName(3)).isNotEqualTo("JSON");
            }
            assertThat(SqlTesting.rows(statement, "SELECT DATA_TYPE, COLUMN_TYPE FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'docs' AND COLUMN_NAME = 'doc'")).containsExactly("json|json");
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE docs").get(0)).contains("`doc` json");
            assertThatThrownBy(() -> statement.execute("INSERT INTO docs VALUES (5, '{\"a\": }')"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(3140);
                        // 22032; Connector/J reports every class 22 state as a data truncation (22001, "Data truncation: ").
                        assertThat(e.getSQLState()).startsWith("22");
                        assertThat(e.getMessage()).endsWith("Invalid JSON text: \"Invalid value.\" at position 6 in value"
                                + " for column 'doc'.");
                    });
            assertThatThrownBy(() -> statement.execute("INSERT INTO docs VALUES (5, 7)")).isInstanceOfSatisfying(
                    SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3140));
            assertThatThrownBy(() -> statement.execute("CREATE INDEX by_doc ON docs (doc)")).isInstanceOfSatisfying(
                    SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3152));
            assertThatThrownBy(() -> statement.execute("CREATE TABLE docs2 (id INT PRIMARY KEY, doc JSON DEFAULT '{}')"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1101));
            assertThat(SqlTesting.rows(statement, "SELECT JSON_ARRAYAGG(id), JSON_OBJECTAGG(id, doc->'$.name')"
                    + " FROM docs WHERE id < 4")).containsExactly("[1, 2, 3]|{\"1\": \"ann\", \"2\": null, \"3\": null}");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM docs")).containsExactly("4");
            // MySQL 8.0's JSON_VALUE (MariaDB's has no RETURNING or ON EMPTY / ON ERROR) and MEMBER OF.
            assertThat(SqlTesting.rows(statement, "SELECT JSON_VALUE(doc, '$.name'), JSON_VALUE(doc, '$.age'"
                    + " RETURNING SIGNED) + 1, JSON_VALUE(doc, '$.tags'), JSON_VALUE(doc, '$.tags' DEFAULT 'many' ON"
                    + " ERROR), JSON_VALUE(doc, '$.zip' DEFAULT 'none' ON EMPTY) FROM docs WHERE id = 1"))
                    .containsExactly("ann|33|null|many|none");
            assertThatThrownBy(() -> statement.execute("SELECT JSON_VALUE(doc, '$.zip' ERROR ON EMPTY) FROM docs"
                    + " WHERE id = 1")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(3966));
            assertThat(SqlTesting.rows(statement, "SELECT id FROM docs WHERE 'b' MEMBER OF (doc->'$.tags')"
                    + " OR 2 MEMBER OF (doc) ORDER BY id")).containsExactly("1", "2");
            assertThat(SqlTesting.rows(statement, "SELECT 5 MEMBER OF ('[1, 2]'), '1' MEMBER OF ('[1]'),"
                    + " CAST('[3]' AS JSON) MEMBER OF ('[1, [3]]')")).containsExactly("0|0|1");
            // MySQL 8.0 sorts JSON values by type (JSON null, numbers, strings, objects, arrays, booleans), then by
            // value within a type: numbers as numbers, not as their text; MariaDB sorts the text.
            statement.execute("CREATE TABLE json_order (id INT PRIMARY KEY, v JSON)");
            statement.execute("INSERT INTO json_order VALUES (1, '10'), (2, '9.5'), (3, '\"10\"'), (4, '\"9\"'),"
                    + " (5, 'true'), (6, 'null'), (7, '[1]'), (8, '{\"a\": 1}'), (9, NULL), (10, '-3'), (11, '2e1'),"
                    + " (12, '[0, 5]'), (13, 'false')");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM json_order ORDER BY v, id")).containsExactly(
                    "9", "6", "10", "2", "1", "11", "3", "4", "8", "12", "7", "13", "5");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM json_order ORDER BY v DESC LIMIT 3"))
                    .containsExactly("5", "13", "7");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM json_order WHERE JSON_TYPE(v) IN ('INTEGER',"
                    + " 'DOUBLE') ORDER BY JSON_ARRAY(v) DESC")).containsExactly("11", "1", "2", "10");
            // Grouping compares as JSON too: 10 and 10.00 are one value, and so are objects with equal members.
            statement.execute("INSERT INTO json_order VALUES (14, '1.0'), (15, '10.00'), (16, '{\"a\": 1.0}')");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*), MIN(id) FROM json_order GROUP BY v ORDER BY v"))
                    .containsExactly("1|9", "1|6", "1|10", "1|14", "1|2", "2|1", "1|11", "1|3", "1|4", "2|8", "1|12",
                            "1|7", "1|13", "1|5");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(DISTINCT v), COUNT(*) FROM json_order"))
                    .containsExactly("13|16");
        }
    }

    @Test
    void theMysqlSchemaShowsTheAccounts() throws SQLException {
        onBoth("CREATE USER 'auditor'@'%' IDENTIFIED BY 'secret'", "GRANT SELECT, PROCESS ON *.* TO 'auditor'@'%'",
                "GRANT INSERT, UPDATE ON shop.* TO 'auditor'@'%'");
        assertShared("SELECT User, Host, Select_priv, Insert_priv, Process_priv, Grant_priv, plugin, authentication_string"
                + " FROM mysql.user WHERE User = 'auditor'",
                "auditor|%|Y|N|Y|N|mysql_native_password|*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
        assertShared("SELECT Host, Db, User, Select_priv, Insert_priv, Update_priv FROM mysql.db WHERE User = 'auditor'",
                "%|shop|auditor|N|Y|Y");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SHOW DATABASES")).contains("mysql");
            statement.execute("USE mysql");
            assertThat(SqlTesting.rows(statement, "SHOW TABLES")).contains("user", "db", "tables_priv");
            assertThat(SqlTesting.rows(statement, "SELECT User FROM user WHERE User = 'auditor'")).containsExactly("auditor");
        }
    }

    @Test
    void rowCountAndFoundRowsDescribeThePreviousStatement() throws Exception {
        onBoth("CREATE TABLE counted (a INT)");
        List<String> duet;
        try (Connection connection = connect()) {
            duet = countsAfterStatements(connection);
        }
        assertThat(duet).containsExactly("3", "-1|3", "2", "0", "11", "3", "3", "1");
        if (mariaDb() != null) {
            try (Connection connection = DriverManager.getConnection(mariaDb().url())) {
                assertThat(countsAfterStatements(connection)).as("MariaDB").isEqualTo(duet);
            }
        }
    }

    private static List<String> countsAfterStatements(Connection connection) throws SQLException {
        List<String> counts = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO counted VALUES (1), (2), (3)");
            counts.addAll(SqlTesting.rows(statement, "SELECT ROW_COUNT()"));
            SqlTesting.rows(statement, "SELECT a FROM counted WHERE a > 0");
            counts.addAll(SqlTesting.rows(statement, "SELECT ROW_COUNT(), FOUND_ROWS()"));
            statement.execute("UPDATE counted SET a = a + 10 WHERE a < 3");
            counts.addAll(SqlTesting.rows(statement, "SELECT ROW_COUNT()"));
            statement.execute("DELETE FROM counted WHERE a = 99");
            counts.addAll(SqlTesting.rows(statement, "SELECT ROW_COUNT()"));
            // SQL_CALC_FOUND_ROWS: FOUND_ROWS() counts the rows before the LIMIT.
            counts.addAll(SqlTesting.rows(statement, "SELECT SQL_CALC_FOUND_ROWS a FROM counted ORDER BY a LIMIT 1, 1"));
            counts.addAll(SqlTesting.rows(statement, "SELECT FOUND_ROWS()"));
            counts.addAll(SqlTesting.rows(statement, "SELECT SQL_NO_CACHE SQL_CALC_FOUND_ROWS a FROM counted LIMIT 0"));
            counts.addAll(SqlTesting.rows(statement, "SELECT FOUND_ROWS()"));
            SqlTesting.rows(statement, "SELECT a FROM counted LIMIT 1");
            counts.addAll(SqlTesting.rows(statement, "SELECT FOUND_ROWS()"));
        }
        return counts;
    }

    @Test
    void regularExpressionsAndDigests() throws Exception {
        onBoth("CREATE TABLE fruit (name VARCHAR(10))", "INSERT INTO fruit VALUES ('apple'), ('banana'), ('cherry')");
        assertShared("SELECT name FROM fruit WHERE name REGEXP 'an|ch' ORDER BY name", "banana", "cherry");
        assertShared("SELECT name FROM fruit WHERE name NOT RLIKE '^(an|ch)' ORDER BY name", "apple", "banana");
        assertShared("SELECT 'abc' REGEXP '^a', NULL REGEXP 'a', REGEXP_REPLACE('a1b22', '[0-9]+', '#'),"
                + " REGEXP_SUBSTR('abc def', '[d-f]+'), REGEXP_INSTR('dog cat', 'cat')", "1|null|a#b#|def|5");
        assertShared("SELECT SHA2('abc', 256), SHA2('abc', 7)",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad|null");
        // MySQL 8.0's forms MariaDB lacks: REGEXP_LIKE, positions, occurrences and match types.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT REGEXP_LIKE('Banana', '^b'), REGEXP_LIKE('Banana', '^b', 'i'),"
                    + " REGEXP_INSTR('dog cat dog', 'dog', 1, 2), REGEXP_SUBSTR('a b c', '[a-z]', 1, 3),"
                    + " REGEXP_REPLACE('abcbdb', 'b', 'x', 1, 2)")).containsExactly("0|1|9|c|abcxdb");
            assertThatThrownBy(() -> statement.executeQuery("SELECT REGEXP_LIKE('a', '(')"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 3688);
        }
    }

    @Test
    void setOperationsAndRecursiveCommonTableExpressions() throws Exception {
        onBoth("CREATE TABLE set_a (x INT, y VARCHAR(5))", "CREATE TABLE set_b (x INT, y VARCHAR(5))",
                "INSERT INTO set_a VALUES (1, 'a'), (1, 'a'), (2, 'b'), (NULL, 'n'), (3, 'c')",
                "INSERT INTO set_b VALUES (1, 'a'), (NULL, 'n'), (4, 'd')",
                "CREATE TABLE staff (id INT PRIMARY KEY, boss INT, name VARCHAR(10))",
                "INSERT INTO staff VALUES (1, NULL, 'ceo'), (2, 1, 'vp'), (3, 2, 'dev'), (4, 2, 'ops'), (5, 3, 'intern')");
        assertShared("SELECT x, y FROM set_a EXCEPT SELECT x, y FROM set_b ORDER BY x", "2|b", "3|c");
        assertShared("SELECT x, y FROM set_a EXCEPT ALL SELECT x, y FROM set_b ORDER BY x", "1|a", "2|b", "3|c");
        assertShared("SELECT x FROM set_a INTERSECT SELECT x FROM set_b ORDER BY x", "null", "1");
        assertShared("SELECT x FROM set_a INTERSECT ALL SELECT x FROM set_a WHERE x = 1 ORDER BY x", "1", "1");
        // INTERSECT binds tighter than EXCEPT: nothing is taken away here.
        assertShared("SELECT y FROM set_a EXCEPT SELECT y FROM set_b INTERSECT SELECT 'c' ORDER BY y", "a", "b", "c",
                "n");
        assertShared("WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r",
                "15");
        assertShared("WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT (n * 2) % 7 FROM r) SELECT n FROM r ORDER BY n",
                "1", "2", "4");
        assertShared("WITH RECURSIVE chain AS (SELECT id, name, 0 AS depth FROM staff WHERE boss IS NULL"
                + " UNION ALL SELECT s.id, s.name, c.depth + 1 FROM staff s JOIN chain c ON s.boss = c.id)"
                + " SELECT name, depth FROM chain ORDER BY depth, id", "ceo|0", "vp|1", "dev|2", "ops|2", "intern|3");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT x FROM set_a INTERSECT ALL SELECT x FROM set_b"))
                    .first().asString().startsWith("Intersect (all)|");
            // MySQL's limit on recursion (MariaDB's variable and error differ).
            assertThatThrownBy(() -> statement.executeQuery(
                    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("errorCode", 3636)
                    .hasMessageContaining("after 1001 iterations");
            statement.execute("SET SESSION cte_max_recursion_depth = 2000");
            assertThat(SqlTesting.rows(statement, "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r"
                    + " WHERE n < 1500) SELECT count(*), max(n) FROM r")).containsExactly("1500|1500");
        }
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
            try (Connection connection = DriverManager.getConnection(sqlCluster.url() + options);
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

    @Test
    void typesAreUnifiedAndComparedAsMySqlDoes() throws SQLException {
        onBoth("CREATE TABLE mixed (k INT PRIMARY KEY, c VARCHAR(10), d DECIMAL(10,2), ts DATETIME)",
                "INSERT INTO mixed (k, c, d, ts) VALUES (1,'a',1.50,'2026-01-01 10:00:00'), (2,'b',NULL,NOW())",
                "INSERT INTO mixed VALUES (3, '3', 2.25, '2026-03-01 00:00:00'), (4, '4abc', 0, '2026-04-01 12:30:00')");
        assertShared("SELECT k, c, d FROM mixed WHERE k IN (1, '2', 3.5) ORDER BY k", "1|a|1.50", "2|b|null");
        assertShared("SELECT k FROM mixed WHERE c IN (3, 'a') ORDER BY k", "1", "3");
        assertShared("SELECT k FROM mixed WHERE c = 4", "4");
        assertShared("SELECT k FROM mixed WHERE k = '3'", "3");
        assertShared("SELECT k FROM mixed WHERE k IN (SELECT c FROM mixed) ORDER BY k", "3", "4");
        assertShared("SELECT k FROM mixed WHERE ts > '2026-02-01' AND ts < '2026-05-01' ORDER BY k", "3", "4");
        assertShared("SELECT k FROM mixed WHERE k = 1 UNION SELECT c FROM mixed WHERE k = 2", "1", "b");
        assertShared("SELECT 1 UNION SELECT 2.5", "1.0", "2.5");
        assertShared("SELECT DATE(ts) FROM mixed WHERE k = 3 UNION SELECT '2026-01-02 10:00:00'", "2026-03-01",
                "2026-01-02 10:00:00");
        assertShared("SELECT IFNULL(d, 'none'), COALESCE(d, k), IF(k > 2, c, k), CASE WHEN k < 3 THEN k ELSE d END"
                + " FROM mixed ORDER BY k", "1.50|1.50|1|1.00", "none|2.00|2|2.00", "2.25|2.25|3|2.25",
                "0.00|0.00|4abc|0.00");
        assertShared("SELECT CAST(c AS SIGNED), CONVERT(c, UNSIGNED), CAST(k AS CHAR), CONVERT(d, SIGNED),"
                + " CAST(-k AS UNSIGNED) FROM mixed ORDER BY k", "0|0|1|2|18446744073709551615", "0|0|2|null|18446744073709551614",
                "3|3|3|2|18446744073709551613", "4|4|4|0|18446744073709551612");
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT CAST('12' AS UNSIGNED), CONVERT('12', SIGNED)")) {
            assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("BIGINT UNSIGNED");
            assertThat(result.getMetaData().getColumnTypeName(2)).isEqualTo("BIGINT");
            assertThat(result.next()).isTrue();
            assertThat(result.getString(1) + "|" + result.getLong(2)).isEqualTo("12|12");
        }
        // Prepared with placeholders, the same conversions.
        try (Connection connection = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true");
                PreparedStatement statement = connection.prepareStatement("SELECT k FROM mixed WHERE c = ? OR k = ?"
                        + " ORDER BY k")) {
            statement.setString(1, "a");
            statement.setString(2, "3");
            assertThat(rows(statement)).containsExactly("1", "3");
        }
    }

    @Test
    void adjacentStringsIntroducersAndFractionalSecondsReadAsMySqlReadsThem() throws SQLException {
        assertShared("SELECT 'a' 'b' 'c', _utf8mb4'x', N'y', CONCAT(_latin1 'l', 'm')", "abc|x|y|lm");
        assertShared("SELECT LENGTH(CAST(NOW(3) AS CHAR)), LENGTH(CAST(NOW(6) AS CHAR)), LENGTH(CAST(NOW() AS CHAR))",
                "23|26|19");
        assertShared("SELECT NOW(3) >= NOW() AND NOW(3) < NOW() + INTERVAL 1 SECOND", "1");
    }

    @Test
    void numbersStringsAndDatesAreTruthValues() throws SQLException {
        onBoth("CREATE TABLE truth (c0 VARCHAR(100), c1 INT PRIMARY KEY, c2 INT, d DATE)",
                "INSERT INTO truth VALUES ('12', 1, 1, '2026-01-01'), ('7', 2, 0, NULL), ('0', 3, NULL, '2026-02-01')");
        assertShared("SELECT c1 FROM truth WHERE c2", "1");
        assertShared("SELECT c1 FROM truth WHERE c0 ORDER BY c1", "1", "2");
        assertShared("SELECT c1 FROM truth WHERE d AND NOT c2 IS NULL ORDER BY c1", "1");
        assertShared("SELECT c1, c1 XOR c2, c0 AND 5, CASE WHEN c2 THEN 'yes' ELSE 'no' END, IF(c0, 1, 0), NOT c0"
                + " FROM truth ORDER BY c1", "1|0|1|yes|1|0", "2|1|1|no|1|0", "3|null|0|no|0|1");
        assertShared("SELECT 5 AND 0, NOT 'abc', 1 XOR 1, CASE WHEN 1 THEN 'x' END", "0|1|0|x");
        assertShared("SELECT c1 FROM truth GROUP BY c1 HAVING c1 - 1 ORDER BY c1", "2", "3");
        onBoth("UPDATE truth SET c0 = (truth.c0 AND 1611354947)", "UPDATE truth SET c2 = c2 AND 5");
        assertShared("SELECT c0, c2 FROM truth ORDER BY c1", "1|1", "1|0", "0|null");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            try (ResultSet result = statement.executeQuery("SELECT 5 AND 0, 1 = 1")) {
                assertThat(result.getMetaData().getColumnType(1)).isEqualTo(java.sql.Types.BIGINT);
                assertThat(result.getMetaData().getColumnType(2)).isEqualTo(java.sql.Types.BIGINT);
            }
            // A number tested against zero runs in the stores; a string's truth only in the SQL layer.
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT c1 FROM truth WHERE c2"))
                    .anySatisfy(row -> assertThat(row).contains("Selection").contains("cop[tikv]").contains("c2 <> 0"));
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT c1 FROM truth WHERE c0"))
                    .anySatisfy(row -> assertThat(row).contains("Selection").contains("root").contains("duet_truth(c0)"));
            assertThat(SqlTesting.rows(statement, "SELECT c1 FROM truth WHERE c0 AND c2")).containsExactly("1");
            // Strict mode refuses the user name as an integer, as MySQL does; without it the value is 0.
            assertThatThrownBy(() -> statement.executeUpdate("UPDATE truth SET c0 = SESSION_USER(), c2 = truth.c0"
                    + " WHERE truth.c2")).satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1366));
            statement.execute("SET sql_mode = ''");
            assertThat(statement.executeUpdate("UPDATE truth SET c0 = SESSION_USER(), c2 = truth.c0 WHERE truth.c2"))
                    .isEqualTo(1);
            assertThat(SqlTesting.rows(statement, "SELECT c0 LIKE 'root@%', c2 FROM truth WHERE c1 = 1"))
                    .containsExactly("1|0");
        }
    }

    private static void assertError(String sql, int code, String sqlState, String message) throws SQLException {
        answers().assertError(sql, code, sqlState, message);
    }

    @Test
    void errorsCarryMySqlsCodesAndWording() throws SQLException {
        onBoth("CREATE TABLE errs (a INT PRIMARY KEY, b VARCHAR(10))", "CREATE TABLE errs2 (a INT PRIMARY KEY, c INT)");
        assertError("SELEC 1", 1064, "42000", "You have an error in your SQL syntax; check the manual that corresponds"
                + " to your MySQL server version for the right syntax to use near 'SELEC 1' at line 1");
        assertError("SELECT nosuch FROM errs", 1054, "42S22", "Unknown column 'nosuch' in 'field list'");
        assertError("SELECT a FROM errs WHERE zz = 1", 1054, "42S22", "Unknown column 'zz' in 'where clause'");
        assertError("SELECT e.zz FROM errs e", 1054, "42S22", "Unknown column 'e.zz' in 'field list'");
        assertError("SELECT a FROM errs, errs2", 1052, "23000", "Column 'a' in field list is ambiguous");
        assertError("SELECT * FROM nosuch", 1146, "42S02", "Table 'test.nosuch' doesn't exist");
        assertError("SELECT foo(1)", 1305, "42000", "FUNCTION test.foo does not exist");
        assertError("SELECT abs(1, 2)", 1582, "42000", "Incorrect parameter count in the call to native function 'abs'");
        assertError("SELECT SUM(SUM(a)) FROM errs", 1111, "HY000", "Invalid use of group function");
        assertError("SELECT a FROM errs UNION SELECT a, c FROM errs2", 1222, "21000",
                "The used SELECT statements have a different number of columns");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // ONLY_FULL_GROUP_BY is not MariaDB's default: MySQL 8.0's answer alone.
            assertThatThrownBy(() -> statement.executeQuery("SELECT a FROM errs GROUP BY b"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1055);
                        assertThat(e.getMessage()).isEqualTo("Expression #1 of SELECT list is not in GROUP BY clause and"
                                + " contains nonaggregated column 'test.errs.a' which is not functionally dependent on"
                                + " columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by");
                    });
        }
    }
}
