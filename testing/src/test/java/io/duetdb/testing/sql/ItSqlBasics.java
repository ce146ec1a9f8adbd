package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The SQL server end to end through MySQL Connector/J: DDL, DML, queries, transactions and their errors. */
class ItSqlBasics {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.rows(statement, sql);
    }

    @Test
    void connectsAndAnswersWhatClientsProbe() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThat(connection.getMetaData().getDatabaseProductVersion()).startsWith("8.0.11-DuetDB");
            assertThat(rows(statement, "SELECT @@version_comment, @@session.autocommit, 1 + 1"))
                    .containsExactly("DuetDB|1|2");
            try (ResultSet result = statement.executeQuery("SELECT @@max_allowed_packet")) {
                assertThat(result.getMetaData().getColumnLabel(1)).isEqualTo("@@max_allowed_packet");
            }
            assertThat(rows(statement, "SHOW VARIABLES LIKE 'transaction_isolation'"))
                    .containsExactly("transaction_isolation|REPEATABLE-READ");
            assertThat(rows(statement, "SELECT DATABASE()")).containsExactly("test");
            assertThat(rows(statement, "SELECT 7 / 2, 1 / 0, 7.0 / 2, 1.5e0 / 2")).containsExactly("3.5000|null|3.50000|0.75");
        }
    }

    @Test
    void createsInsertsSelectsUpdatesAndDeletes() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("USE shop");
            statement.execute("CREATE TABLE items (id BIGINT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40) NOT NULL,"
                    + " price DECIMAL(10,2) DEFAULT 0.00, stock INT, UNIQUE KEY uk_name (name))"
                    + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
            assertThat(statement.executeUpdate("INSERT INTO items (name, price, stock) VALUES ('apple', 1.5, 10),"
                    + " ('pear', 2.25, 0), ('plum', 0.75, 7)")).isEqualTo(3);
            assertThat(rows(statement, "SELECT id, name, price, stock FROM items ORDER BY id"))
                    .containsExactly("1|apple|1.50|10", "2|pear|2.25|0", "3|plum|0.75|7");
            assertThat(rows(statement, "SELECT name FROM items WHERE id = 2")).containsExactly("pear");
            assertThat(rows(statement, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop'"))
                    .containsExactly("items");
            assertThat(rows(statement, "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY"
                    + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'items'"
                    + " ORDER BY ORDINAL_POSITION")).containsExactly("id|bigint|bigint|NO|PRI",
                    "name|varchar|varchar(40)|NO|UNI", "price|decimal|decimal(10,2)|YES|", "stock|int|int|YES|");
            assertThat(rows(statement, "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS"
                    + " WHERE TABLE_NAME = 'items' ORDER BY INDEX_NAME")).containsExactly("PRIMARY|id|0", "uk_name|name|0");
            // Keys as ORMs reflect them (SQLAlchemy, Django and Rails read these), with no foreign keys.
            assertThat(rows(statement, "SELECT tc.CONSTRAINT_NAME, tc.CONSTRAINT_TYPE, k.COLUMN_NAME, k.ORDINAL_POSITION"
                    + " FROM information_schema.TABLE_CONSTRAINTS tc JOIN information_schema.KEY_COLUMN_USAGE k"
                    + " ON k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND k.TABLE_SCHEMA = tc.TABLE_SCHEMA"
                    + " AND k.TABLE_NAME = tc.TABLE_NAME WHERE tc.TABLE_SCHEMA = 'shop' AND tc.TABLE_NAME = 'items'"
                    + " ORDER BY tc.CONSTRAINT_NAME")).containsExactly("PRIMARY|PRIMARY KEY|id|1", "uk_name|UNIQUE|name|1");
            assertThat(rows(statement, "SELECT count(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                    + " WHERE CONSTRAINT_SCHEMA = 'shop'")).containsExactly("0");
            assertThat(rows(statement, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY SCHEMA_NAME"))
                    .contains("information_schema", "shop", "test");
            assertThat(rows(statement, "SELECT name FROM items WHERE name = 'plum'")).containsExactly("plum");
            assertThat(rows(statement, "SELECT COUNT(*), SUM(stock), MAX(price) FROM items"))
                    .containsExactly("3|17|2.25");
            assertThat(statement.executeUpdate("UPDATE items SET stock = stock + 5 WHERE price < 2")).isEqualTo(2);
            assertThat(rows(statement, "SELECT stock FROM items ORDER BY id")).containsExactly("15", "0", "12");
            assertThat(statement.executeUpdate("DELETE FROM items WHERE stock = 0")).isEqualTo(1);
            assertThat(rows(statement, "SELECT name FROM items ORDER BY name DESC LIMIT 1")).containsExactly("plum");

            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO items (name) VALUES ('apple')"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO items (id, name) VALUES (1, 'kiwi')"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO items (name) VALUES (NULL)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1048));
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO items (price) VALUES (1)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1364));
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO items (name, stock) VALUES ('fig', 1e12)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1264));
            assertThatThrownBy(() -> statement.execute("SELEC 1"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1064));
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM nowhere"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1146));
            assertThatThrownBy(() -> statement.executeQuery("SELECT nothing FROM items"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1054));
            assertThatThrownBy(() -> statement.execute("USE nowhere"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1049));

            PreparedStatement insert = connection.prepareStatement("INSERT INTO items (name, price) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS);
            insert.setString(1, "it's \"quoted\"");
            insert.setBigDecimal(2, new java.math.BigDecimal("9.99"));
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).isGreaterThan(3);
            }
            PreparedStatement select = connection.prepareStatement("SELECT price FROM items WHERE name = ?");
            select.setString(1, "it's \"quoted\"");
            try (ResultSet result = select.executeQuery()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getBigDecimal(1)).isEqualByComparingTo("9.99");
            }
        }
    }

    @Test
    void runsServerSidePreparedStatementsWithTypedParametersAndBinaryRows() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true&emulateUnsupportedPstmts=false");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE typed (id BIGINT PRIMARY KEY, small TINYINT, amount DECIMAL(12,3),"
                    + " ratio DOUBLE, label VARCHAR(30), at DATETIME(3), day DATE, note TEXT)");
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (long id = 1; id <= 3; id++) {
                    insert.setLong(1, id);
                    insert.setByte(2, (byte) -id);
                    insert.setBigDecimal(3, new java.math.BigDecimal("12.5").multiply(java.math.BigDecimal.valueOf(id)));
                    insert.setDouble(4, id / 4.0);
                    insert.setString(5, "ünïcode " + id);
                    insert.setTimestamp(6, java.sql.Timestamp.valueOf("2026-11-22 10:00:0" + id + ".125"));
                    insert.setDate(7, java.sql.Date.valueOf("2026-01-0" + id));
                    if (id == 2) {
                        insert.setNull(8, java.sql.Types.VARCHAR);
                    } else {
                        insert.setString(8, "n" + id);
                    }
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, small, amount, ratio, label, at, day, note FROM typed WHERE id = ?")) {
                select.setLong(1, 2);
                try (ResultSet result = select.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getLong(1)).isEqualTo(2);
                    assertThat(result.getInt(2)).isEqualTo(-2);
                    assertThat(result.getBigDecimal(3)).isEqualByComparingTo("25.000");
                    assertThat(result.getDouble(4)).isEqualTo(0.5);
                    assertThat(result.getString(5)).isEqualTo("ünïcode 2");
                    assertThat(result.getTimestamp(6)).isEqualTo(java.sql.Timestamp.valueOf("2026-11-22 10:00:02.125"));
                    assertThat(result.getDate(7)).isEqualTo(java.sql.Date.valueOf("2026-01-02"));
                    assertThat(result.getString(8)).isNull();
                    assertThat(result.next()).isFalse();
                }
                select.setLong(1, 42);
                try (ResultSet result = select.executeQuery()) {
                    assertThat(result.next()).isFalse();
                }
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE typed SET label = ? WHERE amount > ?")) {
                update.setString(1, "big");
                update.setBigDecimal(2, new java.math.BigDecimal("20"));
                assertThat(update.executeUpdate()).isEqualTo(2);
            }
            assertThat(rows(statement, "SELECT label FROM typed ORDER BY id"))
                    .containsExactly("ünïcode 1", "big", "big");
        }
    }

    @Test
    void preparedPointSelectsSeeTheLastCommitAndConvertOtherValuesAsMySqlDoes() throws SQLException {
        String prepared = sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true";
        try (Connection connection = DriverManager.getConnection(prepared); Statement statement = connection.createStatement();
                Connection other = DriverManager.getConnection(sqlCluster.url()); Statement writer = other.createStatement()) {
            statement.execute("CREATE TABLE latest_points (id INT UNSIGNED PRIMARY KEY, v VARCHAR(10))");
            statement.execute("INSERT INTO latest_points VALUES (1, 'one'), (2, 'two')");
            try (PreparedStatement byKey = connection.prepareStatement("SELECT v FROM latest_points WHERE id = ?");
                    PreparedStatement keyLast = connection.prepareStatement("SELECT id, v FROM latest_points WHERE ? = id")) {
                List<String> seen = new ArrayList<>();
                for (Object value : new Object[] {1, 2L, "2", "1", new java.math.BigDecimal("2.0"),
                        new java.math.BigDecimal("2.5"), 3, -1, null}) {
                    byKey.setObject(1, value);
                    try (ResultSet result = byKey.executeQuery()) {
                        seen.add(result.next() ? result.getString(1) : "none");
                    }
                }
                assertThat(seen).containsExactly("one", "two", "two", "one", "two", "none", "none", "none", "none");
                for (int round = 0; round < 20; round++) {
                    writer.executeUpdate("UPDATE latest_points SET v = 'v" + round + "' WHERE id = 2");
                    keyLast.setInt(1, 2);
                    try (ResultSet result = keyLast.executeQuery()) {
                        assertThat(result.next()).isTrue();
                        assertThat(result.getString(2)).isEqualTo("v" + round);
                    }
                }
                // Inside a transaction the point get reads the transaction's snapshot, not the newest commit.
                statement.execute("BEGIN");
                keyLast.setInt(1, 2);
                try (ResultSet result = keyLast.executeQuery()) {
                    assertThat(result.next()).isTrue();
                }
                writer.executeUpdate("UPDATE latest_points SET v = 'later' WHERE id = 2");
                try (ResultSet result = keyLast.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(2)).isEqualTo("v19");
                }
                statement.execute("COMMIT");
                try (ResultSet result = keyLast.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(2)).isEqualTo("later");
                }
            }
        }
    }

    @Test
    void preparedPointGetsOutsideTransactionsAreReadWithoutAStatementThread() throws Exception {
        String prepared = sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true";
        String answered = "outcome=\"answered\"";
        try (Connection connection = DriverManager.getConnection(prepared); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE unblocked (id BIGINT PRIMARY KEY, v VARCHAR(10))");
            for (int id = 1; id <= 50; id++) {
                statement.execute("INSERT INTO unblocked VALUES (" + id + ", 'v" + id + "')");
            }
            double before = SqlTesting.metric(sqlCluster.server(), "duet_sql_point_gets_without_blocking_total", answered);
            try (PreparedStatement byKey = connection.prepareStatement("SELECT id, v FROM unblocked WHERE id = ?")) {
                List<String> seen = new ArrayList<>();
                for (long id : new long[] {1, 2, 51, 3}) {
                    byKey.setLong(1, id);
                    try (ResultSet result = byKey.executeQuery()) {
                        seen.add(result.next() ? result.getLong(1) + "|" + result.getString(2) : "none");
                    }
                }
                assertThat(seen).containsExactly("1|v1", "2|v2", "none", "3|v3");
                assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_point_gets_without_blocking_total", answered))
                        .isGreaterThanOrEqualTo(before + 4);
                assertThat(rows(statement, "SELECT FOUND_ROWS()")).containsExactly("1");
                // Text statements (COM_QUERY) of the same shape take the same path.
                double beforeText = SqlTesting.metric(sqlCluster.server(), "duet_sql_point_gets_without_blocking_total",
                        answered);
                try (Connection text = DriverManager.getConnection(sqlCluster.url());
                        Statement plain = text.createStatement()) {
                    assertThat(rows(plain, "SELECT v FROM unblocked WHERE id = 7")).containsExactly("v7");
                    assertThat(rows(plain, " select id, v from unblocked where 9 = id ")).containsExactly("9|v9");
                    assertThat(rows(plain, "SELECT v FROM unblocked WHERE id = 99")).isEmpty();
                    assertThat(rows(plain, "SELECT v FROM unblocked WHERE id = '7'")).containsExactly("v7");
                    assertThat(errorOf(() -> plain.executeQuery("SELECT nope FROM unblocked WHERE id = 7")))
                            .isEqualTo(1054);
                }
                assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_point_gets_without_blocking_total", answered))
                        .isGreaterThanOrEqualTo(beforeText + 3);
                // Inside a transaction: its own writes first, then its snapshot.
                double beforeTransaction = SqlTesting.metric(sqlCluster.server(),
                        "duet_sql_point_gets_without_blocking_total", answered);
                statement.execute("BEGIN");
                statement.executeUpdate("UPDATE unblocked SET v = 'mine' WHERE id = 5");
                statement.executeUpdate("DELETE FROM unblocked WHERE id = 6");
                List<String> inTransaction = new ArrayList<>();
                try (Connection other = DriverManager.getConnection(sqlCluster.url());
                        Statement writer = other.createStatement()) {
                    writer.executeUpdate("UPDATE unblocked SET v = 'theirs' WHERE id = 8");
                    for (long id : new long[] {5, 6, 8}) {
                        byKey.setLong(1, id);
                        try (ResultSet result = byKey.executeQuery()) {
                            inTransaction.add(result.next() ? result.getString(2) : "none");
                        }
                    }
                    statement.execute("ROLLBACK");
                    for (long id : new long[] {5, 6, 8}) {
                        byKey.setLong(1, id);
                        try (ResultSet result = byKey.executeQuery()) {
                            inTransaction.add(result.next() ? result.getString(2) : "none");
                        }
                    }
                    writer.executeUpdate("UPDATE unblocked SET v = 'v8' WHERE id = 8");
                }
                assertThat(inTransaction).containsExactly("mine", "none", "v8", "v5", "v6", "theirs");
                assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_point_gets_without_blocking_total", answered))
                        .isGreaterThanOrEqualTo(beforeTransaction + 6);
                // A schema change since planning sends the statement the usual way once, which plans it again.
                statement.execute("ALTER TABLE unblocked ADD COLUMN w INT DEFAULT 7");
                statement.execute("UPDATE unblocked SET v = 'two' WHERE id = 2");
                for (int round = 0; round < 2; round++) {
                    byKey.setLong(1, 2);
                    try (ResultSet result = byKey.executeQuery()) {
                        assertThat(result.next()).isTrue();
                        assertThat(result.getLong(1) + "|" + result.getString(2)).isEqualTo("2|two");
                    }
                }
            }
            // Many connections at once: every answer reaches the connection that asked, in order.
            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> mismatches = new ArrayList<>();
                for (int client = 0; client < 8; client++) {
                    int seed = client;
                    mismatches.add(clients.submit(() -> {
                        int wrong = 0;
                        try (Connection own = DriverManager.getConnection(prepared);
                                PreparedStatement get = own.prepareStatement("SELECT v FROM unblocked WHERE id = ?")) {
                            for (int i = 0; i < 300; i++) {
                                long id = (seed * 300L + i * 7L) % 60 + 1;
                                get.setLong(1, id);
                                try (ResultSet result = get.executeQuery()) {
                                    String expected = id == 2 ? "two" : id <= 50 ? "v" + id : null;
                                    String actual = result.next() ? result.getString(1) : null;
                                    if (!Objects.equals(expected, actual)) {
                                        wrong++;
                                    }
                                }
                            }
                        }
                        return wrong;
                    }));
                }
                for (Future<Integer> mismatch : mismatches) {
                    assertThat(mismatch.get(120, TimeUnit.SECONDS)).isZero();
                }
            } finally {
                clients.shutdownNow();
            }
            // The privilege check still applies.
            statement.execute("CREATE USER 'pointer'@'%' IDENTIFIED BY 'secret'");
            statement.execute("GRANT SELECT ON test.unblocked TO 'pointer'@'%'");
            String account = "jdbc:mysql://" + sqlCluster.server().address()
                    + "/test?useSSL=false&allowPublicKeyRetrieval=true&useServerPrepStmts=true";
            try (Connection limited = DriverManager.getConnection(account, "pointer", "secret");
                    PreparedStatement get = limited.prepareStatement("SELECT v FROM unblocked WHERE id = ?")) {
                get.setLong(1, 4);
                try (ResultSet result = get.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(1)).isEqualTo("v4");
                }
                statement.execute("REVOKE SELECT ON test.unblocked FROM 'pointer'@'%'");
                assertThat(errorOf(() -> get.executeQuery())).isEqualTo(1142);
            } finally {
                statement.execute("DROP USER 'pointer'@'%'");
            }
        }
    }

    @Test
    void preparingTheSameTextAgainReusesItsPlanUntilTheSchemaChanges() throws SQLException {
        // Without cachePrepStmts Connector/J sends COM_STMT_PREPARE for every prepareStatement.
        try (Connection connection = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE cached_plans (id INT PRIMARY KEY, v INT)");
            statement.execute("INSERT INTO cached_plans VALUES (1, 10), (2, 20)");
            String sql = "SELECT * FROM cached_plans WHERE v > ? ORDER BY id";
            double hits = SqlTesting.metric(sqlCluster.server(), "duet_sql_plan_cache_total", "outcome=\"hit\"");
            List<String> answers = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                if (round == 2) {
                    statement.execute("ALTER TABLE cached_plans ADD COLUMN w INT DEFAULT 7");
                }
                try (PreparedStatement select = connection.prepareStatement(sql)) {
                    select.setInt(1, 15);
                    try (ResultSet result = select.executeQuery()) {
                        assertThat(result.next()).isTrue();
                        answers.add(result.getMetaData().getColumnCount() + ":" + result.getString(2));
                        assertThat(result.next()).isFalse();
                    }
                }
            }
            assertThat(answers).containsExactly("2:20", "2:20", "3:20");
            // The second PREPARE reused the first one's plan; after ALTER TABLE the plan was made again.
            assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_plan_cache_total", "outcome=\"hit\"") - hits).isEqualTo(1);
            // Another database's statement of the same text is not the cached one.
            statement.execute("CREATE DATABASE IF NOT EXISTS plans_elsewhere");
            statement.execute("USE plans_elsewhere");
            assertThat(errorOf(() -> {
                try (PreparedStatement select = connection.prepareStatement(sql)) {
                    select.setInt(1, 15);
                    select.executeQuery().close();
                }
            })).isEqualTo(1146);
        }
        // As in MySQL, PREPARE itself refuses unknown names (Connector/J would otherwise emulate the statement).
        try (Connection strict = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true&emulateUnsupportedPstmts=false")) {
            assertThat(errorOf(() -> strict.prepareStatement("SELECT * FROM no_such_table WHERE id = ?").close()))
                    .isEqualTo(1146);
            assertThat(errorOf(() -> strict.prepareStatement("SELECT nothing FROM cached_plans WHERE id = ?").close()))
                    .isEqualTo(1054);
        }
    }

    @Test
    void nonStrictSqlModeAndInsertIgnoreClampCutAndWarn() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE lenient (id INT PRIMARY KEY, a TINYINT, b VARCHAR(3), c DECIMAL(4,1), d INT)");
            assertThat(errorOf(() -> statement.executeUpdate("INSERT INTO lenient VALUES (1, 300, 'x', 1, 1)")))
                    .isEqualTo(1264);
            statement.execute("SET sql_mode = ''");
            assertThat(statement.executeUpdate("INSERT INTO lenient VALUES (1, 300, 'abcdef', 12345.6, '12abc'),"
                    + " (2, -300, 'x', -5000, 'abc')")).isEqualTo(2);
            assertThat(rows(statement, "SHOW WARNINGS")).containsExactly(
                    "Warning|1264|Out of range value for column 'a' at row 1",
                    "Warning|1265|Data truncated for column 'b' at row 1",
                    "Warning|1264|Out of range value for column 'c' at row 1",
                    "Warning|1265|Data truncated for column 'd' at row 1",
                    "Warning|1264|Out of range value for column 'a' at row 2",
                    "Warning|1264|Out of range value for column 'c' at row 2",
                    "Warning|1366|Incorrect integer value: 'abc' for column 'd' at row 2");
            assertThat(rows(statement, "SELECT a, b, c, d FROM lenient ORDER BY id"))
                    .containsExactly("127|abc|999.9|12", "-128|x|-999.9|0");
            statement.execute("SET sql_mode = 'STRICT_TRANS_TABLES'");
            assertThat(statement.executeUpdate("INSERT IGNORE INTO lenient VALUES (3, 1000, 'y', 1, 1), (1, 0, 'z', 0, 0)"))
                    .isEqualTo(1);
            assertThat(rows(statement, "SHOW WARNINGS")).containsExactly(
                    "Warning|1264|Out of range value for column 'a' at row 1",
                    "Warning|1062|Duplicate entry '1' for key 'lenient.PRIMARY'");
            assertThat(rows(statement, "SELECT a FROM lenient WHERE id = 3")).containsExactly("127");
        }
    }

    @Test
    void datesMoveByIntervalsAndYieldTheirParts() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SELECT DATE '1994-01-01' + INTERVAL '1' YEAR, DATE '1998-12-01' - INTERVAL '90' DAY,"
                    + " DATE '2026-01-31' + INTERVAL '1' MONTH, TIMESTAMP '2026-11-22 10:00:00' + INTERVAL '90' MINUTE,"
                    + " INTERVAL '3' DAY + DATE '2026-02-27'"))
                    .containsExactly("1995-01-01|1998-09-02|2026-02-28|2026-11-22 11:30:00|2026-03-02");
            statement.execute("CREATE TABLE shipments (id INT PRIMARY KEY, shipped DATE)");
            statement.executeUpdate("INSERT INTO shipments VALUES (1, '1994-03-01'), (2, '1998-08-01'), (3, '1998-09-03')");
            assertThat(rows(statement, "SELECT id FROM shipments WHERE shipped <= DATE '1998-12-01' - INTERVAL '90' DAY"
                    + " ORDER BY id")).containsExactly("1", "2");
            assertThat(rows(statement, "SELECT id, EXTRACT(YEAR FROM shipped), EXTRACT(MONTH FROM shipped),"
                    + " EXTRACT(DAY FROM shipped) FROM shipments WHERE shipped >= DATE '1994-01-01'"
                    + " AND shipped < DATE '1994-01-01' + INTERVAL '1' YEAR")).containsExactly("1|1994|3|1");
        }
    }

    @Test
    void columnsMayBeNamedWithMySqlsNonReservedKeywords() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            // Reserved in Calcite's grammar, not in MySQL's: everyday column names.
            statement.execute("CREATE TABLE events (id INT PRIMARY KEY, date DATE, time TIME, timestamp DATETIME,"
                    + " count INT, position INT, start INT, end INT, value INT, language VARCHAR(5), result INT,"
                    + " global INT, local INT, uuid VARCHAR(36))");
            statement.executeUpdate("INSERT INTO events (id, date, time, timestamp, count, position, start, end, value,"
                    + " language, result, global, local) VALUES (1, '2026-11-22', '10:30:00', '2026-11-22 10:30:00', 3, 2,"
                    + " 5, 9, 7, 'en', 0, 1, 2), (2, '2026-11-23', '11:00:00', '2026-11-23 11:00:00', 4, 1, 6, 8, 11,"
                    + " 'fr', 1, 0, 3)");
            assertThat(rows(statement, "SELECT date, time, timestamp, count, position, start, end, value, language, result,"
                    + " global, local FROM events WHERE count = 3 AND end > start ORDER BY position"))
                    .containsExactly("2026-11-22|10:30:00|2026-11-22 10:30:00|3|2|5|9|7|en|0|1|2");
            assertThat(rows(statement, "SELECT e.value + e.count, SUM(value), SUM(`value`), COUNT(*), MAX(date) FROM events e"
                    + " GROUP BY e.value + e.count ORDER BY 1")).containsExactly("10|7|7|1|2026-11-22", "15|11|11|1|2026-11-23");
            // MySQL's VALUE (...) row list still reads as one.
            statement.executeUpdate("INSERT INTO events (id, value) VALUE (3, 1)");
            assertThat(rows(statement, "SELECT value FROM events WHERE id = 3")).containsExactly("1");
            statement.executeUpdate("UPDATE events SET count = count + 1, end = start WHERE language = 'fr'");
            assertThat(rows(statement, "SELECT count, end FROM events WHERE id = 2")).containsExactly("5|6");
            // The same words keep their meaning where MySQL gives them one.
            assertThat(rows(statement, "SELECT DATE '2026-01-31' + INTERVAL '1' DAY, TIMESTAMP '2026-01-01 00:00:00',"
                    + " CAST('2026-02-03' AS DATE), COUNT(*), CASE WHEN id = 1 THEN 'one' ELSE 'other' END,"
                    + " EXTRACT(YEAR FROM date) FROM events WHERE date < DATE '2026-11-23' GROUP BY id, date"))
                    .containsExactly("2026-02-01|2026-01-01 00:00:00|2026-02-03|1|one|2026");
        }
    }

    @Test
    void everydayMySqlFunctionsAnswerAsMySqlDoes() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            // Each expected value is MySQL 8.0's answer.
            String[][] cases = {
                {"IFNULL(NULL, 'x')", "x"}, {"IF(2 > 1, 'yes', 'no')", "yes"}, {"GREATEST(3, 7, 5)", "7"},
                {"LEAST('b', 'a', 'c')", "a"}, {"GREATEST(1, NULL, 3)", "null"}, {"CONCAT_WS('-', 'a', NULL, 'b')", "a-b"},
                {"CONCAT_WS(NULL, 'a')", "null"}, {"LEFT('duetdb', 4)", "duet"}, {"RIGHT('duetdb', 2)", "db"},
                {"LPAD('7', 3, '0')", "007"}, {"RPAD('ab', 5, 'xy')", "abxyx"}, {"LPAD('abc', 2, '0')", "ab"},
                {"LTRIM('  a ')", "a "}, {"RTRIM(' a  ')", " a"}, {"REPEAT('ab', 3)", "ababab"}, {"SPACE(2)", "  "},
                {"REPLACE('a.b.c', '.', '::')", "a::b::c"}, {"REVERSE('abc')", "cba"},
                {"SUBSTRING_INDEX('www.mysql.com', '.', 2)", "www.mysql"},
                {"SUBSTRING_INDEX('www.mysql.com', '.', -2)", "mysql.com"}, {"LOCATE('b', 'abcb')", "2"},
                {"LOCATE('b', 'abcb', 3)", "4"}, {"INSTR('foobar', 'bar')", "4"}, {"LOCATE('z', 'abc')", "0"},
                {"STRCMP('a', 'b')", "-1"}, {"MD5('duet')", "afb5b5e637056767a633f49e71a79873"},
                {"SHA1('abc')", "a9993e364706816aba3e25717850c26c9cd0d89d"}, {"CHAR(77)", "M"},
                {"SQRT(16)", "4.0"}, {"POW(2, 10)", "1024.0"}, {"POWER(2, 3)", "8.0"}, {"EXP(0)", "1.0"},
                {"LN(1)", "0.0"}, {"LOG10(1000)", "3.0"}, {"LOG(2, 8)", "3.0"}, {"LN(0)", "null"},
                {"SIGN(-4)", "-1"}, {"TRUNCATE(1.999, 1)", "1.9"}, {"TRUNCATE(-1.999, 0)", "-1"},
                {"ROUND(PI(), 4)", "3.1416"}, {"DEGREES(PI())", "180.0"},
                {"DATEDIFF('2026-11-22', '2026-11-01')", "21"}, {"DATEDIFF(DATE '2026-01-01', DATE '2026-11-22')", "-325"},
                {"DATE_FORMAT('2026-11-22 09:05:03', '%Y/%m/%d %H:%i:%s %W %b %D %p')",
                    "2026/11/22 09:05:03 Sunday Nov 22nd AM"},
                {"DAY(DATE '2026-11-22')", "22"}, {"DATE('2026-11-22 10:30:00')", "2026-11-22"},
                {"DATE(TIMESTAMP '2026-11-22 23:59:59') = DATE '2026-11-22'", "1"},
                {"FROM_UNIXTIME(UNIX_TIMESTAMP('2026-11-22 10:30:00'))", "2026-11-22 10:30:00"},
                {"7 DIV 2", "3"}, {"-7 DIV 2", "-3"}, {"7.9 DIV 2", "3"}, {"7 DIV 0", "null"}, {"1 + 7 DIV 2 * 2", "7"},
                {"STR_TO_DATE('22/11/2026', '%d/%m/%Y')", "2026-11-22"},
                {"STR_TO_DATE('Nov 5, 2026 7:08:09 PM', '%b %e, %Y %l:%i:%s %p')", "2026-11-05 19:08:09"},
                {"STR_TO_DATE('2026-02-30', '%Y-%m-%d')", "null"}, {"STR_TO_DATE('x2026', '%Y')", "null"},
                {"HEX(255)", "FF"}, {"HEX('abc')", "616263"}, {"HEX(-1)", "FFFFFFFFFFFFFFFF"},
                {"FORMAT(1234567.891, 2)", "1,234,567.89"}, {"FORMAT(0.5, 0)", "1"}, {"LENGTH(UUID())", "36"},
                {"CURDATE() = CURRENT_DATE", "1"}};
            for (String[] test : cases) {
                assertThat(rows(statement, "SELECT " + test[0])).as(test[0]).containsExactly(test[1]);
            }
            statement.execute("CREATE TABLE pioneers (id INT PRIMARY KEY, first VARCHAR(10), last VARCHAR(10), born DATE)");
            statement.executeUpdate("INSERT INTO pioneers VALUES (1, 'Ada', 'Lovelace', '1815-12-10'),"
                    + " (2, 'Alan', NULL, '1912-06-23'), (3, 'Grace', 'Hopper', '1906-12-09')");
            assertThat(rows(statement, "SELECT CONCAT_WS(' ', first, last), IFNULL(last, '?'), DATE_FORMAT(born, '%d %M %Y'),"
                    + " DATEDIFF(born, '1800-01-01') > 0 FROM pioneers WHERE id < 3 ORDER BY id"))
                    .containsExactly("Ada Lovelace|Lovelace|10 December 1815|1", "Alan|?|23 June 1912|1");
            // GROUP_CONCAT: NULLs skipped, DISTINCT, ORDER BY and SEPARATOR.
            assertThat(rows(statement, "SELECT GROUP_CONCAT(last), GROUP_CONCAT(first ORDER BY born DESC SEPARATOR ' / '),"
                    + " GROUP_CONCAT(DISTINCT MONTH(born) ORDER BY MONTH(born)) FROM pioneers"))
                    .containsExactly("Lovelace,Hopper|Alan / Grace / Ada|6,12");
            assertThat(rows(statement, "SELECT YEAR(born) > 1900, GROUP_CONCAT(first ORDER BY first) FROM pioneers"
                    + " GROUP BY YEAR(born) > 1900 ORDER BY 1")).containsExactly("0|Ada", "1|Alan,Grace");
        }
    }

    @Test
    void secondaryIndexRangesAnswerAsFullScansDo() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE ranged (id INT PRIMARY KEY, a INT, b DECIMAL(4,1), name VARCHAR(8), day DATE,"
                    + " KEY by_a_b (a, b), KEY by_name (name), KEY by_day (day))");
            StringBuilder insert = new StringBuilder("INSERT INTO ranged VALUES ");
            for (int i = 0; i < 60; i++) {
                insert.append(i == 0 ? "" : ", ").append("(").append(i).append(", ")
                        .append(i % 7 == 0 ? "NULL" : String.valueOf(i % 10 - 3)).append(", ").append(i % 13 / 2.0)
                        .append(", ").append(i % 5 == 0 ? "NULL" : "'n" + (i % 17) + "'").append(", '2026-01-")
                        .append(String.format("%02d", 1 + i % 28)).append("')");
            }
            statement.executeUpdate(insert.toString());
            String[][] cases = {
                {"a > 2", "a + 0 > 2"}, {"a >= 1.5", "a + 0 >= 1.5"}, {"a < -1.4", "a + 0 < -1.4"},
                {"a BETWEEN -2 AND 3", "a + 0 BETWEEN -2 AND 3"}, {"a = 4 AND b > 2.25", "a + 0 = 4 AND b + 0 > 2.25"},
                {"a = 2 AND b <= 3", "a + 0 = 2 AND b + 0 <= 3"}, {"a > 100", "a + 0 > 100"},
                {"name >= 'n12' AND name < 'n5'", "CONCAT(name, '') >= 'n12' AND CONCAT(name, '') < 'n5'"},
                {"day > '2026-01-20'", "COALESCE(day, day) > '2026-01-20'"},
                {"day BETWEEN '2026-01-03' AND '2026-01-05'", "COALESCE(day, day) BETWEEN '2026-01-03' AND '2026-01-05'"}};
            for (String[] pair : cases) {
                assertThat(rows(statement, "SELECT id FROM ranged WHERE " + pair[0] + " ORDER BY id")).as(pair[0])
                        .isEqualTo(rows(statement, "SELECT id FROM ranged WHERE " + pair[1] + " ORDER BY id"));
            }
            assertThat(rows(statement, "SELECT COUNT(*) FROM ranged WHERE a > 2")).containsExactly("20");
        }
    }

    @Test
    void textPointGetsAnswerAsThePlannerDoes() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE points (id BIGINT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(8,2) NOT NULL,"
                    + " at DATETIME(3))");
            statement.executeUpdate("INSERT INTO points VALUES (1, 'one', 1.50, '2026-11-22 10:00:00.125'),"
                    + " (-2, NULL, 2.00, NULL)");
            statement.execute("ALTER TABLE points ADD COLUMN tag VARCHAR(5) DEFAULT 'x'");
            for (String where : new String[] {"1", "-2", "7"}) {
                // id + 0 = n is planned by Calcite; id = n takes the point-get path.
                assertThat(rows(statement, "SELECT * FROM points WHERE id = " + where))
                        .isEqualTo(rows(statement, "SELECT * FROM points WHERE id + 0 = " + where));
                assertThat(rows(statement, "SELECT amount, `NAME`, points.id FROM test.points WHERE " + where + " = id"))
                        .isEqualTo(rows(statement, "SELECT amount, `NAME`, points.id FROM test.points WHERE id + 0 = " + where));
            }
            // Ranges of the clustered key read only that part of the table, with the same answers as a full scan.
            statement.executeUpdate("INSERT INTO points (id, amount) VALUES (5, 5), (6, 6), (9223372036854775807, 7),"
                    + " (-9223372036854775808, 8)");
            for (String range : new String[] {"id BETWEEN -2 AND 5", "id > 1", "id >= 1.5 AND id < 6", "id < -1",
                    "id <= 5.9 AND id > -3", "5 < id", "id > 9223372036854775806", "id < -9223372036854775807",
                    "id > 9223372036854775807", "id >= 10 AND id <= 3", "id > 1 AND name IS NULL"}) {
                assertThat(rows(statement, "SELECT id, amount FROM points WHERE " + range + " ORDER BY id"))
                        .as(range).isEqualTo(rows(statement, "SELECT id, amount FROM points WHERE "
                                + range.replace("id", "id + 0") + " ORDER BY id"));
            }
            assertThat(rows(statement, "SELECT COUNT(*) FROM points WHERE id BETWEEN -2 AND 5")).containsExactly("3");
            // IN lists are batch point gets, in key order as a scan gives them.
            assertThat(rows(statement, "SELECT id, tag FROM points WHERE id IN (7, 1, -2, 1)"))
                    .containsExactly("-2|x", "1|x")
                    .isEqualTo(rows(statement, "SELECT id, tag FROM points WHERE id + 0 IN (7, 1, -2, 1)"));
            try (ResultSet fast = statement.executeQuery("SELECT name, amount, at FROM points WHERE id = 1")) {
                java.sql.ResultSetMetaData meta = fast.getMetaData();
                assertThat(meta.getColumnLabel(1)).isEqualTo("name");
                assertThat(meta.getColumnTypeName(2)).isEqualTo("DECIMAL");
                assertThat(meta.getScale(2)).isEqualTo(2);
                assertThat(meta.isNullable(2)).isEqualTo(java.sql.ResultSetMetaData.columnNoNulls);
                assertThat(meta.getTableName(3)).isEqualTo("points");
                assertThat(fast.next()).isTrue();
                assertThat(fast.getTimestamp(3)).isEqualTo(java.sql.Timestamp.valueOf("2026-11-22 10:00:00.125"));
            }
            assertThat(errorOf(() -> statement.executeQuery("SELECT nope FROM points WHERE id = 1"))).isEqualTo(1054);
            statement.execute("CREATE USER 'pointy'@'%' IDENTIFIED BY 'p'");
            try (Connection other = DriverManager.getConnection(sqlCluster.url().replace("/test?user=root", "/?user=pointy&password=p"));
                    Statement denied = other.createStatement()) {
                assertThat(errorOf(() -> denied.executeQuery("SELECT * FROM test.points WHERE id = 1"))).isEqualTo(1142);
            }
        }
    }

    @Test
    void preparedUpdatesAndDeletesKeepTheirPlanAcrossExecutionsAndSchemaChanges() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true&emulateUnsupportedPstmts=false");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL, label VARCHAR(10))");
            statement.execute("INSERT INTO counters VALUES (1, 0, 'a'), (2, 0, 'b'), (3, 0, 'c'), (4, 0, 'd')");
            try (PreparedStatement add = connection.prepareStatement("UPDATE counters SET n = n + ? WHERE id = ?");
                    PreparedStatement set = connection.prepareStatement("UPDATE counters SET n = ?, label = ? WHERE id = ?");
                    PreparedStatement lowest = connection.prepareStatement("DELETE FROM counters ORDER BY n LIMIT ?")) {
                for (int round = 1; round <= 3; round++) {
                    for (int id = 1; id <= 4; id++) {
                        add.setInt(1, id * round);
                        add.setInt(2, id);
                        assertThat(add.executeUpdate()).isEqualTo(1);
                    }
                }
                assertThat(rows(statement, "SELECT n FROM counters ORDER BY id")).containsExactly("6", "12", "18", "24");
                // A bare placeholder as the new value: coerced to the column, NULL refused by NOT NULL.
                set.setString(1, "70");
                set.setString(2, "seventy");
                set.setInt(3, 1);
                assertThat(set.executeUpdate()).isEqualTo(1);
                set.setNull(1, java.sql.Types.INTEGER);
                set.setString(2, "x");
                set.setInt(3, 2);
                assertThat(errorOf(set::executeUpdate)).isEqualTo(1048);
                set.setInt(1, 5);
                set.setString(2, "too long for ten");
                assertThat(errorOf(set::executeUpdate)).isEqualTo(1406);
                // The schema changes between executions: the statements are planned again.
                statement.execute("ALTER TABLE counters ADD COLUMN extra INT DEFAULT 7");
                add.setInt(1, 1);
                add.setInt(2, 1);
                assertThat(add.executeUpdate()).isEqualTo(1);
                assertThat(rows(statement, "SELECT n, label, extra FROM counters WHERE id = 1")).containsExactly("71|seventy|7");
                lowest.setInt(1, 2);
                assertThat(lowest.executeUpdate()).isEqualTo(2);
                assertThat(rows(statement, "SELECT id FROM counters ORDER BY id")).containsExactly("1", "4");
            }
            // Prepared INSERT ... VALUES reads its placeholders directly, with the same checks as text.
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO counters (id, n, label) VALUES (?, ?, ?)")) {
                insert.setInt(1, 10);
                insert.setString(2, "42");
                insert.setString(3, "it's \\ ok");
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setInt(1, 10);
                assertThat(errorOf(insert::executeUpdate)).isEqualTo(1062);
                insert.setInt(1, 11);
                insert.setNull(2, java.sql.Types.INTEGER);
                assertThat(errorOf(insert::executeUpdate)).isEqualTo(1048);
                insert.setLong(2, 1L << 40);
                assertThat(errorOf(insert::executeUpdate)).isEqualTo(1264);
            }
            assertThat(rows(statement, "SELECT n, label FROM counters WHERE id = 10")).containsExactly("42|it's \\ ok");
            statement.executeUpdate("DELETE FROM counters WHERE id = 10");
            // A placeholder whose type nothing determines is bound as text instead.
            try (PreparedStatement untyped = connection.prepareStatement("DELETE FROM counters WHERE ? = id + 0 * ?")) {
                untyped.setInt(1, 4);
                untyped.setInt(2, 0);
                assertThat(untyped.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(statement, "SELECT id FROM counters")).containsExactly("1");
        }
    }

    @Test
    void stringsKeepBackslashesQuotesAndControlCharactersThroughEveryPath() throws SQLException {
        String value = "back\\slash \"double\" it's\nnew line\ttab \\";
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                Connection serverSide = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true")) {
            statement.execute("CREATE TABLE texts (id INT PRIMARY KEY, body VARCHAR(100))");
            // Connector/J escapes the value into the statement text with backslashes.
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO texts VALUES (1, ?)")) {
                insert.setString(1, value);
                insert.executeUpdate();
            }
            // Bound by the server into the statement text (a prepared statement that is not a query).
            try (PreparedStatement insert = serverSide.prepareStatement("INSERT INTO texts VALUES (2, ?)")) {
                insert.setString(1, value);
                insert.executeUpdate();
            }
            statement.executeUpdate("INSERT INTO texts VALUES (3, 'a\\_b'), (4, 'a_b'), (5, 'axb')");
            assertThat(rows(statement, "SELECT body FROM texts WHERE id <= 2 ORDER BY id")).containsExactly(value, value);
            assertThat(rows(statement, "SELECT id FROM texts WHERE body = '" + value.replace("\\", "\\\\")
                    .replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t") + "' ORDER BY id"))
                    .containsExactly("1", "2");
            assertThat(rows(statement, "SELECT 'two\\nlines', 'it''s', \"say \\\"hi\\\"\", CHAR_LENGTH('\\\\')"))
                    .containsExactly("two\nlines|it's|say \"hi\"|1");
            // LIKE: \_ is a literal underscore.
            assertThat(rows(statement, "SELECT id FROM texts WHERE body LIKE 'a\\_b' ORDER BY id"))
                    .containsExactly("4");
        }
    }

    static int errorOf(ThrowingRunnable action) {
        try {
            action.run();
        } catch (SQLException e) {
            return e.getErrorCode();
        }
        throw new AssertionError("expected an error");
    }

    interface ThrowingRunnable {
        void run() throws SQLException;
    }

    @Test
    void connectsOverTlsWithTheGeneratedCertificate() throws SQLException {
        String tlsUrl = "jdbc:mysql://" + sqlCluster.server().address() + "/test?user=root&sslMode=REQUIRED";
        try (Connection connection = DriverManager.getConnection(tlsUrl); Statement statement = connection.createStatement()) {
            assertThat(rows(statement, "SELECT 40 + 2")).containsExactly("42");
            PreparedStatement select = connection.prepareStatement("SELECT ? * 2");
            select.setInt(1, 21);
            try (ResultSet result = select.executeQuery()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getInt(1)).isEqualTo(42);
            }
        }
    }

    @Test
    void accountsAndPrivilegesAreEnforcedOnEveryStatement() throws SQLException {
        String base = "jdbc:mysql://" + sqlCluster.server().address() + "/%s?useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection root = connect(); Statement admin = root.createStatement()) {
            admin.execute("CREATE DATABASE appdb");
            admin.execute("CREATE TABLE appdb.t (id INT PRIMARY KEY, v INT)");
            admin.executeUpdate("INSERT INTO appdb.t VALUES (1, 10)");
            admin.execute("CREATE USER 'app'@'%' IDENTIFIED BY 'secret'");
            admin.execute("GRANT SELECT ON appdb.* TO 'app'@'%'");
            assertThat(errorOf(() -> DriverManager.getConnection(String.format(base, "appdb"), "app", "wrong")))
                    .isEqualTo(1045);
            try (Connection app = DriverManager.getConnection(String.format(base, "appdb"), "app", "secret");
                    Statement statement = app.createStatement()) {
                assertThat(rows(statement, "SELECT v FROM t WHERE id = 1")).containsExactly("10");
                assertThat(errorOf(() -> statement.executeUpdate("INSERT INTO t VALUES (2, 20)"))).isEqualTo(1142);
                assertThat(errorOf(() -> statement.execute("USE test"))).isEqualTo(1044);
                assertThat(errorOf(() -> statement.execute("CREATE TABLE t2 (id INT PRIMARY KEY)"))).isEqualTo(1142);
                assertThat(errorOf(() -> statement.execute("CREATE USER other"))).isEqualTo(1227);
                admin.execute("GRANT INSERT ON appdb.t TO 'app'@'%'");
                assertThat(statement.executeUpdate("INSERT INTO t VALUES (2, 20)")).isEqualTo(1);
                admin.execute("REVOKE SELECT ON appdb.* FROM 'app'@'%'");
                assertThat(errorOf(() -> statement.executeQuery("SELECT v FROM t"))).isEqualTo(1142);
                assertThat(rows(statement, "SHOW GRANTS")).containsExactly("GRANT USAGE ON *.* TO 'app'@'%'",
                        "GRANT INSERT ON `appdb`.`t` TO 'app'@'%'");
            }
            admin.execute("DROP USER 'app'@'%'");
            assertThat(errorOf(() -> DriverManager.getConnection(String.format(base, "appdb"), "app", "secret")))
                    .isEqualTo(1045);
        }
    }

    @Test
    void transactionsCommitRollBackAndIsolate() throws SQLException {
        try (Connection first = connect(); Connection second = connect();
                Statement a = first.createStatement(); Statement b = second.createStatement()) {
            a.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
            a.executeUpdate("INSERT INTO accounts VALUES (1, 100), (2, 100)");
            first.setAutoCommit(false);
            a.executeUpdate("UPDATE accounts SET balance = balance - 30 WHERE id = 1");
            a.executeUpdate("UPDATE accounts SET balance = balance + 30 WHERE id = 2");
            assertThat(rows(b, "SELECT balance FROM accounts ORDER BY id")).containsExactly("100", "100");
            first.rollback();
            assertThat(rows(a, "SELECT SUM(balance) FROM accounts")).containsExactly("200");
            // A failing statement inside a transaction undoes only its own writes.
            a.executeUpdate("INSERT INTO accounts VALUES (3, 1)");
            assertThat(errorOf(() -> a.executeUpdate("INSERT INTO accounts VALUES (4, 1), (5, 1), (1, 1)")))
                    .isEqualTo(1062);
            first.commit();
            assertThat(rows(b, "SELECT id FROM accounts ORDER BY id")).containsExactly("1", "2", "3");
            a.executeUpdate("DELETE FROM accounts WHERE id = 3");
            first.commit();
            a.executeUpdate("UPDATE accounts SET balance = balance - 30 WHERE id = 1");
            first.commit();
            assertThat(rows(b, "SELECT balance FROM accounts WHERE id = 1")).containsExactly("70");

            // Pessimistic locking: the second writer waits for the first and then builds on its write (101 + 1).
            a.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 2");
            b.execute("SET innodb_lock_wait_timeout = 50");
            Thread committer = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    first.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            committer.start();
            assertThat(b.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 2")).isEqualTo(1);
            assertThat(rows(b, "SELECT balance FROM accounts WHERE id = 2")).containsExactly("102");
            first.setAutoCommit(true);
        }
    }

    @Test
    void addsAnIndexToATableWithRows() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE people (id INT PRIMARY KEY, email VARCHAR(64), age INT)");
            statement.executeUpdate("INSERT INTO people VALUES (1, 'a@x', 30), (2, 'b@x', 40), (3, 'c@x', 30)");
            statement.execute("CREATE UNIQUE INDEX uk_email ON people (email)");
            assertThat(rows(statement, "SELECT id FROM people WHERE email = 'b@x'")).containsExactly("2");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO people VALUES (4, 'a@x', 1)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
            assertThatThrownBy(() -> statement.execute("CREATE UNIQUE INDEX uk_age ON people (age)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
            assertThat(rows(statement, "SHOW INDEX FROM people")).hasSize(2);
            assertThat(rows(statement, "SHOW TABLES")).contains("people");
        }
    }

    @Test
    void charColumnsEqualShorterLiteralsAlsoAfterJoinsAndProjections() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE segments (id INT PRIMARY KEY, segment CHAR(10) NOT NULL, code CHAR(4),"
                    + " UNIQUE KEY uk_code (code))");
            statement.execute("CREATE TABLE buyers (id INT PRIMARY KEY, segment_id INT NOT NULL)");
            statement.executeUpdate("INSERT INTO segments VALUES (1, 'BUILDING', 'AB'), (2, 'MACHINERY', 'ABCD')");
            statement.executeUpdate("INSERT INTO buyers VALUES (10, 1), (11, 2), (12, 1)");
            assertThat(rows(statement, "SELECT id FROM segments WHERE segment = 'BUILDING'")).containsExactly("1");
            assertThat(rows(statement, "SELECT id FROM segments WHERE 'BUILDING' = segment")).containsExactly("1");
            assertThat(rows(statement, "SELECT id FROM segments WHERE code = 'AB'")).containsExactly("1");
            assertThat(rows(statement, "SELECT b.id FROM buyers b, segments s WHERE b.segment_id = s.id"
                    + " AND s.segment = 'BUILDING' ORDER BY b.id")).containsExactly("10", "12");
            assertThat(rows(statement, "SELECT id, segment IN ('BUILDING', 'AUTO') FROM (SELECT id, segment"
                    + " FROM segments) s ORDER BY id")).containsExactly("1|1", "2|0");
            assertThat(rows(statement, "SELECT CONCAT('[', CASE WHEN id = 1 THEN 'ab' ELSE 'abcd' END, ']'),"
                    + " CONCAT('[', segment, ']') FROM segments ORDER BY id"))
                    .containsExactly("[ab]|[BUILDING]", "[abcd]|[MACHINERY]");
        }
    }

    @Test
    void notInSubQueriesFollowSqlNullSemantics() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE suppliers (id INT PRIMARY KEY, nation INT)");
            statement.execute("CREATE TABLE complaints (id INT PRIMARY KEY, supplier INT)");
            statement.executeUpdate("INSERT INTO suppliers VALUES (1, 10), (2, 20), (3, NULL)");
            statement.executeUpdate("INSERT INTO complaints VALUES (100, 1), (101, 1)");
            assertThat(rows(statement, "SELECT id FROM suppliers WHERE id NOT IN (SELECT supplier FROM complaints)"
                    + " ORDER BY id")).containsExactly("2", "3");
            assertThat(rows(statement, "SELECT id FROM suppliers WHERE nation NOT IN (SELECT supplier * 10"
                    + " FROM complaints) ORDER BY id")).containsExactly("2");
            assertThat(rows(statement, "SELECT id FROM suppliers WHERE nation NOT IN (SELECT supplier FROM complaints"
                    + " WHERE id > 200) ORDER BY id")).containsExactly("1", "2", "3");
            statement.executeUpdate("INSERT INTO complaints VALUES (102, NULL)");
            assertThat(rows(statement, "SELECT id FROM suppliers WHERE id NOT IN (SELECT supplier FROM complaints)"))
                    .isEmpty();
            assertThat(rows(statement, "SELECT id, id NOT IN (SELECT supplier FROM complaints), id IN (SELECT"
                    + " supplier FROM complaints) FROM suppliers ORDER BY id"))
                    .containsExactly("1|0|1", "2|null|null", "3|null|null");
            assertThat(rows(statement, "SELECT COUNT(DISTINCT s.nation) FROM suppliers s WHERE s.id NOT IN"
                    + " (SELECT supplier FROM complaints WHERE supplier IS NOT NULL)")).containsExactly("1");
            assertThat(rows(statement, "SELECT s.id, c.id FROM suppliers s JOIN complaints c ON s.nation <=> c.supplier"
                    + " ORDER BY c.id")).containsExactly("3|102");
        }
    }

    @Test
    void charLengthsDateArithmeticAndCurrentUser() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE codes (id INT PRIMARY KEY, code CHAR(5), due DATE)");
            statement.executeUpdate("INSERT INTO codes VALUES (1, 'ab   ', '2026-01-31'), (2, 'abcde', '2026-03-31')");
            assertThat(rows(statement, "SELECT id, LENGTH(code), CHAR_LENGTH(code), CONCAT('[', code, ']') FROM codes"
                    + " ORDER BY id")).containsExactly("1|2|2|[ab]", "2|5|5|[abcde]");
            assertThat(rows(statement, "SELECT id FROM codes WHERE code = 'ab'")).containsExactly("1");
            assertThat(rows(statement, "SELECT DATE_ADD(due, INTERVAL 1 MONTH), DATE_SUB(due, INTERVAL 1 DAY),"
                    + " due + INTERVAL 1 DAY, due - interval '1' year FROM codes ORDER BY id"))
                    .containsExactly("2026-02-28|2026-01-30|2026-02-01|2025-01-31",
                            "2026-04-30|2026-03-30|2026-04-01|2025-03-31");
            assertThat(rows(statement, "SELECT id FROM codes WHERE due < DATE_ADD('2026-01-01', INTERVAL 2 MONTH)"))
                    .containsExactly("1");
            assertThat(rows(statement, "SELECT CURRENT_USER(), CURRENT_USER = CURRENT_USER()"))
                    .singleElement().asString().startsWith("root@").endsWith("|1");
        }
    }
}
