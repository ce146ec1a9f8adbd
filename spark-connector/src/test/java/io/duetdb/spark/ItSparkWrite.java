package io.duetdb.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RegionRequestSender;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.ScanLockRequest;
import io.duetdb.proto.kv.ScanLockResponse;
import io.duetdb.proto.meta.Region;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * Spark writes DuetDB tables through the connector jar in one distributed transaction per job: rows and their index
 * entries are readable through SQL once the job commits, generated ids come from the table's allocators, a
 * duplicate key or a failing task leaves nothing visible and no lock behind, a DataFrame that does not fit the table
 * is refused before anything is written, and a SQL transaction that started before the job keeps its snapshot.
 */
class ItSparkWrite {
    private static final Duration LOCKS_GONE_WITHIN = Duration.ofSeconds(5);

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static SparkSession spark;
    static String url;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(1);
        server = SparkTesting.startServer(cluster, config -> { });
        url = SparkTesting.jdbcUrl(server, "test");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE people (id BIGINT PRIMARY KEY, email VARCHAR(40) NOT NULL, city VARCHAR(20),"
                    + " score DECIMAL(8,2), born DATE, seen TIMESTAMP NULL, UNIQUE KEY by_email (email), KEY by_city (city))");
            statement.execute("CREATE TABLE events (id BIGINT AUTO_INCREMENT PRIMARY KEY, kind VARCHAR(10) NOT NULL,"
                    + " amount INT, noted DATETIME DEFAULT CURRENT_TIMESTAMP)");
            statement.execute("CREATE TABLE readings (sensor INT NOT NULL, value DOUBLE, small TINYINT DEFAULT 7,"
                    + " level MEDIUMINT)");
        }
        spark = SparkTesting.spark(cluster);
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    private static Dataset<Row> people(long from, long to) {
        return spark.range(from, to, 1, 3).selectExpr("id", "concat('p', id, '@example.com') AS email",
                "concat('city', id % 7) AS city", "CAST(id % 1000 + 0.25 AS DECIMAL(8,2)) AS score",
                "date_add(DATE'2000-01-01', CAST(id % 365 AS INT)) AS born",
                "TIMESTAMP'2026-05-01 10:00:00' AS seen");
    }

    @Test
    void anAppendIsReadableThroughSqlWithItsIndexes() throws Exception {
        people(1, 5001).writeTo("duet.test.people").append();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT count(*), sum(score), min(born), max(email) FROM people"
                    + " WHERE id <= 5000"))
                    .containsExactly("5000|2498750.00|2000-01-01|p9@example.com");
            assertThat(SparkTesting.rows(statement, "SELECT id, city, seen FROM people WHERE email = 'p4321@example.com'"))
                    .containsExactly("4321|city2|2026-05-01 10:00:00");
            assertThat(SparkTesting.rows(statement, "SELECT count(*) FROM people WHERE city = 'city3' AND id <= 5000"))
                    .containsExactly("714");
            assertThat(String.join("\n", SparkTesting.rows(statement,
                    "EXPLAIN SELECT count(*) FROM people WHERE city = 'city3'"))).contains("by_city");
        }
        assertThat(spark.table("duet.test.people").where("id <= 5000").count()).isEqualTo(5000);
        // 15,000 keys (rows and two indexes): the job resolved its locks, past a request's 10,000 (a broken page
        // walk leaves 5,000, no resolution 15,000). Known residue, cause open: on the CI machine 68 locks were left
        // in two runs of two (readers roll them forward from the committed primary); locally none are.
        assertThat(locksOfTable("people")).isLessThan(150);
    }

    @Test
    void databasesAndTablesAreCreatedAndDroppedThroughTheCatalog() throws Exception {
        // A second catalog that also names a SQL server, for DDL (the first names only placement).
        spark.conf().set("spark.sql.catalog.duetddl", DuetCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.duetddl.pd", SparkTesting.placement(cluster));
        spark.conf().set("spark.sql.catalog.duetddl.sql", server.address().toString());
        spark.sql("CREATE NAMESPACE duetddl.sparkmade");
        spark.sql("CREATE TABLE duetddl.sparkmade.items (id BIGINT NOT NULL, name VARCHAR(20), price DECIMAL(10,2),"
                + " added DATE, seen TIMESTAMP_NTZ, note STRING COMMENT 'free text') TBLPROPERTIES ('primary_key' = 'id')");
        spark.sql("INSERT INTO duetddl.sparkmade.items VALUES (1, 'pen', 1.50, DATE'2026-01-02',"
                + " TIMESTAMP_NTZ'2026-01-02 03:04:05', 'blue'), (2, 'ink', 7.25, NULL, NULL, NULL)");
        assertThat(SparkTesting.rows(spark.sql("SELECT id, name, price, added FROM duetddl.sparkmade.items ORDER BY id")
                .collectAsList())).containsExactly("1|pen|1.50|2026-01-02", "2|ink|7.25|null");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SHOW CREATE TABLE sparkmade.items").get(0))
                    .contains("`id` bigint NOT NULL", "`name` varchar(20)", "`price` decimal(10,2)", "`added` date",
                            "`seen` datetime(6)", "`note` longtext", "COMMENT 'free text'", "PRIMARY KEY (`id`)");
            assertThat(SparkTesting.rows(statement, "SELECT name FROM sparkmade.items WHERE id = 2")).containsExactly("ink");
        }
        assertThatThrownBy(() -> spark.sql("CREATE TABLE duetddl.sparkmade.items (id INT)"))
                .hasMessageContaining("already exists");
        assertThatThrownBy(() -> spark.sql("DROP NAMESPACE duetddl.sparkmade")).hasMessageContaining("sparkmade");
        spark.sql("DROP TABLE duetddl.sparkmade.items");
        spark.sql("DROP NAMESPACE duetddl.sparkmade");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SHOW DATABASES LIKE 'sparkmade'")).isEmpty();
        }
        assertThatThrownBy(() -> spark.sql("CREATE TABLE duet.test.nowhere (id INT)"))
                .hasMessageContaining("needs a DuetDB SQL server");
    }

    @Test
    void generatedIdsAndDefaultsComeFromTheTable() throws Exception {
        spark.range(0, 1000, 1, 4).selectExpr("concat('k', id % 3) AS kind", "CAST(id AS INT) AS amount")
                .write().format("duet").option("pd", SparkTesting.placement(cluster)).option("table", "test.events")
                .mode("append").save();
        spark.range(0, 10, 1, 1).selectExpr("CAST(id AS INT) AS sensor", "id * 0.5 AS value")
                .writeTo("duet.test.readings").append();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT count(*), count(DISTINCT id), min(id) > 0, sum(amount),"
                    + " count(noted) FROM events")).containsExactly("1000|1000|1|499500|1000");
            statement.execute("INSERT INTO events (kind, amount) VALUES ('sql', 1)");
            long sparkLargest = Long.parseLong(SparkTesting.rows(statement, "SELECT max(id) FROM events WHERE kind <> 'sql'")
                    .get(0));
            assertThat(Long.parseLong(SparkTesting.rows(statement, "SELECT id FROM events WHERE kind = 'sql'").get(0)))
                    .isGreaterThan(sparkLargest);
            assertThat(SparkTesting.rows(statement, "SELECT count(*), sum(value), sum(small), count(level) FROM readings"))
                    .containsExactly("10|22.5|70|0");
        }
        // An explicit AUTO_INCREMENT value moves the table's counter past it: ids reserved later start above it.
        spark.sql("SELECT CAST(9000000000000 AS BIGINT) AS id, 'big' AS kind, 5 AS amount").writeTo("duet.test.events").append();
        spark.sql("SELECT 'after' AS kind, 1 AS amount").writeTo("duet.test.events").append();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT id > 9000000000000 FROM events WHERE kind = 'after'"))
                    .containsExactly("1");
        }
    }

    @Test
    void aDuplicateKeyFailsTheJobAndLeavesNothing() throws Exception {
        people(100_001, 100_101).writeTo("duet.test.people").append();
        long before = spark.table("duet.test.people").count();
        // Rows 100,050..100,149: the first fifty collide with rows already there.
        assertThatThrownBy(() -> people(100_050, 100_150).writeTo("duet.test.people").append())
                .hasStackTraceContaining("already exists");
        // Two rows with one key in the same job.
        assertThatThrownBy(() -> people(200_001, 200_051).union(people(200_010, 200_011)
                .selectExpr("id", "'other@example.com' AS email", "city", "score", "born", "seen"))
                .writeTo("duet.test.people").append()).hasStackTraceContaining("already exists");
        assertThat(spark.table("duet.test.people").count()).isEqualTo(before);
        assertNoLocksOn("UPDATE people SET city = 'moved' WHERE id IN (100120, 200020)");
    }

    @Test
    void aFailingTaskLeavesNothingVisibleAndNoLocks() throws Exception {
        Dataset<Row> failing = people(300_001, 303_001).selectExpr("id", "email", "city", "score", "born",
                "CASE WHEN id = 302500 THEN raise_error('task failed on purpose') ELSE seen END AS seen");
        assertThatThrownBy(() -> failing.writeTo("duet.test.people").append())
                .hasStackTraceContaining("task failed on purpose");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT count(*) FROM people WHERE id > 300000")).containsExactly("0");
        }
        assertNoLocksOn("INSERT INTO people (id, email) VALUES (300001, 'p300001@example.com')");
    }

    @Test
    void aDataFrameThatDoesNotFitTheTableIsRefusedBeforeWriting() throws Exception {
        assertThatThrownBy(() -> spark.sql("SELECT 1 AS sensor, 2.0 AS value, 3 AS colour")
                .write().format("duet").option("pd", SparkTesting.placement(cluster)).option("table", "test.readings")
                .mode("append").save()).hasMessageContaining("extra columns `colour`");
        assertThatThrownBy(() -> spark.sql("SELECT 2.0 AS value").writeTo("duet.test.readings").append())
                .hasMessageContaining("`sensor`");
        assertThatThrownBy(() -> spark.sql("SELECT 1 AS sensor, 2.0D AS value, 9000000 AS level")
                .writeTo("duet.test.readings").append())
                .hasStackTraceContaining("Out of range value for column 'level' (mediumint): 9000000");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertThat(SparkTesting.rows(statement, "SELECT count(*) FROM readings WHERE sensor = 1 AND value = 2"))
                    .containsExactly("0");
        }
    }

    @Test
    void aSqlTransactionKeepsItsSnapshotWhileSparkWrites() throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("BEGIN");
            List<String> before = SparkTesting.rows(statement, "SELECT count(*) FROM people WHERE id BETWEEN 400001 AND 401000");
            people(400_001, 401_001).writeTo("duet.test.people").append();
            assertThat(SparkTesting.rows(statement, "SELECT count(*) FROM people WHERE id BETWEEN 400001 AND 401000"))
                    .isEqualTo(before).containsExactly("0");
            statement.execute("COMMIT");
            assertThat(SparkTesting.rows(statement, "SELECT count(*) FROM people WHERE id BETWEEN 400001 AND 401000"))
                    .containsExactly("1000");
        }
    }

    /** How many locks the stores hold in a table's key range (of any transaction). */
    private static int locksOfTable(String table) throws Exception {
        long tableId;
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            tableId = Long.parseLong(SparkTesting.rows(statement, "SELECT TIDB_TABLE_ID FROM information_schema.tables"
                    + " WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '" + table + "'").get(0));
        }
        byte[] start = Keys.tablePrefix(tableId);
        byte[] end = Keys.tableEnd(tableId);
        int locks = 0;
        try (PlacementClient placement = cluster.newPlacementClient()) {
            RegionRequestSender sender = new RegionRequestSender(new RegionCache(placement), Duration.ofSeconds(10),
                    ReplicaRead.LEADER);
            byte[] cursor = start;
            while (KeyRanges.compare(cursor, end) < 0) {
                AtomicReference<Region> used = new AtomicReference<>();
                byte[] from = cursor;
                ScanLockResponse response = sender.call(cursor, false, (context, stub) -> stub.kvScanLock(
                        ScanLockRequest.newBuilder().setContext(context).setMaxVersion(Long.MAX_VALUE)
                                .setStartKey(ByteString.copyFrom(from)).setEndKey(ByteString.copyFrom(end)).build()),
                        ScanLockResponse::getRegionError, ScanLockResponse::hasRegionError, ScanLockResponse::getError,
                        used::set);
                locks += response.getLocksCount();
                byte[] regionEnd = used.get().getEndKey().toByteArray();
                if (regionEnd.length == 0) {
                    break;
                }
                cursor = regionEnd;
            }
        }
        return locks;
    }

    /** The statement finishes well within a lock's lifetime: no lock of a failed job is left in its way. */
    private static void assertNoLocksOn(String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SET innodb_lock_wait_timeout = " + LOCKS_GONE_WITHIN.toSeconds());
            statement.execute(sql);
        }
    }
}
