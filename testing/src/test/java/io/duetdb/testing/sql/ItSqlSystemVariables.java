package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.ServiceSafePoint;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * TiDB's system variables through MySQL Connector/J, as TiDB's tools set them: a TPC-H / CH-benCHmark driver's
 * load step, SHOW VARIABLES, SET GLOBAL seen by new sessions on every SQL server (and not by sessions already
 * open), typed checks with MySQL's errors and warnings, and the variables that take effect (the index backfill's
 * batch size, the GC life time as a service safe point).
 */
class ItSqlSystemVariables {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer first;
    static SqlServer second;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        first = SqlTesting.startServer(cluster, config -> { });
        second = SqlTesting.startServer(cluster, config -> { });
    }

    @AfterAll
    static void stop() {
        for (SqlServer server : new SqlServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
        cluster.close();
    }

    static Connection connect(SqlServer server) throws SQLException {
        return connect(server, "");
    }

    static Connection connect(SqlServer server, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false" + options);
    }

    static String single(Statement statement, String sql) throws SQLException {
        List<String> rows = SqlTesting.rows(statement, sql);
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    /** The value column of SHOW [GLOBAL] VARIABLES LIKE 'name', or null when it lists no such row. */
    static String shown(Statement statement, String scope, String name) throws SQLException {
        List<String> rows = SqlTesting.rows(statement, "SHOW " + scope + " VARIABLES LIKE '" + name + "'");
        return rows.isEmpty() ? null : rows.get(0).substring(rows.get(0).indexOf('|') + 1);
    }

    static List<String> warnings(Statement statement) throws SQLException {
        List<String> warnings = new ArrayList<>();
        for (SQLWarning warning = statement.getWarnings(); warning != null; warning = warning.getNextWarning()) {
            warnings.add(warning.getErrorCode() + " " + warning.getMessage());
        }
        return warnings;
    }

    @Test
    void aBenchmarkDriversLoadStepSetsTidbVariablesThenAnalyzes() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE lineitem_small (id INT PRIMARY KEY, qty INT)");
            statement.executeUpdate("INSERT INTO lineitem_small VALUES (1, 10), (2, 20), (3, 30)");
            statement.execute("SET tidb_build_stats_concurrency=16");
            statement.execute("SET tidb_distsql_scan_concurrency=15");
            statement.execute("SET tidb_index_serial_scan_concurrency=1");
            statement.execute("ANALYZE TABLE lineitem_small");
            assertThat(SqlTesting.rows(statement, "SHOW STATS_META")).anyMatch(row -> row.contains("lineitem_small"));
            // The scan concurrency takes effect on coprocessor reads: the query still answers.
            assertThat(single(statement, "SELECT SUM(qty) FROM lineitem_small")).isEqualTo("60");

            try (ResultSet result = statement.executeQuery("SELECT @@tidb_build_stats_concurrency,"
                    + " @@session.tidb_distsql_scan_concurrency, @@tidb_index_serial_scan_concurrency")) {
                assertThat(result.next()).isTrue();
                // Integer variables read as BIGINT, as MySQL and TiDB type them.
                assertThat(result.getObject(1)).isEqualTo(16L);
                assertThat(result.getObject(2)).isEqualTo(15L);
                assertThat(result.getObject(3)).isEqualTo(1L);
            }
            assertThat(shown(statement, "", "tidb_build_stats_concurrency")).isEqualTo("16");
            assertThat(shown(statement, "SESSION", "tidb_distsql_scan_concurrency")).isEqualTo("15");
            // The global values are untouched: TiDB's defaults (DuetDB's own read-ahead for the scan concurrency).
            assertThat(shown(statement, "GLOBAL", "tidb_build_stats_concurrency")).isEqualTo("2");
            assertThat(shown(statement, "GLOBAL", "tidb_distsql_scan_concurrency")).isEqualTo("4");
            assertThat(SqlTesting.rows(statement, "SHOW VARIABLES LIKE 'tidb_opt_%'"))
                    .contains("tidb_opt_agg_push_down|OFF", "tidb_opt_insubq_to_join_and_agg|ON",
                            "tidb_opt_correlation_threshold|0.9", "tidb_opt_write_row_id|OFF");
            assertThat(single(statement, "SELECT @@tidb_gc_life_time")).isEqualTo("10m0s");
            assertThat(shown(statement, "", "tidb_snapshot")).isEqualTo("");
            // Session-only variables are not in the global list.
            assertThat(shown(statement, "GLOBAL", "tidb_snapshot")).isNull();
        }
    }

    @Test
    void setGlobalIsSeenByNewSessionsOnEveryServerButNotByOpenOnes() throws SQLException {
        try (Connection open = connect(second); Statement openStatement = open.createStatement()) {
            assertThat(single(openStatement, "SELECT @@tidb_index_lookup_size")).isEqualTo("20000");
            try (Connection setter = connect(first); Statement statement = setter.createStatement()) {
                statement.execute("SET GLOBAL tidb_index_lookup_size = 5000");
                statement.execute("SET @@global.tidb_opt_agg_push_down = ON");
                statement.execute("SET GLOBAL tidb_gc_life_time = '24h'");
                // The setting session keeps its own values; its global view has the new ones.
                assertThat(single(statement, "SELECT @@tidb_index_lookup_size")).isEqualTo("20000");
                assertThat(single(statement, "SELECT @@global.tidb_index_lookup_size")).isEqualTo("5000");
                assertThat(shown(statement, "GLOBAL", "tidb_opt_agg_push_down")).isEqualTo("ON");
                // A global-only variable has one value, read in any scope but SESSION.
                assertThat(single(statement, "SELECT @@tidb_gc_life_time")).isEqualTo("24h0m0s");
            }
            // A session open before keeps the value it started with, as in MySQL.
            assertThat(single(openStatement, "SELECT @@tidb_index_lookup_size")).isEqualTo("20000");
            assertThat(single(openStatement, "SELECT @@global.tidb_index_lookup_size")).isEqualTo("5000");
            assertThat(single(openStatement, "SELECT @@tidb_gc_life_time")).isEqualTo("24h0m0s");
        }
        // New sessions on either server start from the global values, right after SET GLOBAL returned.
        for (SqlServer server : List.of(first, second)) {
            try (Connection fresh = connect(server); Statement statement = fresh.createStatement()) {
                assertThat(single(statement, "SELECT @@tidb_index_lookup_size")).isEqualTo("5000");
                assertThat(shown(statement, "", "tidb_opt_agg_push_down")).isEqualTo("ON");
                statement.execute("SET tidb_index_lookup_size = 100");
                assertThat(single(statement, "SELECT @@tidb_index_lookup_size")).isEqualTo("100");
                // As MySQL: SET SESSION ... = DEFAULT takes the global value.
                statement.execute("SET tidb_index_lookup_size = DEFAULT");
                assertThat(single(statement, "SELECT @@tidb_index_lookup_size")).isEqualTo("5000");
            }
        }
        // MySQL's own variables too.
        try (Connection setter = connect(first); Statement statement = setter.createStatement()) {
            statement.execute("SET GLOBAL sql_safe_updates = 1");
        }
        try (Connection fresh = connect(second); Statement statement = fresh.createStatement()) {
            assertThat(single(statement, "SELECT @@sql_safe_updates")).isEqualTo("1");
            statement.execute("SET GLOBAL sql_safe_updates = DEFAULT, tidb_index_lookup_size = DEFAULT,"
                    + " tidb_opt_agg_push_down = DEFAULT, tidb_gc_life_time = DEFAULT");
        }
        try (Connection fresh = connect(first); Statement statement = fresh.createStatement()) {
            assertThat(single(statement, "SELECT @@sql_safe_updates")).isEqualTo("0");
            assertThat(single(statement, "SELECT @@tidb_gc_life_time")).isEqualTo("10m0s");
            assertThat(shown(statement, "GLOBAL", "tidb_index_lookup_size")).isEqualTo("20000");
        }
    }

    @Test
    void userVariablesHoldValuesWithinTheirSessionAndSaveSystemVariables() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement();
                Connection other = connect(first); Statement otherStatement = other.createStatement()) {
            statement.execute("SET @v = 5, @Label = CONCAT('a', 'b'), @saved = @@time_zone, time_zone = '+02:00'");
            assertThat(single(statement, "SELECT @v + 1, @label, @V * 2, @never, @@time_zone, @saved"))
                    .isEqualTo("6|ab|10|null|+02:00|SYSTEM");
            try (ResultSet result = statement.executeQuery("SELECT @v")) {
                assertThat(result.getMetaData().getColumnLabel(1)).isEqualTo("@v");
            }
            assertThat(single(statement, "SELECT count(*) FROM (SELECT 1 AS x UNION ALL SELECT 2) t WHERE x < @v"))
                    .isEqualTo("2");
            // As mysqldump's script restores what it saved.
            statement.execute("/*!40103 SET TIME_ZONE=@saved */");
            assertThat(single(statement, "SELECT @@time_zone")).isEqualTo("SYSTEM");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET time_zone = @never"))).isEqualTo(1231);
            // Another session has its own.
            assertThat(single(otherStatement, "SELECT @v")).isEqualTo("null");
            statement.execute("SET @v = NULL");
            assertThat(single(statement, "SELECT @v IS NULL")).isEqualTo("1");
        }
    }

    @Test
    void setReadsEveryFormMySqlAcceptsInOneGrammar() throws SQLException {
        try (Connection connection = connect(first, "&useServerPrepStmts=true");
                Statement statement = connection.createStatement()) {
            // Values are expressions, assigned left to right; a scope keyword holds for the names after it.
            statement.execute("SET\n@a = 1, @b := @a + 1, sql_mode = CONCAT(@@sql_mode, ',NO_UNSIGNED_SUBTRACTION'),"
                    + " @@session.autocommit := ON, SESSION net_read_timeout = 250, wait_timeout = 300");
            assertThat(single(statement, "SELECT @a, @b, @@autocommit, @@net_read_timeout, @@wait_timeout"))
                    .isEqualTo("1|2|1|250|300");
            assertThat(single(statement, "SELECT @@sql_mode")).endsWith(",NO_UNSIGNED_SUBTRACTION");
            statement.execute("SET @@sql_mode = DEFAULT, net_read_timeout = DEFAULT");
            assertThat(single(statement, "SELECT @@sql_mode LIKE '%NO_UNSIGNED_SUBTRACTION%', @@net_read_timeout"))
                    .isEqualTo("0|30");
            statement.execute("SET @x = (SELECT count(*) FROM (SELECT 1 AS one UNION ALL SELECT 2) pair)");
            assertThat(single(statement, "SELECT @x * 10")).isEqualTo("20");
            // NAMES, CHARACTER SET and TRANSACTION, as drivers and mysqldump send them.
            statement.execute("SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci");
            statement.execute("SET CHARACTER SET DEFAULT");
            statement.execute("/*!40101 SET NAMES binary */");
            statement.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            assertThat(single(statement, "SELECT @@transaction_isolation")).isEqualTo("READ-COMMITTED");
            // Without a scope, for the next transaction only: the session keeps its own.
            statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE");
            assertThat(single(statement, "SELECT @@transaction_isolation")).isEqualTo("READ-COMMITTED");
            statement.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            // A statement prepared while @n held text (computed as DOUBLE, as MySQL does) is planned again once it
            // holds an integer.
            statement.execute("SET @n = '7'");
            try (PreparedStatement typed = connection.prepareStatement("SELECT @n + ?");
                    ResultSet result = bindAndRun(typed, 1)) {
                assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("DOUBLE");
                assertThat(result.getDouble(1)).isEqualTo(8.0);
            }
            statement.execute("SET @n = 7");
            try (PreparedStatement typed = connection.prepareStatement("SELECT @n + ?");
                    ResultSet result = bindAndRun(typed, 1)) {
                assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("BIGINT");
                assertThat(result.getLong(1)).isEqualTo(8);
            }
            // What MySQL refuses, refused with its errors.
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET @a = DEFAULT"))).isEqualTo(1064);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET no_such_variable = 1"))).isEqualTo(1193);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET @@global.no_such_variable = 1")))
                    .isEqualTo(1193);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET time_zone = NULLIF(1, 1)"))).isEqualTo(1231);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET TRANSACTION ISOLATION LEVEL READ")))
                    .isEqualTo(1064);
        }
    }

    @Test
    void transactionCharacteristicsHoldForTheNextTransactionOrForTheSession() throws SQLException {
        // Local session state: Connector/J would otherwise read @@transaction_read_only before each write, and that
        // read is itself the next transaction.
        try (Connection connection = connect(first, "&useLocalSessionState=true");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE characteristics (k INT PRIMARY KEY)");
            // Without a scope, for the next transaction only: an autocommit statement, or one opened by BEGIN.
            statement.execute("SET TRANSACTION READ ONLY");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("INSERT INTO characteristics VALUES (1)")))
                    .isEqualTo(1792);
            statement.execute("INSERT INTO characteristics VALUES (1)");
            statement.execute("SET TRANSACTION READ ONLY");
            assertThat(single(statement, "SELECT count(*) FROM characteristics")).isEqualTo("1");
            statement.execute("INSERT INTO characteristics VALUES (2)");
            statement.execute("SET TRANSACTION READ ONLY, ISOLATION LEVEL READ COMMITTED");
            statement.execute("BEGIN");
            assertThat(single(statement, "SELECT count(*) FROM characteristics")).isEqualTo("2");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("UPDATE characteristics SET k = k + 10")))
                    .isEqualTo(1792);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET TRANSACTION READ WRITE"))).isEqualTo(1568);
            statement.execute("COMMIT");
            statement.execute("UPDATE characteristics SET k = k + 10");
            assertThat(single(statement, "SELECT @@transaction_isolation, @@transaction_read_only"))
                    .isEqualTo("REPEATABLE-READ|0");
            // For the session, until it is changed back (Connector/J's setReadOnly sends these).
            statement.execute("SET SESSION TRANSACTION READ ONLY");
            assertThat(single(statement, "SELECT @@transaction_read_only")).isEqualTo("1");
            for (int attempt = 0; attempt < 2; attempt++) {
                assertThat(ItSqlBasics.errorOf(() -> statement.execute("DELETE FROM characteristics")))
                        .isEqualTo(1792);
            }
            statement.execute("SET SESSION TRANSACTION READ WRITE");
            statement.execute("DELETE FROM characteristics");
            assertThat(single(statement, "SELECT count(*) FROM characteristics")).isEqualTo("0");
        }
    }

    @Test
    void selectIntoStoresTheOneRowInUserVariables() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE answers (k INT PRIMARY KEY, v VARCHAR(10))");
            statement.execute("INSERT INTO answers VALUES (1, 'one'), (2, 'two')");
            assertThat(statement.executeUpdate("SELECT count(*), max(v) FROM answers INTO @count, @`max v`"))
                    .isEqualTo(1);
            assertThat(single(statement, "SELECT @count + 1, @`max v`, ROW_COUNT()")).isEqualTo("3|two|1");
            // No row: the variables keep their values, with MySQL's warning.
            statement.execute("SELECT v FROM answers WHERE k = 9 INTO @count");
            assertThat(statement.getWarnings().getErrorCode()).isEqualTo(1329);
            assertThat(single(statement, "SELECT @count")).isEqualTo("2");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SELECT v FROM answers INTO @x"))).isEqualTo(1172);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SELECT k, v FROM answers WHERE k = 1 INTO @x")))
                    .isEqualTo(1222);
            // With a locking clause, inside a transaction.
            statement.execute("BEGIN");
            statement.execute("SELECT v FROM answers WHERE k = 1 FOR UPDATE INTO @locked");
            statement.execute("UPDATE answers SET v = concat(@locked, '!') WHERE k = 1");
            statement.execute("COMMIT");
            assertThat(single(statement, "SELECT v FROM answers WHERE k = 1")).isEqualTo("one!");
        }
    }

    /** The statement's result with its one parameter set, on its first row. */
    private static ResultSet bindAndRun(PreparedStatement statement, int parameter) throws SQLException {
        statement.setInt(1, parameter);
        ResultSet result = statement.executeQuery();
        assertThat(result.next()).isTrue();
        return result;
    }

    @Test
    void preparedStatementsByNameRunWithUserVariables() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE prepared_pairs (k INT PRIMARY KEY, v VARCHAR(10))");
            statement.execute("PREPARE put FROM 'INSERT INTO prepared_pairs VALUES (?, ?)'");
            for (int k = 1; k <= 3; k++) {
                statement.execute("SET @k = " + k + ", @v = 'value " + k + "'");
                statement.execute("EXECUTE put USING @k, @v");
            }
            statement.execute("SET @query = 'SELECT v FROM prepared_pairs WHERE k >= ? ORDER BY k'");
            statement.execute("PREPARE find FROM @query");
            statement.execute("SET @from = 2");
            assertThat(SqlTesting.rows(statement, "EXECUTE find USING @from")).containsExactly("value 2", "value 3");
            statement.execute("PREPARE find FROM 'SELECT count(*) FROM prepared_pairs'");
            assertThat(single(statement, "EXECUTE FIND")).isEqualTo("3");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("EXECUTE put USING @k"))).isEqualTo(1210);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("EXECUTE put USING 1, 2"))).isEqualTo(1064);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("PREPARE bad FROM 'SELEC 1'"))).isEqualTo(1064);
            statement.execute("DEALLOCATE PREPARE put");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("EXECUTE put USING @k, @v"))).isEqualTo(1243);
            statement.execute("DROP PREPARE find");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("DROP PREPARE find"))).isEqualTo(1243);
        }
    }

    @Test
    void badValuesGetMySqlsErrorsAndOutOfRangeValuesAreClampedWithAWarning() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_build_stats_concurrency = 'x'")))
                    .isEqualTo(1232);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_opt_correlation_threshold = 'high'")))
                    .isEqualTo(1232);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_opt_agg_push_down = 'maybe'")))
                    .isEqualTo(1231);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_txn_mode = 'eventual'"))).isEqualTo(1231);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_isolation_read_engines = 'tikv,disk'")))
                    .isEqualTo(1231);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_no_such_variable = 1"))).isEqualTo(1193);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_gc_life_time = '20m'"))).isEqualTo(1229);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET SESSION tidb_ddl_reorg_batch_size = 64")))
                    .isEqualTo(1229);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET GLOBAL tidb_snapshot = ''"))).isEqualTo(1228);
            assertThat(ItSqlBasics.errorOf(() -> statement.executeQuery("SELECT @@global.tidb_snapshot")))
                    .isEqualTo(1238);
            assertThat(ItSqlBasics.errorOf(() -> statement.executeQuery("SELECT @@session.tidb_gc_life_time")))
                    .isEqualTo(1238);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET GLOBAL tidb_gc_life_time = 'soon'")))
                    .isEqualTo(1232);

            statement.execute("SET tidb_build_stats_concurrency = 0");
            assertThat(warnings(statement)).containsExactly("1292 Truncated incorrect tidb_build_stats_concurrency"
                    + " value: '0'");
            assertThat(single(statement, "SELECT @@tidb_build_stats_concurrency")).isEqualTo("1");
            statement.execute("SET tidb_build_stats_concurrency = 1000");
            assertThat(single(statement, "SELECT @@tidb_build_stats_concurrency")).isEqualTo("256");
            statement.execute("SET tidb_opt_correlation_threshold = 1.5");
            assertThat(single(statement, "SELECT @@tidb_opt_correlation_threshold")).isEqualTo("1");
            // -1 is TiDB's "decide automatically" where a variable has it.
            statement.execute("SET tidb_hash_join_concurrency = 8");
            statement.execute("SET tidb_hash_join_concurrency = -1");
            assertThat(single(statement, "SELECT @@tidb_hash_join_concurrency")).isEqualTo("-1");
            statement.execute("SET tidb_opt_agg_push_down = 1, tidb_enable_clustered_index = 'int_only'");
            assertThat(single(statement, "SELECT @@tidb_opt_agg_push_down")).isEqualTo("ON");
            assertThat(single(statement, "SELECT @@tidb_enable_clustered_index")).isEqualTo("INT_ONLY");
            statement.execute("SET tidb_isolation_read_engines = 'TiKV, tidb'");
            assertThat(single(statement, "SELECT @@tidb_isolation_read_engines")).isEqualTo("tikv,tidb");
            statement.execute("SET GLOBAL tidb_gc_life_time = '1m'");
            assertThat(warnings(statement)).containsExactly("1292 Truncated incorrect tidb_gc_life_time value: '1m'");
            assertThat(single(statement, "SELECT @@tidb_gc_life_time")).isEqualTo("10m0s");
            statement.execute("SET GLOBAL tidb_gc_life_time = DEFAULT");
            statement.execute("SET tidb_snapshot = '2026-01-01 10:00:00'");
            assertThat(warnings(statement)).isEmpty();
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("SET tidb_snapshot = 'yesterday'"))).isEqualTo(1231);
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("INSERT INTO t VALUES (1)"))).isEqualTo(1105);
            statement.execute("SET tidb_snapshot = ''");

            // SET GLOBAL needs SUPER, as in MySQL.
            statement.execute("CREATE USER 'analyst'@'%' IDENTIFIED BY 'secret'");
            statement.execute("GRANT SELECT ON test.* TO 'analyst'@'%'");
            try (Connection analyst = DriverManager.getConnection("jdbc:mysql://" + first.address()
                    + "/test?user=analyst&password=secret&useSSL=false");
                    Statement analystStatement = analyst.createStatement()) {
                analystStatement.execute("SET tidb_distsql_scan_concurrency = 2");
                assertThat(ItSqlBasics.errorOf(() -> analystStatement.execute(
                        "SET GLOBAL tidb_distsql_scan_concurrency = 2"))).isEqualTo(1227);
            }
        }
    }

    /** The service safe point the SQL servers keep for tidb_gc_life_time, if any. */
    static Optional<ServiceSafePoint> gcLifeTimeSafePoint() {
        try (PlacementClient placement = cluster.newPlacementClient()) {
            return placement.getGcSafePoint().getServiceSafePointsList().stream()
                    .filter(point -> point.getServiceId().equals("duet-sql-tidb_gc_life_time")).findFirst();
        }
    }

    static Optional<ServiceSafePoint> awaitGcLifeTimeSafePoint(boolean present) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Optional<ServiceSafePoint> point = gcLifeTimeSafePoint();
        while (point.isPresent() != present && System.nanoTime() < deadline) {
            Thread.sleep(200);
            point = gcLifeTimeSafePoint();
        }
        return point;
    }

    static long gcSafePoint() {
        try (PlacementClient placement = cluster.newPlacementClient()) {
            return placement.getGcSafePoint().getSafePoint();
        }
    }

    @Test
    void aGlobalGcLifeTimeHoldsGarbageCollectionBack() throws Exception {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            // None while no global value is set (other tests set one, then drop it).
            assertThat(awaitGcLifeTimeSafePoint(false)).isEmpty();
            statement.execute("SET GLOBAL tidb_gc_life_time = '24h'");
            long heldPoint;
            try {
                // Placement's own GC life time is 10 minutes: GC had reached about that far back, and a day back
                // is already collected, so the service safe point holds GC where it was.
                ServiceSafePoint held = awaitGcLifeTimeSafePoint(true).orElseThrow();
                // Refreshed by the SQL servers (a later expiry) and still in place: GC does not move past it, where
                // without it the safe point would follow the clock (placement advances it every second here).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                ServiceSafePoint refreshed = held;
                while (refreshed.getExpiresAtMs() == held.getExpiresAtMs() && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    refreshed = gcLifeTimeSafePoint().orElseThrow();
                }
                assertThat(refreshed.getExpiresAtMs()).isGreaterThan(held.getExpiresAtMs());
                assertThat(refreshed.getSafePoint()).isEqualTo(held.getSafePoint());
                assertThat(gcSafePoint()).isLessThanOrEqualTo(held.getSafePoint());
                heldPoint = held.getSafePoint();
            } finally {
                statement.execute("SET GLOBAL tidb_gc_life_time = DEFAULT");
            }
            assertThat(awaitGcLifeTimeSafePoint(false)).isEmpty();
            // Released, GC catches up with the clock again.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (gcSafePoint() <= heldPoint && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(gcSafePoint()).isGreaterThan(heldPoint);
        }
    }

    @Test
    void theGlobalReorgBatchSizeDrivesIndexBackfills() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            // The server's configured backfill batch size until SET GLOBAL says otherwise.
            assertThat(single(statement, "SELECT @@tidb_ddl_reorg_batch_size")).isEqualTo("256");
            statement.execute("SET GLOBAL tidb_ddl_reorg_batch_size = 10");
            assertThat(warnings(statement)).containsExactly("1292 Truncated incorrect tidb_ddl_reorg_batch_size"
                    + " value: '10'");
            statement.execute("SET GLOBAL tidb_ddl_reorg_batch_size = 40");
            assertThat(single(statement, "SELECT @@global.tidb_ddl_reorg_batch_size")).isEqualTo("40");
            // The batch size counts rows per backfill transaction: fast reorganization (an import) ignores it.
            statement.execute("SET GLOBAL tidb_ddl_enable_fast_reorg = OFF");
            statement.execute("CREATE TABLE backfilled (id INT PRIMARY KEY, v INT)");
            SqlTesting.insertRows(statement, "backfilled", 1, 500, id -> id + "," + (id % 7));
            double batches = SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total");
            statement.execute("ALTER TABLE backfilled ADD INDEX by_v (v)");
            // 500 rows in batches of 40: twelve full ones and the rest.
            assertThat(SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total") - batches).isEqualTo(13);
            assertThat(single(statement, "SELECT COUNT(*) FROM backfilled WHERE v = 3")).isEqualTo("72");
            assertThat(IndexConsistency.check(cluster, "test", "backfilled", "by_v")).isEmpty();

            // DEFAULT drops the global value: the server's configured batch size (256) applies again.
            statement.execute("SET GLOBAL tidb_ddl_reorg_batch_size = DEFAULT");
            batches = SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total");
            statement.execute("ALTER TABLE backfilled ADD INDEX by_id_v (id, v)");
            assertThat(SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total") - batches).isEqualTo(2);

            // With fast reorganization (the default) a non-unique index is imported in pages of 4,096 rows at least.
            statement.execute("SET GLOBAL tidb_ddl_enable_fast_reorg = DEFAULT");
            batches = SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total");
            statement.execute("ALTER TABLE backfilled ADD INDEX by_v_id (v, id)");
            assertThat(SqlTesting.metric(first, "duet_sql_ddl_backfill_batches_total") - batches).isEqualTo(1);
            assertThat(IndexConsistency.check(cluster, "test", "backfilled", "by_v_id")).isEmpty();
        }
        try (Connection other = connect(second); Statement statement = other.createStatement()) {
            assertThat(single(statement, "SELECT @@tidb_ddl_reorg_batch_size")).isEqualTo("256");
        }
    }
}
