package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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
 * MPP on column learners through Connector/J: with tidb_enforce_mpp, joins and aggregations over tables with columnar
 * replicas run as fragments on the learners (EXPLAIN shows the exchanges), broadcast or hash-partitioned, over two
 * learners that each hold the regions; answers equal the row store's at the same time, writes included; the memory
 * quota reaches the fragments.
 */
class ItMpp {
    private static final Duration AVAILABLE_WITHIN = Duration.ofSeconds(90);

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static String url;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(1);
        cluster.addLearner(config -> config.setDeltaMergeRows(200).setMergeCheckInterval(Duration.ofMillis(300)));
        cluster.addLearner(config -> config.setDeltaMergeRows(200).setMergeCheckInterval(Duration.ofMillis(300)));
        server = SqlTesting.startServer(cluster, config -> { });
        url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement();
                PlacementClient placement = cluster.newPlacementClient();
                StoreAdminCalls admin = new StoreAdminCalls(placement)) {
            statement.execute("CREATE TABLE customers (id INT PRIMARY KEY, nation VARCHAR(12), name VARCHAR(30))");
            statement.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INT, amount DECIMAL(10,2),"
                    + " placed DATE, status CHAR(1))");
            statement.execute("CREATE TABLE order_lines (order_id BIGINT, seq INT, quantity INT, price DECIMAL(12,2),"
                    + " PRIMARY KEY (order_id, seq))");
            SqlTesting.insertRows(statement, "customers", 1, 300, i -> i + ", 'n" + (i % 9) + "', 'customer " + i + "'");
            SqlTesting.insertRows(statement, "orders", 1, 3000, i -> i + ", " + (1 + i * 7 % 320) + ", " + (i % 997) + "."
                    + (i % 100) + ", '2026-0" + (1 + i % 9) + "-1" + (i % 9) + "', '" + (i % 3 == 0 ? "F" : "O") + "'");
            SqlTesting.insertRows(statement, "order_lines", 1, 6000, i -> (1 + i / 2) + ", " + (i % 2) + ", " + (1 + i % 11) + ", "
                    + (i % 500) + ".25");
            long ordersId = tableId(statement, "orders");
            for (long key : new long[] {700, 1500, 2300}) {
                admin.split(Keys.recordKey(ordersId, key));
            }
            for (String table : List.of("customers", "orders", "order_lines")) {
                statement.execute("ALTER TABLE " + table + " SET TIFLASH REPLICA 2");
            }
            for (String table : List.of("customers", "orders", "order_lines")) {
                awaitAvailable(statement, table);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT c.nation, count(*), sum(o.amount), min(o.placed), max(o.amount), avg(o.amount) FROM orders o"
                    + " JOIN customers c ON o.customer_id = c.id GROUP BY c.nation ORDER BY c.nation",
            "SELECT o.status, sum(l.quantity * l.price), count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id"
                    + " WHERE o.placed >= '2026-03-01' AND l.quantity > 3 GROUP BY o.status ORDER BY o.status",
            "SELECT count(*), sum(l.price) FROM order_lines l JOIN orders o ON l.order_id = o.id JOIN customers c"
                    + " ON o.customer_id = c.id WHERE c.nation IN ('n1', 'n4')",
            "SELECT o.id, c.name, o.amount FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.amount > 990"
                    + " ORDER BY o.id",
            "SELECT c.id, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id AND o.amount > c.id"
                    + " GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 7",
            // One customer: most join tasks get no build rows and stop reading their probe side early.
            "SELECT o.id, o.amount, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE c.name = 'customer 7'"
                    + " ORDER BY o.id");

    @Test
    void joinsAndAggregationsRunOnTheLearnersAndAnswerAsTheRowStore() throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            double dispatchedBefore = mppTasks(0) + mppTasks(1);
            for (String query : QUERIES) {
                List<String> expected = rowStore(statement, query);
                assertThat(expected).as(query).isNotEmpty();
                statement.execute("SET tidb_enforce_mpp = 1");
                String plan = String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + query));
                assertThat(plan).as(query).contains("ExchangeSender").contains("mpp[tiflash]").contains("ExchangeType: Broadcast")
                        .contains("TableFullScan");
                assertThat(SqlTesting.rows(statement, query)).as("broadcast: " + query).isEqualTo(expected);
                statement.execute("SET tidb_broadcast_join_threshold_count = 0");
                assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + query))).as(query)
                        .contains("ExchangeType: HashPartition");
                assertThat(SqlTesting.rows(statement, query)).as("hash partitioned: " + query).isEqualTo(expected);
                statement.execute("SET tidb_broadcast_join_threshold_count = DEFAULT");
                statement.execute("SET tidb_enforce_mpp = 0");
            }
            // Both learners hold every region: the coordinator spreads the regions, and the tasks, over both.
            assertThat(mppTasks(0)).isGreaterThan(0);
            assertThat(mppTasks(1)).isGreaterThan(0);
            assertThat(mppTasks(0) + mppTasks(1)).isGreaterThan(dispatchedBefore + QUERIES.size() * 4);
        }
    }

    @Test
    void aggregationsOfOneTableRunInTwoPhasesOnTheLearners() throws Exception {
        List<String> queries = List.of("SELECT count(*) FROM orders", "SELECT count(*), sum(amount), avg(amount) FROM orders",
                "SELECT status, count(*), min(placed), max(amount) FROM orders GROUP BY status ORDER BY status",
                "SELECT count(*) FROM orders WHERE amount > 100000");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (String query : queries) {
                List<String> expected = rowStore(statement, query);
                statement.execute("SET tidb_enforce_mpp = 1");
                assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + query))).as(query)
                        .contains("ExchangeType: HashPartition");
                assertThat(SqlTesting.rows(statement, query)).as(query).isEqualTo(expected);
            }
        }
    }

    @Test
    void writesAreSeenByTheNextMppQuery() throws Exception {
        String query = "SELECT c.nation, count(*), sum(o.amount) FROM orders o JOIN customers c ON o.customer_id = c.id"
                + " WHERE o.id > 5000 GROUP BY c.nation ORDER BY c.nation";
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement();
                Connection writer = DriverManager.getConnection(url); Statement writes = writer.createStatement()) {
            statement.execute("SET tidb_enforce_mpp = 1");
            assertThat(SqlTesting.rows(statement, query)).isEmpty();
            for (int round = 0; round < 5; round++) {
                int first = 5001 + round * 20;
                int amount = round;
                SqlTesting.insertRows(writes, "orders", first, first + 19, i -> i + ", " + (i % 300 + 1) + ", " + amount
                        + ".5, '2026-05-05', 'O'");
                writes.execute("UPDATE orders SET amount = amount + 1 WHERE id = " + first);
                List<String> expected = rowStore(statement, query);
                statement.execute("SET tidb_enforce_mpp = 1");
                assertThat(SqlTesting.rows(statement, query)).as("round " + round).isEqualTo(expected);
            }
        }
    }

    @Test
    void theMemoryQuotaReachesTheFragments() throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SET tidb_enforce_mpp = 1");
            statement.execute("SET tidb_broadcast_join_threshold_count = 0");
            statement.execute("SET tidb_mem_quota_query = 4096");
            assertThatThrownBy(() -> SqlTesting.rows(statement, QUERIES.get(1))).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(8175));
            statement.execute("SET tidb_mem_quota_query = DEFAULT");
            assertThat(SqlTesting.rows(statement, "SELECT count(*) FROM orders")).hasSize(1);
        }
    }

    @Test
    void killQueryStopsTheFragmentsOnEveryLearner() throws Exception {
        try (Connection worker = DriverManager.getConnection(url); Connection killer = DriverManager.getConnection(url);
                Statement observer = killer.createStatement()) {
            try (Statement statement = worker.createStatement()) {
                statement.execute("SET tidb_enforce_mpp = 1");
            }
            long id = ItSqlKill.connectionId(worker);
            // 6,000 x 6,000 / 11 pairs, each joined again with 545 rows: far longer than it takes to kill it.
            Future<String> query = ItSqlKill.runInBackground(worker, "SELECT count(*) FROM order_lines a JOIN order_lines b"
                    + " ON a.quantity = b.quantity JOIN order_lines c ON b.quantity = c.quantity");
            ItSqlKill.awaitRunning(observer, id, "JOIN order_lines c");
            LocalCluster.await("MPP tasks running", Duration.ofSeconds(30), () -> runningTasks(0) + runningTasks(1) > 0);
            observer.execute("KILL QUERY " + id);
            assertThat(query.get(30, TimeUnit.SECONDS)).isEqualTo("error 1317 70100");
            LocalCluster.await("no MPP task left on the learners", Duration.ofSeconds(30),
                    () -> runningTasks(0) + runningTasks(1) == 0);
            try (Statement statement = worker.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT count(*) FROM customers")).containsExactly("300");
            }
        }
    }

    @Test
    void withoutMppTheSameQueriesRunAsBefore() throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SET tidb_allow_mpp = 0");
            statement.execute("SET tidb_enforce_mpp = 1");
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + QUERIES.get(0))))
                    .doesNotContain("ExchangeSender");
            // Enforced where it cannot apply (an outer join), MPP is left out with a warning, as TiDB does.
            statement.execute("SET tidb_allow_mpp = 1");
            String outer = "SELECT c.nation, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id"
                    + " GROUP BY c.nation ORDER BY c.nation";
            List<String> expected = rowStore(statement, outer);
            statement.execute("SET tidb_enforce_mpp = 1");
            assertThat(SqlTesting.rows(statement, outer)).isEqualTo(expected);
            assertThat(String.join("\n", SqlTesting.rows(statement, "SHOW WARNINGS"))).contains("MPP mode may be blocked");
        }
    }

    private static List<String> rowStore(Statement statement, String query) throws SQLException {
        statement.execute("SET tidb_enforce_mpp = 0");
        statement.execute("SET tidb_isolation_read_engines = 'tikv,tidb'");
        try {
            assertThat(String.join("\n", SqlTesting.rows(statement, "EXPLAIN " + query))).doesNotContain("ExchangeSender");
            return SqlTesting.rows(statement, query);
        } finally {
            statement.execute("SET tidb_isolation_read_engines = 'tikv,tiflash,tidb'");
        }
    }

    private static double mppTasks(int learner) {
        return SqlTesting.metric(cluster.learner(learner).orElseThrow().statusAddress().toString(),
                "duet_learner_mpp_tasks_total", "event=\"dispatched\"");
    }

    private static double runningTasks(int learner) {
        return SqlTesting.metric(cluster.learner(learner).orElseThrow().statusAddress().toString(),
                "duet_learner_mpp_running_tasks");
    }

    private static long tableId(Statement statement, String table) throws SQLException {
        return Long.parseLong(SqlTesting.rows(statement, "SELECT TIDB_TABLE_ID FROM information_schema.tables"
                + " WHERE TABLE_NAME = '" + table + "'").get(0));
    }

    private static void awaitAvailable(Statement statement, String table) {
        LocalCluster.await("learner replicas of " + table, AVAILABLE_WITHIN, () -> {
            try {
                return SqlTesting.rows(statement, "SELECT AVAILABLE FROM information_schema.tiflash_replica"
                        + " WHERE TABLE_NAME = '" + table + "'").equals(List.of("1"));
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
    }
}
