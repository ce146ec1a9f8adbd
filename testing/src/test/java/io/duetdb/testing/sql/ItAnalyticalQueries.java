package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;

/**
 * Analytical SQL over a table split into three regions, with NULLs in every column: scans, aggregations and TopN
 * pushed to the stores' coprocessors give exactly the results of the SQL layer's own evaluation; EXPLAIN shows
 * where each operator runs and EXPLAIN ANALYZE what it did; a query over its memory quota fails cleanly.
 */
class ItAnalyticalQueries {
    private static final int ROWS = 300;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static String url;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        server = SqlTesting.startServer(cluster, config -> { });
        url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&allowPublicKeyRetrieval=true";
        long tableId;
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, qty INT, price DECIMAL(10,2), discount DECIMAL(4,2),"
                    + " weight DOUBLE, ratio FLOAT, name VARCHAR(20), flag CHAR(1), ship DATE, at DATETIME)");
            StringBuilder insert = new StringBuilder("INSERT INTO items VALUES ");
            for (int i = 1; i <= ROWS; i++) {
                insert.append(i > 1 ? "," : "").append('(').append(i).append(',')
                        .append(i % 17 == 0 ? "NULL" : String.valueOf(i % 11)).append(',')
                        .append(i % 19 == 0 ? "NULL" : (i * 37 % 1000) / 10.0).append(',')
                        .append(i % 23 == 0 ? "NULL" : "0.0" + (i % 10)).append(',')
                        .append(i % 13 == 0 ? "NULL" : String.valueOf(i * 0.25)).append(',')
                        .append(i % 29 == 0 ? "NULL" : String.valueOf(i % 7 * 0.5)).append(',')
                        .append(i % 31 == 0 ? "NULL" : "'item" + i + "'").append(',')
                        .append(i % 37 == 0 ? "NULL" : "'" + (char) ('A' + i % 4) + "'").append(',')
                        .append(i % 41 == 0 ? "NULL" : "'" + java.time.LocalDate.of(2024, 1, 1).plusDays(i % 90) + "'").append(',')
                        .append(i % 43 == 0 ? "NULL" : "'" + java.time.LocalDateTime.of(2024, 1, 1, 0, 0).plusMinutes(i * 7919 % 100_000).toString().replace('T', ' ') + "'")
                        .append(')');
            }
            statement.execute(insert.toString());
            try (var result = statement.executeQuery("SELECT TIDB_TABLE_ID FROM information_schema.TABLES WHERE TABLE_NAME = 'items'")) {
                result.next();
                tableId = result.getLong(1);
            }
        }
        try (PlacementClient placement = cluster.newPlacementClient(); StoreAdminCalls admin = new StoreAdminCalls(placement)) {
            admin.split(Keys.recordKey(tableId, 100));
            admin.split(Keys.recordKey(tableId, 200));
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static final List<String> QUERIES = List.of(
            "SELECT * FROM items ORDER BY id",
            "SELECT id, name FROM items WHERE qty > 5 AND price < 50 ORDER BY id",
            "SELECT id FROM items WHERE name LIKE 'item1%' ORDER BY id",
            "SELECT id FROM items WHERE name LIKE '%5' ORDER BY id",
            "SELECT id FROM items WHERE flag IN ('A', 'C') ORDER BY id",
            "SELECT id FROM items WHERE flag NOT IN ('A', 'C') ORDER BY id",
            "SELECT id FROM items WHERE ship BETWEEN DATE '2024-01-10' AND DATE '2024-02-01' ORDER BY id",
            "SELECT id FROM items WHERE qty IS NULL OR price IS NULL ORDER BY id",
            "SELECT id FROM items WHERE NOT (qty > 3) ORDER BY id",
            "SELECT id FROM items WHERE qty > 8 OR weight < 2.5 ORDER BY id",
            "SELECT id FROM items WHERE at >= TIMESTAMP '2024-02-15 12:00:00' ORDER BY id",
            "SELECT id FROM items WHERE ship < at ORDER BY id",
            "SELECT id FROM items WHERE price * (1 - discount) > 20 ORDER BY id",
            "SELECT id FROM items WHERE ratio > 1.5 AND id BETWEEN 50 AND 250 ORDER BY id",
            "SELECT id, qty + 1, -price FROM items WHERE id > 280 ORDER BY id",
            "SELECT COUNT(*), SUM(qty), AVG(price), MIN(name), MAX(ship), SUM(weight), AVG(weight), COUNT(qty), MIN(at),"
                    + " MAX(ratio), SUM(ratio) FROM items",
            "SELECT flag, COUNT(*), SUM(price * (1 - discount)), AVG(qty), MIN(at), MAX(price) FROM items"
                    + " WHERE ship < DATE '2024-03-01' GROUP BY flag ORDER BY flag",
            "SELECT qty, flag, COUNT(*) FROM items GROUP BY qty, flag ORDER BY qty, flag",
            "SELECT COUNT(*), SUM(qty), MAX(name), AVG(price) FROM items WHERE qty > 1000",
            "SELECT flag, COUNT(*) FROM items WHERE qty > 1000 GROUP BY flag",
            "SELECT COUNT(DISTINCT flag), SUM(DISTINCT qty) FROM items",
            "SELECT SUM(id) FROM items WHERE id BETWEEN 150 AND 160",
            "SELECT id, price FROM items WHERE qty > 2 ORDER BY price DESC, id LIMIT 7",
            "SELECT name FROM items ORDER BY name LIMIT 5 OFFSET 3",
            "SELECT id, ship FROM items ORDER BY ship, id LIMIT 10",
            "SELECT id, weight * 2 FROM items WHERE flag = 'B' ORDER BY weight DESC, id LIMIT 4",
            "SELECT COUNT(*) FROM (SELECT id FROM items WHERE qty > 1 LIMIT 13) t",
            "SELECT flag, COUNT(*), SUM(qty) FROM items WHERE ship <= DATE '2024-03-01' - INTERVAL '10' DAY GROUP BY flag"
                    + " ORDER BY flag",
            "SELECT id FROM items WHERE CASE WHEN qty > 5 THEN 'big' WHEN qty IS NULL THEN 'none' ELSE 'small' END = 'big'"
                    + " ORDER BY id",
            "SELECT id FROM items WHERE CASE WHEN qty > 5 THEN qty WHEN qty IS NULL THEN -1 ELSE 0 END > 7 ORDER BY id",
            "SELECT flag, SUM(CASE WHEN qty > 5 THEN 1 ELSE 0 END), COUNT(*) FROM items GROUP BY flag ORDER BY flag",
            "SELECT EXTRACT(YEAR FROM ship), EXTRACT(MONTH FROM at), COUNT(*) FROM items"
                    + " GROUP BY EXTRACT(YEAR FROM ship), EXTRACT(MONTH FROM at) ORDER BY 1, 2",
            "SELECT SUBSTRING(name, 1, 5), SUBSTRING(name, -2), COUNT(*) FROM items GROUP BY SUBSTRING(name, 1, 5),"
                    + " SUBSTRING(name, -2) ORDER BY 1, 2",
            "SELECT SUM(CASE WHEN flag = 'A' THEN price ELSE 0 END), SUM(CAST(qty AS DECIMAL(10, 2))), AVG(CAST(id AS DOUBLE))"
                    + " FROM items",
            // Division by zero (qty and discount hold zeros) is NULL; scales follow the dividend's plus four.
            "SELECT id, price / qty, qty / 3, price / discount, weight / qty, id % 7, qty % 4, weight % 3, -id % 4,"
                    + " id / -7 FROM items ORDER BY id",
            "SELECT flag, SUM(price / qty), SUM(id % 5), MAX(weight / ratio), COUNT(qty / 0) FROM items WHERE price / 2 > 10"
                    + " GROUP BY flag ORDER BY flag",
            "SELECT id FROM items WHERE MOD(id, 9) = 4 AND qty / 4 < 1.5 ORDER BY id",
            // Remainders of decimals: the larger scale, the dividend's sign, NULL for a zero divisor.
            "SELECT id, price % qty, price % discount, qty % discount, price % 0.7, MOD(-id, 2.5), 0 % discount FROM items"
                    + " ORDER BY id",
            "SELECT flag, SUM(price % 3), SUM(MOD(qty, 1.5)), COUNT(*) FROM items WHERE price % discount > 0.01 GROUP BY flag"
                    + " ORDER BY flag",
            "SELECT CASE WHEN qty > 5 THEN name WHEN qty IS NULL THEN flag ELSE 'few' END AS kind, COUNT(*) FROM items"
                    + " GROUP BY kind ORDER BY kind",
            "SELECT MIN(CASE flag WHEN 'A' THEN name ELSE 'x' END), MAX(CASE WHEN qty > 3 THEN flag END) FROM items");

    @Test
    void pushedDownResultsMatchTheSqlLayer() throws SQLException {
        double before = coprocessorRequests();
        List<List<String>> pushed = runAll("ON");
        double afterPushed = coprocessorRequests();
        List<List<String>> local = runAll("OFF");
        double afterLocal = coprocessorRequests();
        for (int i = 0; i < QUERIES.size(); i++) {
            assertThat(pushed.get(i)).as(QUERIES.get(i)).isEqualTo(local.get(i));
        }
        assertThat(pushed.get(0)).hasSize(ROWS);
        // Three regions per pushed scan: most of the queries went to the stores, none did with push-down off.
        assertThat(afterPushed - before).isGreaterThanOrEqualTo(3 * 15);
        assertThat(afterLocal).isEqualTo(afterPushed);
    }

    @Test
    void aTransactionSeesItsOwnWritesAndErrorsKeepTheirCodes() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("BEGIN");
            statement.execute("INSERT INTO items (id, qty, name) VALUES (10001, 5, 'fresh')");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM items WHERE name = 'fresh'")).containsExactly("1");
            statement.execute("ROLLBACK");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM items WHERE name = 'fresh'")).containsExactly("0");
            List<Integer> codes = new ArrayList<>();
            for (String mode : List.of("ON", "OFF")) {
                statement.execute("SET duet_coprocessor_push_down = " + mode);
                try {
                    SqlTesting.rows(statement, "SELECT id FROM items WHERE qty * 9223372036854775807 > 0");
                    codes.add(0);
                } catch (SQLException e) {
                    codes.add(e.getErrorCode());
                }
            }
            assertThat(codes.get(0)).isNotZero().isEqualTo(codes.get(1));
        }
    }

    @Test
    void remaindersOfDecimalsHaveTheLargerScaleAndTheDividendsSignInTheStoresAndTheSqlLayer() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE remainders (id INT PRIMARY KEY, a DECIMAL(10,2), b DECIMAL(5,3), c INT)");
            statement.execute("INSERT INTO remainders VALUES (1, 10.50, 3.125, 7), (2, -7.25, 2.000, -3), (3, NULL, 1.5, 0),"
                    + " (4, 99999999.99, 0.007, 2147483647)");
            String query = "SELECT id, a % b, MOD(a, b), a % c, c % b, MOD(c, 2.5), a % 0 FROM remainders"
                    + " WHERE a % b > -5 OR a IS NULL ORDER BY id";
            for (String mode : List.of("ON", "OFF")) {
                statement.execute("SET duet_coprocessor_push_down = " + mode);
                // What MySQL 8.0 answers for the same rows.
                assertThat(SqlTesting.rows(statement, query)).as(mode).containsExactly(
                        "1|1.125|1.125|3.50|0.750|2.0|null",
                        "2|-1.250|-1.250|-1.25|-1.000|-0.5|null",
                        "3|null|null|null|0.000|0.0|null",
                        "4|0.002|0.002|99999999.99|0.006|2.0|null");
                assertThat(SqlTesting.rows(statement, "SELECT 0 % 1.5, 10.5 % 3, MOD(-7.25, 2), 7 % 2.5, 7 % -2"))
                        .containsExactly("0.0|1.5|-1.25|2.0|1");
            }
            statement.execute("SET duet_coprocessor_push_down = ON");
            assertThat(explain(statement, "SELECT id FROM remainders WHERE a % b > 1"))
                    .contains("  └─Selection|cop[tikv]||(mod(a, b) > 1)");
        }
    }

    @Test
    void explainShowsWhatRunsInTheStores() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(explain(statement, "SELECT flag, COUNT(*), SUM(price) FROM items WHERE qty > 3 GROUP BY flag"))
                    .containsExactly(
                            "HashAgg|root||group by: flag; funcs: count(), sum(price) (final, over partial results)",
                            "└─TableReader|root||data: 3 executor(s) in the stores, regions in parallel",
                            "  └─HashAgg|cop[tikv]||partial: 1 group key(s), [COUNT, SUM]",
                            "    └─Selection|cop[tikv]||(qty > 3)",
                            "      └─TableFullScan|cop[tikv]|table:items|3 column(s) read");
            assertThat(explain(statement, "DESC SELECT id, name FROM items WHERE name LIKE 'item1%' AND id > 20"
                    + " ORDER BY id DESC LIMIT 3"))
                    .containsExactly(
                            "TopN|root||order by: id desc; limit: 3",
                            "└─Projection|root||id, name",
                            "  └─TableReader|root||data: 3 executor(s) in the stores, regions in parallel",
                            "    └─TopN|cop[tikv]||limit 3 per region",
                            "      └─Selection|cop[tikv]||like(name, 'item1%') and (id > 20)",
                            "        └─TableRangeScan|cop[tikv]|table:items|2 column(s) read");
            // Ascending by the clustered key, the scan's own order: a limit stops each region's scan (same rows as a
            // top N by an expression of the key).
            String ascending = "SELECT id, name FROM items WHERE name LIKE 'item1%' AND id > 20 ORDER BY id LIMIT 3";
            assertThat(explain(statement, ascending)).contains("    └─Limit|cop[tikv]||limit 3 per region");
            assertThat(SqlTesting.rows(statement, ascending)).hasSize(3).isEqualTo(SqlTesting.rows(statement,
                    "SELECT id, name FROM items WHERE name LIKE 'item1%' AND id > 20 ORDER BY id + 0 LIMIT 3"));
            // Constant expressions the stores cannot compute (date arithmetic) are computed once and sent as literals.
            assertThat(explain(statement, "SELECT COUNT(*) FROM items WHERE ship <= DATE '2024-03-01' - INTERVAL '10' DAY"))
                    .contains("  └─HashAgg|cop[tikv]||partial: 0 group key(s), [COUNT]");
            // Division, remainders and CASE giving strings are evaluated in the stores.
            assertThat(explain(statement, "SELECT SUM(price / qty), MIN(CASE WHEN qty > 3 THEN name ELSE flag END) FROM items"
                    + " WHERE id % 2 = 0"))
                    .contains("  └─HashAgg|cop[tikv]||partial: 0 group key(s), [SUM, MIN]",
                            "    └─Selection|cop[tikv]||(mod(id, 2) = 0)");
            // What the stores cannot evaluate stays in the SQL layer, over the rows that come back.
            assertThat(explain(statement, "EXPLAIN SELECT id FROM items WHERE qty > 3 AND TRIM(name) = 'item7'"))
                    .containsExactly("Projection|root||id",
                            "└─Selection|root||residual: (trim(FLAG(BOTH), ' ', name) = 'item7')",
                            "  └─TableReader|root||data: 2 executor(s) in the stores, regions in parallel",
                            "    └─Selection|cop[tikv]||(qty > 3)",
                            "      └─TableFullScan|cop[tikv]|table:items|3 column(s) read");
            // String and numeric functions the stores evaluate.
            assertThat(explain(statement, "EXPLAIN SELECT id FROM items WHERE UPPER(name) = 'ITEM7' AND ABS(qty - 5) < 2"
                    + " AND CHAR_LENGTH(CONCAT(name, flag)) > 3 AND FLOOR(price) > 1 AND ASCII(flag) > 64"))
                    .anySatisfy(line -> assertThat(line).startsWith("    └─Selection|cop[tikv]||")
                            .contains("upper(name)").contains("abs(").contains("floor(price)").contains("ascii(flag)"));
            assertThat(explain(statement, "EXPLAIN SELECT name FROM items WHERE id = 7"))
                    .containsExactly("Projection|root||name",
                            "└─Point_Get|root|table:items, handle:id|point get of 1 handle(s), condition: (id = 7)");
            statement.execute("SET duet_coprocessor_push_down = OFF");
            assertThat(explain(statement, "EXPLAIN SELECT COUNT(*) FROM items WHERE qty > 3"))
                    .containsExactly("HashAgg|root||funcs: count()",
                            "└─TableReader|root|table:items|table scan, condition: (qty > 3)");
        }
    }

    @Test
    void groupsInTheScansOrderAreAggregatedAsStreamsInTheStores() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE readings (id BIGINT PRIMARY KEY, sensor INT, day INT, reading INT,"
                    + " KEY by_sensor_day (sensor, day))");
            SqlTesting.insertRows(statement, "readings", 1, 3_000,
                    i -> i + "," + i % 5 + "," + (i % 7 == 0 ? "NULL" : String.valueOf(i % 9)) + "," + i % 100);
            // The index range scan gives (sensor, day) in order: the stores find groups by comparing neighbours.
            String byIndex = "SELECT sensor, day, COUNT(*), MAX(id), MIN(id) FROM readings WHERE sensor = 3"
                    + " GROUP BY day, sensor ORDER BY day";
            assertThat(explain(statement, byIndex)).anyMatch(line -> line.contains("StreamAgg|cop[tikv]||in scan order"))
                    .anyMatch(line -> line.contains("StreamAgg|root||group by: day, sensor; funcs: count(), max(id), min(id)"
                            + " (final, over partial results in group order)"))
                    .anyMatch(line -> line.contains("IndexRangeScan|cop[tikv]|table:readings, index:by_sensor_day"));
            // Every sensor, the groups of a region boundary merged in order.
            // Ordered: without push-down, once the automatic analysis made a record scan cheaper, groups come in the
            // order of the records.
            String wholeIndex = "SELECT sensor, COUNT(*), SUM(day) FROM readings WHERE sensor >= 0 GROUP BY sensor"
                    + " ORDER BY sensor";
            assertThat(explain(statement, wholeIndex)).anyMatch(line -> line.contains("StreamAgg|cop[tikv]"));
            // A group key that is not the index's first column: hash aggregation.
            String notPrefix = "SELECT day, COUNT(*) FROM readings WHERE sensor = 3 GROUP BY day ORDER BY day";
            assertThat(explain(statement, notPrefix)).anyMatch(line -> line.contains("HashAgg|cop[tikv]"))
                    .noneMatch(line -> line.contains("StreamAgg"));
            // Records come in clustered-key order: grouping by it streams too.
            String byKey = "SELECT id, COUNT(*), SUM(reading) FROM readings GROUP BY id ORDER BY id LIMIT 5";
            assertThat(explain(statement, byKey)).anyMatch(line -> line.contains("StreamAgg|cop[tikv]"));
            // Merged over batches (vectorized execution), merged as rows, and aggregated without push-down.
            List<List<String>> pushed = new ArrayList<>();
            List<List<String>> mergedAsRows = new ArrayList<>();
            List<List<String>> local = new ArrayList<>();
            for (String query : List.of(byIndex, notPrefix, byKey, wholeIndex)) {
                statement.execute("SET duet_coprocessor_push_down = ON");
                pushed.add(SqlTesting.rows(statement, query));
                statement.execute("SET duet_vectorized_execution = OFF");
                mergedAsRows.add(SqlTesting.rows(statement, query));
                statement.execute("SET duet_vectorized_execution = ON");
                statement.execute("SET duet_coprocessor_push_down = OFF");
                local.add(SqlTesting.rows(statement, query));
            }
            statement.execute("SET duet_coprocessor_push_down = ON");
            assertThat(pushed).isEqualTo(local);
            assertThat(mergedAsRows).isEqualTo(local);
            // sensor 3: i = 3, 8, ... (600 rows); day NULL where i is also a multiple of 7 (28, 63, ..., 2968), first in order.
            assertThat(pushed.get(0).get(0)).isEqualTo("3|null|85|2968|28");
            assertThat(pushed.get(0)).hasSize(10);
            assertThat(pushed.get(2)).containsExactly("1|1|1", "2|1|2", "3|1|3", "4|1|4", "5|1|5");
            assertThat(pushed.get(3)).hasSize(5).allMatch(row -> row.split("\\|")[1].equals("600"));
        }
    }

    @Test
    void inputsAscendingByTheirJoinKeyAreMergeJoined() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(20), opened INT)");
            statement.execute("CREATE TABLE balances (account BIGINT PRIMARY KEY, amount DECIMAL(12, 2), note VARCHAR(10))");
            SqlTesting.insertRows(statement, "accounts", 1, 2_000,
                    i -> i + ",'owner" + i % 37 + "'," + (i % 5 == 0 ? "NULL" : String.valueOf(2000 + i % 20)));
            // Every third account has no balance, and balances exist for ids no account has.
            SqlTesting.insertRows(statement, "balances", 1, 2_000, i -> (i % 3 == 0 ? 5_000 + i : i) + ","
                    + i * 7 % 1000 + ".25," + (i % 4 == 0 ? "NULL" : "'n" + i % 4 + "'"));
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            List<String> queries = List.of(
                    "SELECT a.id, a.owner, b.amount FROM accounts a JOIN balances b ON a.id = b.account ORDER BY a.id",
                    "SELECT a.id, b.amount, b.note FROM accounts a LEFT JOIN balances b ON a.id = b.account AND b.note <> 'n1'"
                            + " ORDER BY a.id",
                    "SELECT COUNT(*), SUM(b.amount) FROM accounts a JOIN balances b ON b.account = a.id WHERE a.opened > 2005",
                    "SELECT a.id FROM accounts a WHERE EXISTS (SELECT 1 FROM balances b WHERE b.account = a.id"
                            + " AND b.amount > 500) ORDER BY a.id",
                    // A condition over both sides, and one over the left side alone that a left join keeps.
                    "SELECT a.id, a.opened, b.amount FROM accounts a LEFT JOIN balances b ON a.id = b.account"
                            + " AND a.opened > 2010 AND b.amount > a.opened / 10 ORDER BY a.id",
                    "SELECT a.owner, COUNT(*), SUM(b.amount) FROM accounts a JOIN balances b ON a.id = b.account"
                            + " AND b.note IS NOT NULL GROUP BY a.owner ORDER BY a.owner");
            for (String query : List.of(queries.get(0), queries.get(1), queries.get(2), queries.get(4))) {
                assertThat(explain(statement, query)).as(query).anyMatch(line -> line.contains("MergeJoin|root"));
            }
            // Merged on batches, merged on rows, and hash-joined (push-down off: the order of the rows is not known).
            List<List<String>> merged = new ArrayList<>();
            List<List<String>> mergedRows = new ArrayList<>();
            List<List<String>> hashed = new ArrayList<>();
            for (String query : queries) {
                merged.add(SqlTesting.rows(statement, query));
                statement.execute("SET duet_vectorized_execution = OFF");
                mergedRows.add(SqlTesting.rows(statement, query));
                statement.execute("SET duet_coprocessor_push_down = OFF");
                hashed.add(SqlTesting.rows(statement, query));
                statement.execute("SET duet_coprocessor_push_down = ON");
                statement.execute("SET duet_vectorized_execution = ON");
            }
            for (int i = 0; i < queries.size(); i++) {
                assertThat(merged.get(i)).as(queries.get(i)).isEqualTo(hashed.get(i));
                assertThat(mergedRows.get(i)).as(queries.get(i)).isEqualTo(hashed.get(i));
            }
            assertThat(merged.get(0)).hasSize(1_334);
            assertThat(merged.get(1)).hasSize(2_000);
            assertThat(merged.get(4)).hasSize(2_000);
            for (String query : List.of(queries.get(0), queries.get(1), queries.get(2), queries.get(4))) {
                List<String> analyzed = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + query);
                assertThat(analyzed).as(String.join("\n", analyzed))
                        .anyMatch(row -> row.contains("MergeJoin|") && row.contains("vectorized"));
            }
            // With lookups possible, the outer side is read first: past the limit, the inputs are merged after all.
            statement.execute("SET duet_index_join_max_outer_rows = 500");
            for (int i = 0; i < queries.size(); i++) {
                assertThat(SqlTesting.rows(statement, queries.get(i))).as(queries.get(i)).isEqualTo(hashed.get(i));
            }
            List<String> chosen = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(0));
            assertThat(chosen).as(String.join("\n", chosen))
                    .anyMatch(row -> row.contains("MergeJoin|") && row.contains("vectorized"));
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            statement.execute("SET duet_vectorized_execution = OFF");
            List<String> onRows = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(2));
            assertThat(onRows).as(String.join("\n", onRows))
                    .anyMatch(row -> row.contains("MergeJoin|") && !row.contains("vectorized"));
            statement.execute("SET duet_vectorized_execution = ON");
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
        }
    }

    @Test
    void explainAnalyzeReportsWhatEachOperatorDid() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            List<String> rows = SqlTesting.rows(statement,
                    "EXPLAIN ANALYZE SELECT flag, COUNT(*) FROM items WHERE qty > 3 GROUP BY flag");
            // id | estRows | actRows | task | access object | execution info | operator info | memory
            String[] aggregate = rows.get(0).split("\\|", -1);
            assertThat(aggregate).hasSize(8);
            assertThat(aggregate[0]).isEqualTo("HashAgg");
            assertThat(aggregate[2]).isEqualTo(String.valueOf(SqlTesting.rows(statement,
                    "SELECT COUNT(DISTINCT flag) + MAX(CASE WHEN flag IS NULL THEN 1 ELSE 0 END) FROM items WHERE qty > 3").get(0)));
            assertThat(aggregate[5]).startsWith("time: ");
            assertThat(aggregate[7]).endsWith("B");
            // The stores' own counts: every row scanned, one partial group per flag and region returned.
            String[] reader = rows.get(1).split("\\|", -1);
            assertThat(reader[0]).isEqualTo("└─TableReader");
            assertThat(reader[5]).startsWith("cop: 3 region answer(s), store time: ");
            long partialGroups = Long.parseLong(reader[2]);
            assertThat(partialGroups).isBetween(Long.parseLong(aggregate[2]), 3 * Long.parseLong(aggregate[2]));
            String[] scan = rows.get(rows.size() - 1).split("\\|", -1);
            assertThat(scan[0]).endsWith("TableFullScan");
            assertThat(scan[2]).isEqualTo(String.valueOf(ROWS));
            String[] selection = rows.get(rows.size() - 2).split("\\|", -1);
            assertThat(selection[0]).endsWith("Selection");
            assertThat(selection[6]).isEqualTo("(qty > 3)");
            // Every executor in the stores reports its rows: the selection's are the matching rows of all regions,
            // the partial aggregation's the groups the reader received.
            assertThat(selection[2]).isEqualTo(SqlTesting.rows(statement, "SELECT COUNT(*) FROM items WHERE qty > 3").get(0));
            assertThat(selection[5]).startsWith("store time: ");
            String[] partial = rows.get(rows.size() - 3).split("\\|", -1);
            assertThat(partial[0]).endsWith("HashAgg");
            assertThat(partial[3]).isEqualTo("cop[tikv]");
            assertThat(partial[2]).isEqualTo(reader[2]);

            // A projection computed in the stores: its rows are the rows that came back.
            List<String> projected = SqlTesting.rows(statement,
                    "EXPLAIN ANALYZE SELECT id, price * (1 - discount) FROM items WHERE qty > 3");
            assertThat(projected.get(0)).startsWith("TableReader|");
            String[] projection = projected.get(1).split("\\|", -1);
            assertThat(projection[0]).isEqualTo("└─Projection");
            assertThat(projection[2]).isEqualTo(selection[2]);
            assertThat(projection[6]).isEqualTo("id, (price * (1 - discount))");
        }
    }

    @Test
    void aQueryOverItsMemoryQuotaFailsAndTheSessionGoesOn() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SET tidb_mem_quota_query = 200000");
            String join = "SELECT a.id, b.id FROM items a JOIN items b ON a.flag = b.flag ORDER BY a.id, b.id";
            for (String mode : List.of("ON", "OFF")) {
                statement.execute("SET duet_coprocessor_push_down = " + mode);
                try {
                    SqlTesting.rows(statement, join);
                    org.junit.jupiter.api.Assertions.fail("the sort of " + ROWS + " rows joined with themselves fits in 200 KB");
                } catch (SQLException e) {
                    assertThat(e.getErrorCode()).isEqualTo(8175);
                    assertThat(e.getMessage()).contains("tidb_mem_quota_query");
                }
            }
            // Only what operators hold counts: the same join's rows stream from the probe side into an aggregation.
            statement.execute("SET duet_coprocessor_push_down = ON");
            String counted = "SELECT COUNT(*), SUM(a.qty), MAX(b.id) FROM items a JOIN items b ON a.flag = b.flag";
            List<String> streamed = SqlTesting.rows(statement, counted);
            statement.execute("SET tidb_mem_quota_query = 1073741824");
            assertThat(streamed).isEqualTo(SqlTesting.rows(statement, counted));
            assertThat(Long.parseLong(streamed.get(0).split("\\|")[0])).isGreaterThan(ROWS * 10L);
            statement.execute("SET tidb_mem_quota_query = 200000");
            // A scan's answers from the stores count before they become rows.
            statement.execute("SET duet_coprocessor_push_down = ON");
            statement.execute("SET tidb_mem_quota_query = 5000");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlTesting.rows(statement, "SELECT * FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(8175);
                        assertThat(e.getMessage()).contains("the stores' answers");
                    });
            statement.execute("SET tidb_mem_quota_query = 200000");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM items")).containsExactly(String.valueOf(ROWS));
            statement.execute("SET tidb_mem_quota_query = 1073741824");
            assertThat(SqlTesting.rows(statement, join)).hasSizeGreaterThan(ROWS * 10);
        }
    }

    @Test
    void analyzeTableGathersStatisticsThatPlanningUses() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "ANALYZE TABLE items")).containsExactly("test.items|analyze|status|OK");
            assertThat(SqlTesting.rows(statement, "SHOW STATS_META")).anySatisfy(row ->
                    assertThat(row).startsWith("test|items|").endsWith("|0|" + ROWS));
            List<String> histograms = SqlTesting.rows(statement, "SHOW STATS_HISTOGRAMS");
            // Db_name|Table_name|Partition_name|Column_name|Is_index|Update_time|Distinct_count|Null_count|...
            // Distinct counts come from a HyperLogLog sketch: within a few percent, exact for few values.
            assertThat(Long.parseLong(column(histograms, "id")[6])).isBetween(ROWS - 9L, (long) ROWS);
            assertThat(column(histograms, "id")[7]).isEqualTo("0");
            // qty: i % 11 over 300 rows (11 values), NULL for multiples of 17 (17 rows).
            assertThat(column(histograms, "qty")[6]).isEqualTo("11");
            assertThat(column(histograms, "qty")[7]).isEqualTo("17");
            assertThat(column(histograms, "flag")[6]).isEqualTo("4");
            assertThat(Long.parseLong(column(histograms, "name")[6])).isBetween(280L, 300L);
            // Calcite's estimate for a scan is now the analyzed row count (it was its default of 100).
            List<String> plan = SqlTesting.rows(statement, "EXPLAIN SELECT id FROM items");
            assertThat(plan.get(0).split("\\|")[1]).isEqualTo(ROWS + ".00");
            // qty = 3 holds for 26 rows; the frequent values give that count (Calcite would guess 15% of the rows).
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT id FROM items WHERE qty = 3").get(0).split("\\|")[1])
                    .isEqualTo("26.00");
            // Ranges come from the histogram: ship < '2024-01-31' holds for about a third of the dates.
            double range = Double.parseDouble(SqlTesting.rows(statement,
                    "EXPLAIN SELECT id FROM items WHERE ship < DATE '2024-01-31'").get(0).split("\\|")[1]);
            assertThat(range).isBetween(80.0, 120.0);
            statement.execute("SET duet_coprocessor_push_down = OFF");
            assertThat(SqlTesting.rows(statement, "ANALYZE TABLE items, test.items")).hasSize(2);
        }
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.execute("ANALYZE TABLE missing"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
        }
    }

    @Test
    void indexStatisticsPriceEqualitiesOnCorrelatedColumns() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // A zip code determines its city: the columns are correlated, not independent.
            statement.execute("CREATE TABLE addresses (id INT PRIMARY KEY, city INT, zip INT, street VARCHAR(20),"
                    + " KEY by_city_zip (city, zip))");
            SqlTesting.insertRows(statement, "addresses", 1, 2_000, i -> i + "," + i % 10 + "," + i % 100 + ",'street "
                    + i % 7 + "'");
            statement.execute("ANALYZE TABLE addresses");
            List<String> histograms = SqlTesting.rows(statement, "SHOW STATS_HISTOGRAMS");
            String[] index = histograms.stream().map(row -> row.split("\\|", -1))
                    .filter(row -> row[1].equals("addresses") && row[3].equals("by_city_zip")).findFirst().orElseThrow();
            assertThat(index[4]).isEqualTo("1");
            // Distinct counts come from HyperLogLog sketches: within a few percent.
            assertThat(Long.parseLong(index[6])).isBetween(96L, 104L);
            // 20 rows have city 3 and zip 13; taken as independent the two columns would give 2000 / 10 / 100 = 2.
            double estimate = Double.parseDouble(SqlTesting.rows(statement,
                    "EXPLAIN SELECT id FROM addresses WHERE city = 3 AND zip = 13").get(0).split("\\|")[1]);
            assertThat(estimate).isBetween(19.0, 21.0);
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM addresses WHERE city = 3 AND zip = 13"))
                    .containsExactly("20");
            // The index's second column alone is no prefix: its own statistics price it (2000 / 100).
            assertThat(Double.parseDouble(SqlTesting.rows(statement,
                    "EXPLAIN SELECT id FROM addresses WHERE zip = 13").get(0).split("\\|")[1])).isBetween(19.0, 21.0);
            // Three equalities: the pair the index covers, times the street's own fraction (1/7).
            assertThat(Double.parseDouble(SqlTesting.rows(statement,
                    "EXPLAIN SELECT id FROM addresses WHERE zip = 13 AND street = 'street 3' AND city = 3")
                    .get(0).split("\\|")[1])).isBetween(2.5, 3.2);
        }
    }

    @Test
    void aRangeAfterIndexEqualitiesIsReadFromTheIndexHistogram() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // Each warehouse has its own days: warehouse w ships on days w * 1000 to w * 1000 + 999, a day each.
            statement.execute("CREATE TABLE dispatches (id INT PRIMARY KEY, warehouse INT, day INT, weight INT,"
                    + " KEY by_warehouse_day (warehouse, day))");
            SqlTesting.insertRows(statement, "dispatches", 0, 2_999, i -> i + "," + i % 3 + "," + (i % 3 * 1_000 + i / 3)
                    + "," + i % 17);
            statement.execute("ANALYZE TABLE dispatches");
            String firstHalf = "SELECT id FROM dispatches WHERE warehouse = 1 AND day >= 1000 AND day < 1500";
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM (" + firstHalf + ") t")).containsExactly("500");
            // Taken as independent: 3000 / 3 * (500 / 3000) = 167. The index's tuples know warehouse 1's days.
            assertThat(estimatedRows(statement, firstHalf)).isBetween(430.0, 570.0);
            String noneOfItsDays = "SELECT id FROM dispatches WHERE warehouse = 1 AND day < 600";
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM (" + noneOfItsDays + ") t")).containsExactly("0");
            assertThat(estimatedRows(statement, noneOfItsDays)).isLessThan(40.0);
            // An open upper bound, and a bound the other way round.
            assertThat(estimatedRows(statement, "SELECT id FROM dispatches WHERE warehouse = 2 AND 2800 <= day"))
                    .isBetween(150.0, 250.0);
            // Without an equality on the index's first column, the columns' own histograms price the range.
            assertThat(estimatedRows(statement, "SELECT id FROM dispatches WHERE day < 1500")).isBetween(1_430.0, 1_570.0);
            assertThat(SqlTesting.rows(statement, firstHalf + " AND weight = 3"))
                    .isEqualTo(SqlTesting.rows(statement, "SELECT id FROM dispatches WHERE warehouse = 1 AND day >= 1000"
                            + " AND day < 1500 AND weight + 0 = 3"));
        }
    }

    @Test
    void frequentIndexTuplesArePricedByTheirOwnCounts() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // Half of the deliveries go to region 1's depot 1; the rest spread over 100 (region, depot) pairs.
            statement.execute("CREATE TABLE deliveries (id INT PRIMARY KEY, region INT, depot INT, KEY by_depot (region, depot))");
            SqlTesting.insertRows(statement, "deliveries", 1, 3_000, i -> i <= 1_500 ? i + ",1,1" : i + "," + i % 10 + "," + i % 100);
            statement.execute("ANALYZE TABLE deliveries");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM deliveries WHERE region = 1 AND depot = 1"))
                    .containsExactly("1515");
            // Priced by the tuples' distinct count alone, every pair would be 3000 / 100 = 30 rows.
            assertThat(estimatedRows(statement, "SELECT id FROM deliveries WHERE region = 1 AND depot = 1"))
                    .isBetween(1_400.0, 1_600.0);
            assertThat(estimatedRows(statement, "SELECT id FROM deliveries WHERE region = 2 AND depot = 2"))
                    .isBetween(12.0, 18.0);
            assertThat(SqlTesting.rows(statement, "SHOW STATS_TOPN"))
                    .anyMatch(row -> row.startsWith("test|deliveries||by_depot|1|(1, 1)|1515"))
                    .anyMatch(row -> row.startsWith("test|deliveries||depot|0|1|"));
            List<String[]> buckets = SqlTesting.rows(statement, "SHOW STATS_BUCKETS").stream().map(row -> row.split("\\|", -1))
                    .filter(row -> row[1].equals("deliveries") && row[3].equals("by_depot")).toList();
            assertThat(buckets).isNotEmpty();
            assertThat(buckets.get(0)[4]).isEqualTo("1");
            assertThat(buckets.get(0)[8]).isEqualTo("(0, 0)");
            // The (1, 1) tuples fill a bucket of their own; the last bucket counts every row.
            assertThat(buckets).anyMatch(row -> row[9].equals("(1, 1)") && Long.parseLong(row[7]) == 1_515);
            assertThat(buckets.get(buckets.size() - 1)[6]).isEqualTo("3000");
            assertThat(buckets.get(buckets.size() - 1)[9]).isEqualTo("(9, 99)");
        }
    }

    private static double estimatedRows(Statement statement, String query) throws SQLException {
        return Double.parseDouble(SqlTesting.rows(statement, "EXPLAIN " + query).get(0).split("\\|")[1]);
    }

    @Test
    void tablesAreAnalyzedAutomaticallyAfterEnoughWrites() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE written (id INT PRIMARY KEY, value INT)");
            StringBuilder insert = new StringBuilder("INSERT INTO written VALUES ");
            for (int i = 1; i <= 1_200; i++) {
                insert.append(i > 1 ? "," : "").append('(').append(i).append(',').append(i % 7).append(')');
            }
            statement.execute(insert.toString());
            // Never analyzed, 1,200 written rows: the next statistics round analyzes it (every 10 s).
            io.duetdb.testing.LocalCluster.await("automatic analysis of table written", java.time.Duration.ofSeconds(40),
                    () -> {
                        try {
                            return SqlTesting.rows(statement, "SHOW STATS_META").stream()
                                    .anyMatch(row -> row.startsWith("test|written|") && row.endsWith("|0|1200"));
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                    });
        }
    }

    private static String[] column(List<String> histograms, String name) {
        return histograms.stream().map(row -> row.split("\\|", -1)).filter(row -> row[1].equals("items") && row[3].equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no statistics of column " + name + ": " + histograms));
    }

    @Test
    void accessPathsArePricedByTheirCostsOnceTheTableIsAnalyzed() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE shipments (id BIGINT PRIMARY KEY, kind VARCHAR(10), amount INT, note VARCHAR(40),"
                    + " KEY by_kind (kind), KEY by_amount (amount), UNIQUE KEY by_note (note))");
            StringBuilder insert = new StringBuilder("INSERT INTO shipments VALUES ");
            long rareAmounts = 0;
            long commonAmounts = 0;
            for (int i = 1; i <= 2_000; i++) {
                boolean rare = i % 200 == 0;
                insert.append(i > 1 ? "," : "").append('(').append(i).append(",'").append(rare ? "rare" : "common")
                        .append("',").append(i % 100).append(",'shipment number ").append(i).append("')");
                rareAmounts += rare ? i % 100 : 0;
                commonAmounts += rare ? 0 : i % 100;
            }
            statement.execute(insert.toString());
            String rare = "SELECT id, amount FROM shipments WHERE kind = 'rare'";
            String common = "SELECT COUNT(*), SUM(amount) FROM shipments WHERE kind = 'common'";
            // Not analyzed: the rule takes any index whose leading column the condition fixes.
            assertThat(explain(statement, common)).anySatisfy(line -> assertThat(line).contains("index by_kind range"));
            statement.execute("ANALYZE TABLE shipments");
            // Analyzed: ten rows through the index cost less than reading all 2,000 records...
            assertThat(explain(statement, rare)).anySatisfy(line -> assertThat(line)
                    .contains("table:shipments|index by_kind range, then rows (est. 10 rows, cost").contains("table scan: cost"));
            assertThat(SqlTesting.rows(statement, rare + " ORDER BY id")).containsExactly("200|0", "400|0", "600|0",
                    "800|0", "1000|0", "1200|0", "1400|0", "1600|0", "1800|0", "2000|0");
            // ...and 1,990 of them cost more through the index than a scan, which then goes to the stores.
            assertThat(explain(statement, common)).anySatisfy(line -> assertThat(line)
                    .contains("regions in parallel; table scan: est. cost").contains("cheaper than index by_kind range, then rows"))
                    .anySatisfy(line -> assertThat(line).contains("TableFullScan|cop[tikv]|table:shipments"));
            assertThat(SqlTesting.rows(statement, common)).containsExactly("1990|" + commonAmounts);
            assertThat(SqlTesting.rows(statement, "SELECT SUM(amount) FROM shipments WHERE kind = 'rare'"))
                    .containsExactly(String.valueOf(rareAmounts));
            // A narrow range of the second index goes through it; a wide one does not.
            assertThat(explain(statement, "SELECT id, note FROM shipments WHERE amount BETWEEN 5 AND 6"))
                    .anySatisfy(line -> assertThat(line).contains("index by_amount range, then rows"));
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*), MIN(id), MAX(id) FROM shipments"
                    + " WHERE amount BETWEEN 5 AND 6")).containsExactly("40|5|1906");
            assertThat(explain(statement, "SELECT id, note FROM shipments WHERE amount >= 2"))
                    .anySatisfy(line -> assertThat(line).contains("cheaper than index by_amount range"));
            // The factors are the session's: when a seek costs as much as a billion bytes, the narrow range's forty
            // double-read seeks outweigh one scan.
            statement.execute("SET duet_opt_seek_factor = 1e9");
            assertThat(SqlTesting.rows(statement, "SELECT @@duet_opt_seek_factor")).containsExactly("1e9");
            assertThat(explain(statement, "SELECT id, note FROM shipments WHERE amount BETWEEN 5 AND 6"))
                    .anySatisfy(line -> assertThat(line).contains("cheaper than index by_amount range"));
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*), MIN(id), MAX(id) FROM shipments"
                    + " WHERE amount BETWEEN 5 AND 6")).containsExactly("40|5|1906");
            statement.execute("SET duet_opt_seek_factor = DEFAULT");
            // An index holding every column a query uses is read alone, in the stores (no double read): a wide
            // range of it then costs less than the records.
            assertThat(explain(statement, "SELECT amount, COUNT(*) FROM shipments WHERE amount < 50 GROUP BY amount"))
                    .anySatisfy(line -> assertThat(line).contains("range, covering (no rows read)"))
                    .anySatisfy(line -> assertThat(line).contains("IndexRangeScan|cop[tikv]|table:shipments, index:by_amount"));
            List<String> groups = SqlTesting.rows(statement,
                    "SELECT amount, COUNT(*) FROM shipments WHERE amount < 50 GROUP BY amount ORDER BY amount");
            assertThat(groups).hasSize(50).allSatisfy(line -> assertThat(line).endsWith("|20"));
            assertThat(groups.get(49)).isEqualTo("49|20");
            // The clustered handle comes from the entries too: from the key of a plain index...
            assertThat(explain(statement, "SELECT id FROM shipments WHERE kind = 'rare'"))
                    .anySatisfy(line -> assertThat(line).contains("IndexRangeScan|cop[tikv]|table:shipments, index:by_kind"));
            assertThat(SqlTesting.rows(statement, "SELECT id FROM shipments WHERE kind = 'rare' ORDER BY id"))
                    .containsExactly("200", "400", "600", "800", "1000", "1200", "1400", "1600", "1800", "2000");
            // ...and from the value of a unique one.
            String notes = "SELECT id, note FROM shipments WHERE note >= 'shipment number 1998'";
            assertThat(explain(statement, notes))
                    .anySatisfy(line -> assertThat(line).contains("IndexRangeScan|cop[tikv]|table:shipments, index:by_note"));
            List<String> expectedNotes = new ArrayList<>();
            for (int i = 1; i <= 2_000; i++) {
                if (("shipment number " + i).compareTo("shipment number 1998") >= 0) {
                    expectedNotes.add(i + "|shipment number " + i);
                }
            }
            assertThat(SqlTesting.rows(statement, notes)).containsExactlyInAnyOrderElementsOf(expectedNotes);
            statement.execute("SET duet_coprocessor_push_down = OFF");
            assertThat(SqlTesting.rows(statement, notes)).containsExactlyInAnyOrderElementsOf(expectedNotes);
            statement.execute("SET duet_coprocessor_push_down = ON");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.execute("SET duet_opt_seek_factor = 'many'"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1232));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.execute("SET duet_opt_scan_factor = -1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1231));
            statement.execute("DROP TABLE shipments");
        }
    }

    @Test
    void aSmallOuterSideReadsTheInnerTableByClusteredKeyLookups() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE picks (id INT PRIMARY KEY, item_id BIGINT, note VARCHAR(10))");
            statement.execute("INSERT INTO picks VALUES (1, 7, 'a'), (2, 250, 'b'), (3, 99999, 'missing'), (4, NULL, 'none'),"
                    + " (5, 7, 'again'), (6, 17, 'c')");
            List<String> queries = List.of(
                    "SELECT p.id, i.name, i.qty, i.price FROM picks p JOIN items i ON i.id = p.item_id ORDER BY p.id",
                    "SELECT p.id, i.name FROM picks p LEFT JOIN items i ON i.id = p.item_id AND i.qty > 3 ORDER BY p.id",
                    "SELECT id FROM picks WHERE item_id IN (SELECT id FROM items WHERE qty < 9) ORDER BY id",
                    "SELECT p.note, COUNT(*) FROM picks p JOIN items i ON i.id = p.item_id + 1 GROUP BY p.note ORDER BY p.note");
            List<List<String>> byLookups = new ArrayList<>();
            for (String query : queries) {
                byLookups.add(SqlTesting.rows(statement, query));
            }
            List<String> analyzed = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(0));
            // The outer side's batches are read first; the lookups' rows become the join's build side.
            assertThat(analyzed).anySatisfy(line -> assertThat(line).startsWith("  └─IndexJoin|")
                    .contains("inner rows by clustered key lookups").contains("vectorized"));
            statement.execute("SET duet_vectorized_execution = OFF");
            for (int i = 0; i < queries.size(); i++) {
                assertThat(SqlTesting.rows(statement, queries.get(i))).as("on rows: " + queries.get(i))
                        .isEqualTo(byLookups.get(i));
            }
            assertThat(SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(0))).anySatisfy(line -> assertThat(line)
                    .startsWith("  └─IndexJoin|").doesNotContain("vectorized"));
            statement.execute("SET duet_vectorized_execution = ON");
            // Four distinct keys are looked up, and three of them exist: the inner side read three rows, not the table.
            assertThat(analyzed).anySatisfy(line -> assertThat(line).startsWith("    └─PointGet|").contains("|3|root|table:test.items|"));
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            assertThat(SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(0)))
                    .noneSatisfy(line -> assertThat(line).contains("IndexJoin"));
            for (int i = 0; i < queries.size(); i++) {
                assertThat(SqlTesting.rows(statement, queries.get(i))).as(queries.get(i)).isEqualTo(byLookups.get(i));
            }
            assertThat(byLookups.get(0)).hasSize(4).first().asString().startsWith("1|item7|7|");
            assertThat(byLookups.get(1)).hasSize(6);
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
            statement.execute("DROP TABLE picks");
        }
    }

    @Test
    void aSmallOuterSideReadsTheInnerTableThroughASecondaryIndex() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE shipments (id INT PRIMARY KEY, code VARCHAR(10), region INT, KEY by_code (code))");
            // Each code has three shipments; every 500th shipment has none.
            SqlTesting.insertRows(statement, "shipments", 1, 3_000,
                    i -> i + "," + (i % 500 == 0 ? "NULL" : "'c" + i % 1_000 + "'") + "," + i % 7);
            statement.execute("CREATE TABLE wanted (id INT PRIMARY KEY, code VARCHAR(10))");
            statement.execute("INSERT INTO wanted VALUES (1, 'c7'), (2, 'c250'), (3, 'nope'), (4, NULL), (5, 'c7')");
            List<String> queries = List.of(
                    "SELECT w.id, s.id, s.region FROM wanted w JOIN shipments s ON s.code = w.code ORDER BY w.id, s.id",
                    "SELECT w.id, s.id FROM wanted w LEFT JOIN shipments s ON s.code = w.code AND s.region > 2"
                            + " ORDER BY w.id, s.id",
                    "SELECT id FROM wanted WHERE code IN (SELECT code FROM shipments WHERE region < 2) ORDER BY id");
            // 3,000 rows stand against 3 keys: worth a lookup each (analyzed now, so that the automatic analysis
            // of the new table cannot change the figures in the middle of the test).
            statement.execute("ANALYZE TABLE shipments");
            statement.execute("ANALYZE TABLE wanted");
            List<List<String>> byLookups = new ArrayList<>();
            for (String query : queries) {
                byLookups.add(SqlTesting.rows(statement, query));
            }
            List<String> explained = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + queries.get(0));
            assertThat(explained).anySatisfy(line -> assertThat(line)
                    .contains("IndexJoin|").contains("inner rows through index by_code lookups").contains("vectorized"));
            // Three distinct keys reach six shipments (c7's three and c250's three): the table was not scanned.
            assertThat(explained).anySatisfy(line -> assertThat(line).contains("IndexLookUp|")
                    .contains("|6|root|table:test.shipments, index:by_code|"));
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            for (int i = 0; i < queries.size(); i++) {
                assertThat(SqlTesting.rows(statement, queries.get(i))).as(queries.get(i)).isEqualTo(byLookups.get(i));
            }
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
            assertThat(byLookups.get(0)).containsExactly("1|7|0", "1|1007|6", "1|2007|5", "2|250|5", "2|1250|4",
                    "2|2250|3", "5|7|0", "5|1007|6", "5|2007|5");
            assertThat(byLookups.get(1)).hasSize(9);
            // Hundreds of keys against 3,000 rows: reading the table whole is cheaper than a lookup per key.
            assertThat(SqlTesting.rows(statement, "EXPLAIN ANALYZE SELECT COUNT(*) FROM (SELECT * FROM shipments"
                    + " WHERE id <= 400) a JOIN shipments s ON s.code = a.code"))
                    .noneSatisfy(line -> assertThat(line).contains("IndexLookUp"));
            statement.execute("DROP TABLE shipments");
            statement.execute("DROP TABLE wanted");
        }
    }

    /** A top N with an offset over a join: sorted over batches. */
    private static final String TOP_N_OVER_JOIN = "SELECT p.id, i.id, i.name, p.amount FROM parts p"
            + " JOIN items i ON p.item_id = i.qty ORDER BY i.name DESC, p.amount, p.id, i.id LIMIT 25 OFFSET 10";
    /** Window functions of every common frame over a scan, computed over batches. */
    private static final String WINDOWS_OVER_SCAN = "SELECT id, flag,"
            + " ROW_NUMBER() OVER (PARTITION BY flag ORDER BY price, id), RANK() OVER (PARTITION BY flag ORDER BY qty),"
            + " DENSE_RANK() OVER (ORDER BY ship DESC), SUM(price) OVER (PARTITION BY flag),"
            + " AVG(price) OVER (PARTITION BY qty ORDER BY id), COUNT(*) OVER (), COUNT(ship) OVER (PARTITION BY qty),"
            + " MIN(name) OVER (PARTITION BY flag ORDER BY qty ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),"
            + " MAX(weight) OVER (PARTITION BY flag ORDER BY qty), SUM(qty) OVER (PARTITION BY flag ORDER BY ship)"
            + " FROM items WHERE id < 300 ORDER BY id";
    private static final String UNION_DISTINCT = "SELECT qty, flag FROM items WHERE id < 200 UNION"
            + " SELECT item_id, flag FROM parts ORDER BY qty, flag";
    /** A join without equalities: a nested loop over batches. */
    private static final String THETA_JOIN = "SELECT p.id, i.id FROM parts p JOIN items i ON p.amount * 10 < i.price"
            + " AND i.id < 15 WHERE p.id < 30 ORDER BY p.id, i.id";
    private static final List<String> JOIN_QUERIES = List.of(
            "SELECT p.id, i.name, p.amount * i.price FROM parts p JOIN items i ON p.item_id = i.qty WHERE i.id < 40"
                    + " ORDER BY p.id, i.name",
            "SELECT p.id, i.id, i.price FROM parts p LEFT JOIN items i ON p.item_id = i.qty AND i.price > p.amount * 10"
                    + " AND i.id < 30 ORDER BY p.id, i.id",
            "SELECT p.id, i.id FROM items i RIGHT JOIN parts p ON p.note = i.name ORDER BY p.id, i.id",
            // Conditions of one side filter that side first where the join type allows it (not a preserved side).
            "SELECT p.id, i.id FROM items i RIGHT JOIN parts p ON p.note = i.name AND i.qty > 5 AND p.amount > 2"
                    + " ORDER BY p.id, i.id",
            "SELECT p.id, i.id FROM parts p LEFT JOIN items i ON p.item_id = i.qty AND p.amount > 2 AND i.flag = 'A'"
                    + " ORDER BY p.id, i.id",
            "SELECT p.id, i.id FROM parts p JOIN items i ON p.item_id = i.qty AND p.note IS NOT NULL"
                    + " AND ((p.flag = 'A' AND i.price > 10) OR (p.flag = 'B' AND i.price < 50)) ORDER BY p.id, i.id",
            "SELECT p.id, i.id FROM parts p JOIN items i ON p.item_id = i.qty AND p.flag = i.flag WHERE p.id > 100"
                    + " ORDER BY p.id, i.id",
            "SELECT i.id FROM items i WHERE EXISTS (SELECT 1 FROM parts p WHERE p.note = i.name AND p.amount > 3)"
                    + " ORDER BY i.id",
            "SELECT i.id FROM items i WHERE NOT EXISTS (SELECT 1 FROM parts p WHERE p.note = i.name AND p.amount > 3)"
                    + " ORDER BY i.id",
            "SELECT i.id FROM items i WHERE i.qty NOT IN (SELECT item_id FROM parts WHERE amount > 4) ORDER BY i.id",
            "SELECT i.id FROM items i WHERE i.qty IN (SELECT item_id FROM parts WHERE amount > 4) ORDER BY i.id",
            "SELECT i.flag, COUNT(*), SUM(p.amount), AVG(i.price), MIN(i.ship), MAX(p.note), SUM(p.amount * i.qty)"
                    + " FROM parts p JOIN items i ON p.item_id = i.qty GROUP BY i.flag ORDER BY i.flag",
            "SELECT COUNT(*), SUM(i.price), MAX(i.at) FROM parts p JOIN items i ON p.note = i.name WHERE p.amount > 1000",
            "SELECT p.flag, i.ship, COUNT(*) FROM parts p JOIN items i ON p.item_id = i.qty"
                    + " WHERE i.ship < DATE '2024-02-01' GROUP BY p.flag, i.ship ORDER BY p.flag, i.ship",
            // Keys of different types (DECIMAL(6,1) and DECIMAL(10,2)): one is cast to the other's type first.
            "SELECT p.id, i.id FROM parts p JOIN items i ON p.amount = i.price ORDER BY p.id, i.id",
            TOP_N_OVER_JOIN,
            WINDOWS_OVER_SCAN,
            UNION_DISTINCT,
            // AVG over the whole partition: Calcite's CAST(sum) / count, at AVG's scale in both executors.
            "SELECT id, AVG(price) OVER () FROM items WHERE qty > 3 ORDER BY id",
            "SELECT id, AVG(price) OVER (PARTITION BY flag) FROM items WHERE qty > 3 ORDER BY id",
            THETA_JOIN,
            "SELECT id, UPPER(name), LOWER(flag), CHAR_LENGTH(name), LENGTH(name), CONCAT(name, '-', flag), ABS(qty - 5),"
                    + " FLOOR(price), CEIL(weight), ABS(discount - 0.05), CEIL(price), ASCII(SUBSTR(name, 5, 1)),"
                    + " ASCII(flag) FROM items WHERE UPPER(name) LIKE 'ITEM1%' OR FLOOR(weight) = 3"
                    + " OR ASCII(flag) = 66 ORDER BY id",
            "SELECT id, IFNULL(name, flag), COALESCE(qty, 0), IF(qty > 5, price, discount), NULLIF(qty, 3),"
                    + " NULLIF(flag, 'A') FROM items WHERE IFNULL(qty, 100) > 8 OR id < 5 ORDER BY id",
            "SELECT p.id, i.id FROM parts p LEFT JOIN items i ON p.item_id > i.qty AND i.id < 6 WHERE p.id < 40"
                    + " ORDER BY p.id, i.id",
            "SELECT COUNT(*), SUM(p.item_id * i.qty) FROM parts p CROSS JOIN items i WHERE i.id < 50",
            "SELECT i.id FROM items i WHERE NOT EXISTS (SELECT 1 FROM parts p WHERE p.amount > i.price / 10)"
                    + " ORDER BY i.id",
            "SELECT u.k, COUNT(*) FROM (SELECT qty AS k FROM items UNION SELECT item_id FROM parts) u"
                    + " GROUP BY u.k ORDER BY u.k",
            // Floating point values stay on rows: 0.0 and -0.0 are one value of two encodings.
            "SELECT weight FROM items WHERE id < 50 UNION SELECT weight FROM items WHERE id < 80 ORDER BY weight",
            "SELECT p.id, i.id, SUM(p.amount) OVER (PARTITION BY i.flag ORDER BY p.id, i.id),"
                    + " AVG(i.qty) OVER (PARTITION BY p.flag), RANK() OVER (PARTITION BY p.flag ORDER BY i.price DESC)"
                    + " FROM parts p JOIN items i ON p.item_id = i.qty WHERE i.id < 100 ORDER BY p.id, i.id",
            "SELECT i.id, p.id, i.weight, i.at FROM items i JOIN parts p ON p.note = i.name"
                    + " ORDER BY i.weight DESC, i.at, i.id, p.id",
            "SELECT id, price, ship, ratio FROM items WHERE qty > 3 ORDER BY ship DESC, ratio, price DESC, id",
            "SELECT id, name FROM items WHERE price > 50 ORDER BY name DESC, id LIMIT 7 OFFSET 3",
            "SELECT x.id FROM (SELECT p.id FROM parts p JOIN items i ON p.item_id = i.qty LIMIT 0) x",
            "SELECT a.id, b.id, c.id FROM parts a JOIN parts b ON a.item_id = b.item_id JOIN items c ON b.flag = c.flag"
                    + " WHERE a.id < 20 AND c.id < 20 ORDER BY a.id, b.id, c.id",
            "SELECT i.flag, COUNT(DISTINCT p.note), MIN(p.note), MAX(p.note) FROM parts p"
                    + " JOIN items i ON p.item_id = i.qty GROUP BY i.flag ORDER BY i.flag",
            // Distinct calls of different columns aggregate on rows.
            "SELECT COUNT(DISTINCT i.ship), COUNT(DISTINCT p.flag), SUM(DISTINCT p.item_id) FROM parts p"
                    + " JOIN items i ON p.item_id = i.qty",
            "SELECT COUNT(DISTINCT i.ship) FROM parts p JOIN items i ON p.item_id = i.qty WHERE p.amount > 1000",
            // TRIM stays in the SQL layer: the filtered items come as rows, and become a batch for the join.
            "SELECT p.id, i.id, i.price FROM parts p JOIN items i ON p.note = i.name WHERE TRIM(i.name) LIKE 'item1%'"
                    + " ORDER BY p.id, i.id",
            "SELECT u.k, COUNT(*), SUM(u.v) FROM (SELECT qty AS k, price AS v FROM items WHERE id < 50 UNION ALL"
                    + " SELECT item_id, amount FROM parts WHERE id < 50) u GROUP BY u.k ORDER BY u.k",
            "SELECT x.flag, x.n, i.name FROM (SELECT flag, COUNT(*) AS n FROM parts GROUP BY flag) x"
                    + " JOIN items i ON x.flag = i.flag WHERE i.id < 12 ORDER BY x.flag, i.name");

    @Test
    void joinsAndAggregationsOverBatchesMatchTheRowExecutor() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE parts (id BIGINT PRIMARY KEY, item_id INT, flag CHAR(1), amount DECIMAL(6,1),"
                    + " note VARCHAR(20))");
            StringBuilder insert = new StringBuilder("INSERT INTO parts VALUES ");
            for (int i = 1; i <= 400; i++) {
                insert.append(i > 1 ? "," : "").append('(').append(i).append(',')
                        .append(i % 9 == 0 ? "NULL" : String.valueOf(i % 13)).append(',')
                        .append(i % 7 == 0 ? "NULL" : "'" + (char) ('A' + i % 5) + "'").append(',')
                        .append(i % 11 == 0 ? "NULL" : String.valueOf(i % 60 / 10.0)).append(',')
                        .append(i % 6 == 0 ? "NULL" : "'item" + (i * 3 % 350) + "'").append(')');
            }
            statement.execute(insert.toString());
            // Lookups of the outer side's keys would take these joins: off, so that they hash.
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            List<List<String>> results = new ArrayList<>();
            for (String[] modes : new String[][] {{"ON", "ON"}, {"ON", "OFF"}, {"OFF", "ON"}}) {
                statement.execute("SET duet_coprocessor_push_down = " + modes[0]);
                statement.execute("SET duet_vectorized_execution = " + modes[1]);
                for (String query : JOIN_QUERIES) {
                    results.add(SqlTesting.rows(statement, query));
                }
            }
            int count = JOIN_QUERIES.size();
            for (int i = 0; i < count; i++) {
                assertThat(results.get(i)).as("vectorized: " + JOIN_QUERIES.get(i)).isEqualTo(results.get(count + i));
                assertThat(results.get(i)).as("push-down off: " + JOIN_QUERIES.get(i)).isEqualTo(results.get(2 * count + i));
            }
            assertThat(results.get(0)).isNotEmpty();

            statement.execute("SET duet_coprocessor_push_down = ON");
            statement.execute("SET duet_vectorized_execution = ON");
            List<String> plan = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(11));
            String aggregate = plan.stream().filter(line -> line.contains("HashAgg")).findFirst().orElseThrow();
            String join = plan.stream().filter(line -> line.contains("Join")).findFirst().orElseThrow();
            assertThat(aggregate).as(String.join("\n", plan)).contains("vectorized");
            assertThat(join).as(String.join("\n", plan)).contains("vectorized");
            String[] joinColumns = join.split("\\|", -1);
            assertThat(Long.parseLong(joinColumns[2])).isEqualTo(Long.parseLong(SqlTesting.rows(statement,
                    "SELECT COUNT(*) FROM parts p JOIN items i ON p.item_id = i.qty").get(0)));
            List<String> topN = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + TOP_N_OVER_JOIN);
            assertThat(topN.stream().filter(line -> line.contains("TopN")).findFirst().orElseThrow())
                    .as(String.join("\n", topN)).contains("vectorized");
            List<String> windows = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + WINDOWS_OVER_SCAN);
            assertThat(windows.stream().filter(line -> line.contains("Window")).toList()).as(String.join("\n", windows))
                    .isNotEmpty().allMatch(line -> line.contains("vectorized"));
            List<String> theta = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + THETA_JOIN);
            assertThat(theta.stream().filter(line -> line.contains("Join")).findFirst().orElseThrow())
                    .as(String.join("\n", theta)).contains("vectorized");
            List<String> union = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + UNION_DISTINCT);
            assertThat(union.stream().filter(line -> line.contains("Union (distinct)")).findFirst().orElseThrow())
                    .as(String.join("\n", union)).contains("vectorized");
            List<String> distinct = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(JOIN_QUERIES.size() - 6));
            assertThat(distinct.stream().filter(line -> line.contains("HashAgg")).findFirst().orElseThrow())
                    .as(String.join("\n", distinct)).contains("vectorized");
            List<String> overRows = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(JOIN_QUERIES.size() - 3));
            assertThat(overRows.stream().filter(line -> line.contains("Join")).findFirst().orElseThrow())
                    .as(String.join("\n", overRows)).contains("vectorized");
            List<String> overUnion = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(JOIN_QUERIES.size() - 2));
            assertThat(overUnion.stream().filter(line -> line.contains("HashAgg")).findFirst().orElseThrow())
                    .as(String.join("\n", overUnion)).contains("vectorized");
            // An aggregation's rows become a batch for the join above it; the aggregation itself merged partial rows.
            List<String> overAggregate = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(JOIN_QUERIES.size() - 1));
            assertThat(overAggregate.stream().filter(line -> line.contains("Join")).findFirst().orElseThrow())
                    .as(String.join("\n", overAggregate)).contains("vectorized");
            assertThat(overAggregate.stream().filter(line -> line.contains("HashAgg")).findFirst().orElseThrow())
                    .as(String.join("\n", overAggregate)).doesNotContain("vectorized");
            statement.execute("SET duet_vectorized_execution = OFF");
            assertThat(SqlTesting.rows(statement, "EXPLAIN ANALYZE " + JOIN_QUERIES.get(11)))
                    .noneMatch(line -> line.contains("vectorized"));
            statement.execute("SET duet_vectorized_execution = ON");
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
            statement.execute("DROP TABLE parts");
        }
    }

    @Test
    void aWindowAverageHasAvgsScaleInBothExecutors() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // NOT NULL: Calcite's AVG OVER is then CAST(sum) / count with no CASE, which the stores' evaluator takes.
            statement.execute("CREATE TABLE ledger (id BIGINT PRIMARY KEY, grp CHAR(1) NOT NULL, amount DECIMAL(12,2) NOT NULL)");
            statement.execute("INSERT INTO ledger VALUES (1,'a',1.50),(2,'b',2.25),(3,'a',3.00),(4,'b',4.10),(5,'a',0.01)");
            String query = "SELECT id, AVG(amount) OVER (), AVG(amount) OVER (PARTITION BY grp) FROM ledger ORDER BY id";
            // MySQL's AVG of a DECIMAL(12,2): four more digits of scale.
            List<String> expected = List.of("1|2.172000|1.503333", "2|2.172000|3.175000", "3|2.172000|1.503333",
                    "4|2.172000|3.175000", "5|2.172000|1.503333");
            for (String mode : List.of("ON", "OFF")) {
                statement.execute("SET duet_vectorized_execution = " + mode);
                assertThat(SqlTesting.rows(statement, query)).as("vectorized " + mode).isEqualTo(expected);
            }
            statement.execute("SET duet_vectorized_execution = ON");
            statement.execute("DROP TABLE ledger");
        }
    }

    @Test
    void windowFunctionsForTheCommonFrames() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // flag is 'A' + id % 4: ids 1..8 are B C D A B C D A.
            assertThat(SqlTesting.rows(statement, "SELECT id, ROW_NUMBER() OVER (PARTITION BY flag ORDER BY id),"
                    + " SUM(id) OVER (PARTITION BY flag ORDER BY id) FROM items WHERE id <= 8 ORDER BY id"))
                    .containsExactly("1|1|1", "2|1|2", "3|1|3", "4|1|4", "5|2|6", "6|2|8", "7|2|10", "8|2|12");
            assertThat(SqlTesting.rows(statement, "SELECT id, COUNT(*) OVER (PARTITION BY flag), MAX(id) OVER ()"
                    + " FROM items WHERE id <= 8 ORDER BY id"))
                    .containsExactly("1|2|8", "2|2|8", "3|2|8", "4|2|8", "5|2|8", "6|2|8", "7|2|8", "8|2|8");
            // qty is id % 11: ids 1 and 12 tie, as do 2 and 13; RANGE frames give peers one running value.
            assertThat(SqlTesting.rows(statement, "SELECT id, RANK() OVER (ORDER BY qty), DENSE_RANK() OVER (ORDER BY qty),"
                    + " COUNT(*) OVER (ORDER BY qty) FROM items WHERE id IN (1, 2, 12, 13) ORDER BY id"))
                    .containsExactly("1|1|1|2", "2|3|2|4", "12|1|1|2", "13|3|2|4");
            // Sliding frames and offset functions (compared with DuckDB in ItTpchReference); bad arguments are errors.
            assertThat(SqlTesting.rows(statement, "SELECT id, SUM(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND"
                    + " 1 FOLLOWING), LAG(id, 2, -1) OVER (ORDER BY id), NTILE(2) OVER (ORDER BY id) FROM items"
                    + " WHERE id <= 5 ORDER BY id"))
                    .containsExactly("1|3|-1|1", "2|6|-1|1", "3|9|1|1", "4|12|2|2", "5|9|3|2");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlTesting.rows(statement,
                    "SELECT NTILE(0) OVER (ORDER BY id) FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1210));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlTesting.rows(statement,
                    "SELECT COUNT(*) OVER (ORDER BY name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3587));
            // A date key with an INTERVAL offset: not yet.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlTesting.rows(statement,
                    "SELECT COUNT(*) OVER (ORDER BY ship RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1235));
        }
    }

    /** EXPLAIN's rows without the estimated rows (Calcite's guesses until statistics exist). */
    private static List<String> explain(Statement statement, String query) throws SQLException {
        String sql = query.regionMatches(true, 0, "EXPLAIN", 0, 7) || query.regionMatches(true, 0, "DESC", 0, 4) ? query
                : "EXPLAIN " + query;
        List<String> lines = new ArrayList<>();
        for (String row : SqlTesting.rows(statement, sql)) {
            String[] columns = row.split("\\|", -1);
            lines.add(columns[0] + "|" + columns[2] + "|" + columns[3] + "|" + columns[4]);
        }
        return lines;
    }

    private static List<List<String>> runAll(String mode) throws SQLException {
        List<List<String>> results = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SET duet_coprocessor_push_down = " + mode);
            for (String query : QUERIES) {
                results.add(SqlTesting.rows(statement, query));
            }
        }
        return results;
    }

    private static double coprocessorRequests() {
        double total = 0;
        for (int i = 0; i < cluster.storeCount(); i++) {
            total += cluster.store(i).map(store -> SqlTesting.metric(String.valueOf(store.statusAddress()),
                    "duet_store_coprocessor_requests_total", "plan=\"dag\"", "outcome=\"ok\"")).orElse(0.0);
        }
        return total;
    }
}
