package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What writes compute and test beyond the columns' types, through Connector/J: generated columns (VIRTUAL and
 * STORED, indexed), DEFAULT (expression) and CHECK constraints, with MySQL 8.0's answers and errors. Where MariaDB
 * shares the answer and runs here, it is asked too.
 */
class ItWriteExpressions {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    @RegisterExtension
    static final MariaDbAnswers mariaDb = new MariaDbAnswers(sqlCluster);
    static SharedAnswers answers;

    @BeforeAll
    static void start() {
        answers = mariaDb.answers();
    }

    @Test
    void generatedColumnsAreComputedByEveryWrite() throws SQLException {
        answers.onBoth("CREATE TABLE order_lines (id INT PRIMARY KEY, price DECIMAL(10,2), qty INT,"
                        + " total DECIMAL(12,2) AS (price * qty) STORED,"
                        + " label VARCHAR(30) GENERATED ALWAYS AS (CONCAT('item-', id)) VIRTUAL, KEY by_total (total))",
                "CREATE TABLE bonus (id INT PRIMARY KEY, extra INT)",
                "INSERT INTO order_lines (id, price, qty) VALUES (1, 2.50, 4), (2, 10.00, 3)",
                "INSERT INTO order_lines VALUES (3, 1.00, 1, DEFAULT, DEFAULT)",
                "UPDATE order_lines SET qty = qty + 1 WHERE id = 1",
                "INSERT INTO order_lines (id, price, qty) VALUES (2, 0, 0) ON DUPLICATE KEY UPDATE price = 3.00",
                "REPLACE INTO order_lines (id, price, qty) VALUES (3, 5.00, 5)",
                "INSERT INTO bonus VALUES (3, 2)",
                "UPDATE order_lines JOIN bonus ON order_lines.id = bonus.id SET order_lines.qty = order_lines.qty + bonus.extra");
        answers.assertShared("SELECT id, price, qty, total, label FROM order_lines ORDER BY id",
                "1|2.50|5|12.50|item-1", "2|3.00|3|9.00|item-2", "3|5.00|7|35.00|item-3");
        answers.assertShared("SELECT id FROM order_lines WHERE total > 10 ORDER BY total", "1", "3");
        answers.assertShared("SELECT COLUMN_NAME, EXTRA FROM information_schema.COLUMNS WHERE TABLE_NAME = 'order_lines'"
                + " AND EXTRA LIKE '%GENERATED' ORDER BY ORDINAL_POSITION", "total|STORED GENERATED",
                "label|VIRTUAL GENERATED");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO order_lines (id, price, qty) VALUES (?, ?, ?)")) {
                insert.setInt(1, 4);
                insert.setBigDecimal(2, new BigDecimal("1.25"));
                insert.setInt(3, 8);
                insert.executeUpdate();
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE order_lines SET qty = ? WHERE id = ?")) {
                update.setInt(1, 2);
                update.setInt(2, 4);
                update.executeUpdate();
            }
            assertThat(SqlTesting.rows(statement, "SELECT total, label FROM order_lines WHERE id = 4"))
                    .containsExactly("2.50|item-4");
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT id FROM order_lines WHERE total = 35"))
                    .anyMatch(row -> row.contains("by_total"));
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE order_lines").get(0))
                    .contains("`total` decimal(12,2) GENERATED ALWAYS AS (price * qty) STORED")
                    .contains("`label` varchar(30) GENERATED ALWAYS AS (CONCAT('item-', id)) VIRTUAL");
            assertThat(SqlTesting.rows(statement, "SELECT GENERATION_EXPRESSION FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'order_lines' AND COLUMN_NAME = 'total'")).containsExactly("price * qty");
            // MySQL indexes a JSON document through a generated column that extracts a scalar from it.
            statement.execute("CREATE TABLE people (id INT PRIMARY KEY, doc JSON,"
                    + " name VARCHAR(20) AS (doc->>'$.name') STORED, KEY by_name (name))");
            statement.execute("INSERT INTO people (id, doc) VALUES (1, '{\"name\": \"ann\"}'),"
                    + " (2, '{\"name\": \"bob\"}')");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM people WHERE name = 'bob'")).containsExactly("2");
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT id FROM people WHERE name = 'bob'"))
                    .anyMatch(row -> row.contains("index:by_name"));
        }
        answers.assertDuetError("INSERT INTO order_lines (id, price, qty, total) VALUES (9, 1, 1, 1)", 3105, "HY000",
                "The value specified for generated column 'total' in table 'order_lines' is not allowed.");
        answers.assertDuetError("UPDATE order_lines SET label = 'x'", 3105, "HY000",
                "The value specified for generated column 'label' in table 'order_lines' is not allowed.");
        answers.assertDuetError("CREATE TABLE bad (a INT, b INT AS (RAND()))", 3102, "HY000",
                "Expression of generated column 'b' contains a disallowed function: rand.");
        answers.assertDuetError("CREATE TABLE bad (a INT, b INT AS (c + 1))", 1054, "42S22",
                "Unknown column 'c' in 'generated column function'");
        answers.assertDuetError("CREATE TABLE bad (a INT, b INT AS (c + 1), c INT AS (a))", 3107, "HY000",
                "Generated column can refer only to generated columns defined prior to it.");
        answers.assertDuetError("CREATE TABLE bad (a INT AS (1) VIRTUAL PRIMARY KEY)", 3106, "HY000",
                "'Defining a virtual generated column as primary key' is not supported for generated columns.");
        answers.assertDuetError("ALTER TABLE order_lines DROP COLUMN qty", 3108, "HY000",
                "Column 'qty' has a generated column dependency.");
    }

    @Test
    void expressionDefaultsAreComputedForColumnsLeftOut() throws SQLException {
        answers.onBoth("CREATE TABLE tokens (id INT PRIMARY KEY, n INT DEFAULT (10 * 2), tags JSON DEFAULT (JSON_ARRAY()),"
                        + " token VARCHAR(36) DEFAULT (UUID()), doubled INT DEFAULT (id * 2))",
                "INSERT INTO tokens (id) VALUES (1), (2)", "INSERT INTO tokens (id, n) VALUES (3, 7)",
                "UPDATE tokens SET n = 5 WHERE id = 1", "UPDATE tokens SET n = DEFAULT WHERE id = 1");
        answers.assertShared("SELECT id, n, tags, LENGTH(token), doubled FROM tokens ORDER BY id",
                "1|20|[]|36|2", "2|20|[]|36|4", "3|7|[]|36|6");
        answers.assertShared("SELECT COUNT(DISTINCT token) FROM tokens", "3");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT EXTRA FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'tokens' AND COLUMN_NAME = 'n'")).containsExactly("DEFAULT_GENERATED");
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE tokens").get(0))
                    .contains("`n` int DEFAULT (10 * 2)").contains("`token` varchar(36) DEFAULT (UUID())");
        }
    }

    @Test
    void columnsAddedToATableWithRowsAreComputedInEveryRow() throws SQLException {
        answers.onBoth("CREATE TABLE stock_items (id INT PRIMARY KEY, price DECIMAL(10,2), qty INT)",
                "INSERT INTO stock_items VALUES (1, 2.50, 4), (2, 10.00, 3), (3, NULL, 1)",
                "ALTER TABLE stock_items ADD COLUMN total DECIMAL(12,2) AS (price * qty) STORED",
                "ALTER TABLE stock_items ADD COLUMN label VARCHAR(20) AS (CONCAT('item-', id)) VIRTUAL,"
                        + " ADD COLUMN doubled INT DEFAULT (qty * 2)",
                "ALTER TABLE stock_items ADD INDEX by_total (total)",
                "INSERT INTO stock_items (id, price, qty) VALUES (4, 1.00, 5)");
        answers.assertShared("SELECT id, price, qty, total, label, doubled FROM stock_items ORDER BY id",
                "1|2.50|4|10.00|item-1|8", "2|10.00|3|30.00|item-2|6", "3|null|1|null|item-3|2",
                "4|1.00|5|5.00|item-4|10");
        answers.assertShared("SELECT id FROM stock_items WHERE total > 9 ORDER BY total", "1", "2");
        // A value a row cannot hold fails the ALTER, which leaves no column behind.
        // Connector/J reports 1264 as a DataTruncation, with its own SQLState and prefix (the server sends 22003).
        answers.assertDuetError("ALTER TABLE stock_items ADD COLUMN small TINYINT AS (qty * 100) STORED", 1264,
                "22001", "Data truncation: Out of range value for column 'small' at row 1");
        answers.assertDuetError("ALTER TABLE stock_items ADD COLUMN required INT AS (price) STORED NOT NULL", 1048,
                "23000", "Column 'required' cannot be null");
        answers.assertShared("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_NAME = 'stock_items'", "6");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE stock_items ADD COLUMN token VARCHAR(36) DEFAULT (UUID())");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(DISTINCT token), MIN(LENGTH(token)) FROM stock_items"))
                    .containsExactly("4|36");
        }
    }

    @Test
    void anExpressionDefaultSetLaterAppliesToRowsWrittenAfter() throws SQLException {
        answers.onBoth("CREATE TABLE defaults_later (id INT PRIMARY KEY, n INT DEFAULT 3, t VARCHAR(36), j JSON)",
                "INSERT INTO defaults_later (id) VALUES (1)",
                "ALTER TABLE defaults_later ALTER COLUMN n SET DEFAULT (id * 10)",
                "ALTER TABLE defaults_later ALTER COLUMN t SET DEFAULT (CONCAT('t-', id)), ALTER COLUMN j SET DEFAULT"
                        + " (JSON_ARRAY(id))",
                "INSERT INTO defaults_later (id) VALUES (2)",
                "ALTER TABLE defaults_later ALTER COLUMN n SET DEFAULT 7",
                "INSERT INTO defaults_later (id) VALUES (3)");
        answers.assertShared("SELECT id, n, t, j FROM defaults_later ORDER BY id", "1|3|null|null", "2|20|t-2|[2]",
                "3|7|t-3|[3]");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE defaults_later").get(0))
                    .contains("`n` int DEFAULT '7'").contains("`t` varchar(36) DEFAULT (CONCAT('t-', id))");
        }
        answers.assertDuetError("ALTER TABLE defaults_later ALTER COLUMN n SET DEFAULT (nosuch + 1)", 1054, "42S22",
                "Unknown column 'nosuch' in 'default value expression'");
    }

    @Test
    void aColumnAddedWhileRowsChangeIsRightInEveryRow() throws Exception {
        int writes = writeWhileAltering("busy", "ALTER TABLE busy ADD COLUMN b BIGINT AS (a * 10) STORED,"
                + " ADD COLUMN c INT DEFAULT (a + 1)");
        assertThat(writes).as("writes while the column was added").isPositive();
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM busy WHERE b IS NULL OR b <> a * 10"))
                    .containsExactly("0");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM busy WHERE c IS NULL")).containsExactly("0");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) >= 3000 FROM busy")).containsExactly("1");
        }
    }

    @Test
    void aColumnRetypedWhileRowsChangeIsRightInEveryRow() throws Exception {
        // Every row is rewritten from INT to text while the writers change and add rows through both types.
        int writes = writeWhileAltering("retyping", "ALTER TABLE retyping MODIFY a VARCHAR(20) NOT NULL");
        assertThat(writes).as("writes while the column changed type").isPositive();
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM retyping WHERE a <> CAST(mirror AS CHAR)"))
                    .containsExactly("0");
            assertThat(SqlTesting.rows(statement, "SELECT DATA_TYPE FROM information_schema.COLUMNS"
                    + " WHERE TABLE_NAME = 'retyping' AND COLUMN_NAME = 'a'")).containsExactly("varchar");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) >= 3000 FROM retyping")).containsExactly("1");
        }
    }

    /**
     * Creates {@code table} (id, a, mirror: 3,000 rows with a = mirror = id), runs {@code alter} while two
     * connections keep updating rows (a and mirror up by one) and inserting new ones (a = mirror), and answers how
     * many writes they made meanwhile.
     */
    private int writeWhileAltering(String table, String alter) throws Exception {
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, a INT, mirror INT)");
            StringBuilder values = new StringBuilder();
            for (int id = 1; id <= 3000; id++) {
                values.append(id == 1 ? "" : ",").append('(').append(id).append(',').append(id).append(',').append(id)
                        .append(')');
            }
            statement.execute("INSERT INTO " + table + " VALUES " + values);
        }
        AtomicBoolean altered = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int writer = 0; writer < 2; writer++) {
                int first = writer;
                running.add(writers.submit(() -> {
                    try (Connection connection = answers.connect();
                            PreparedStatement update = connection.prepareStatement(
                                    "UPDATE " + table + " SET a = a + 1, mirror = mirror + 1 WHERE id = ?");
                            PreparedStatement insert = connection.prepareStatement(
                                    "INSERT INTO " + table + " (id, a, mirror) VALUES (?, ?, ?)")) {
                        for (int i = 0; !altered.get(); i++) {
                            update.setInt(1, 1 + (first * 1499 + i * 7) % 3000);
                            update.executeUpdate();
                            insert.setInt(1, 10_000 + first * 100_000 + i);
                            insert.setInt(2, i);
                            insert.setInt(3, i);
                            insert.executeUpdate();
                            writes.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
                statement.execute(alter);
            }
            altered.set(true);
            for (Future<?> writer : running) {
                writer.get(60, TimeUnit.SECONDS);
            }
            return writes.get();
        } finally {
            altered.set(true);
            writers.shutdownNow();
        }
    }

    @Test
    void checkConstraintsRefuseRowsTheyFind() throws SQLException {
        answers.onBoth("CREATE TABLE checked (a INT CHECK (a > 0), b INT, CONSTRAINT b_small CHECK (b < 10),"
                + " CHECK (a + b < 15))", "INSERT INTO checked VALUES (1, 2), (9, 5), (NULL, NULL)");
        answers.assertShared("SELECT a, b FROM checked ORDER BY a", "null|null", "1|2", "9|5");
        // MariaDB answers a violation with its own code (4025): MySQL 8.0's are asked of DuetDB only.
        answers.assertDuetError("INSERT INTO checked VALUES (-1, 2)", 3819, "HY000",
                "Check constraint 'checked_chk_1' is violated.");
        answers.assertDuetError("INSERT INTO checked VALUES (1, 12)", 3819, "HY000",
                "Check constraint 'b_small' is violated.");
        answers.assertDuetError("UPDATE checked SET b = b + 5", 3819, "HY000",
                "Check constraint 'b_small' is violated.");
        answers.assertDuetError("ALTER TABLE checked ADD CONSTRAINT b_above CHECK (b > 3)", 3819, "HY000",
                "Check constraint 'b_above' is violated.");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            statement.execute("INSERT IGNORE INTO checked VALUES (-5, 1), (5, 1)");
            SQLWarning warning = statement.getWarnings();
            assertThat((Object) warning).isNotNull();
            assertThat(warning.getErrorCode()).isEqualTo(3819);
            assertThat(SqlTesting.rows(statement, "SELECT a, b FROM checked ORDER BY a"))
                    .containsExactly("null|null", "1|2", "5|1", "9|5");
            assertThat(SqlTesting.rows(statement, "SELECT CONSTRAINT_NAME, CHECK_CLAUSE FROM"
                    + " information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY 1"))
                    .containsExactly("b_small|(b < 10)", "checked_chk_1|(a > 0)", "checked_chk_2|(a + b < 15)");
            statement.execute("ALTER TABLE checked ADD CONSTRAINT b_pos CHECK (b > 0) NOT ENFORCED");
            statement.execute("INSERT INTO checked VALUES (2, -1)");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE checked ALTER CHECK b_pos ENFORCED"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3819));
            assertThat(SqlTesting.rows(statement, "SELECT ENFORCED FROM information_schema.TABLE_CONSTRAINTS"
                    + " WHERE CONSTRAINT_NAME = 'b_pos'")).containsExactly("NO");
            statement.execute("DELETE FROM checked WHERE b < 0");
            statement.execute("ALTER TABLE checked ALTER CHECK b_pos ENFORCED");
            assertThatThrownBy(() -> statement.execute("INSERT INTO checked VALUES (2, -1)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3819));
            statement.execute("ALTER TABLE checked DROP CHECK b_small");
            statement.execute("INSERT INTO checked VALUES (1, 12)");
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE checked").get(0))
                    .contains("CONSTRAINT `checked_chk_1` CHECK (a > 0)").doesNotContain("b_small");
        }
        answers.assertDuetError("ALTER TABLE checked DROP CHECK missing", 3821, "HY000",
                "Check constraint 'missing' is not found in the table.");
        answers.assertDuetError("ALTER TABLE checked DROP COLUMN a", 3959, "HY000",
                "Check constraint 'checked_chk_1' uses column 'a', hence column cannot be dropped or renamed.");
        answers.assertDuetError("CREATE TABLE bad (a INT CHECK (b > 0), b INT)", 3813, "HY000",
                "Column check constraint 'bad_chk_1' references other column.");
        answers.assertDuetError("CREATE TABLE bad (a INT, CHECK (z > 0))", 3820, "HY000",
                "Check constraint 'bad_chk_1' refers to non-existing column 'z'.");
        answers.assertDuetError("CREATE TABLE bad (a DATETIME, CHECK (a < NOW()))", 3814, "HY000",
                "An expression of a check constraint 'bad_chk_1' contains disallowed function: now.");
        answers.assertDuetError("CREATE TABLE bad (a INT, CONSTRAINT b_pos CHECK (a > 0))", 3822, "HY000",
                "Duplicate check constraint name 'b_pos'.");
    }
}
