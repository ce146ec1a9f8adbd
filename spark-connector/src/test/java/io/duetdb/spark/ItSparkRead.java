package io.duetdb.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;

/**
 * Spark reads DuetDB tables through the connector jar: the catalog lists databases and tables with their MySQL types
 * mapped to Spark's, a read over several regions answers as the SQL server does, filters and limits reach the
 * coprocessor (and answers are the same without push-down), TIMESTAMP values are instants in Spark's session time
 * zone while DATETIME values are not, tables with a columnar replica are read from the learner, and past snapshots
 * are read with TIMESTAMP AS OF and VERSION AS OF.
 */
class ItSparkRead {
    private static final Duration AVAILABLE_WITHIN = Duration.ofSeconds(90);
    private static final int ITEMS = 3000;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static SparkSession spark;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(1);
        cluster.addLearner(config -> config.setDeltaMergeRows(200).setMergeCheckInterval(Duration.ofMillis(300)));
        server = SparkTesting.startServer(cluster, config -> { });
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "test"));
                Statement statement = connection.createStatement();
                PlacementClient placement = cluster.newPlacementClient();
                StoreAdminCalls admin = new StoreAdminCalls(placement)) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("USE shop");
            statement.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, small TINYINT, medium INT, price DECIMAL(12,2),"
                    + " ratio DOUBLE, weight FLOAT, name VARCHAR(40), note TEXT, data VARBINARY(16), born DATE,"
                    + " updated DATETIME(6), stamped TIMESTAMP NULL, took TIME)");
            SparkTesting.insertRows(statement, "items", 1, ITEMS, i -> i + ", " + (i % 100 - 50) + ", " + (i * 7) + ", "
                    + (i % 1000) + "." + (i % 100) + ", " + (i / 8.0) + ", " + (i % 10) + ".5, 'item " + i + "', "
                    + (i % 5 == 0 ? "NULL" : "'note %_" + i + "'") + ", X'0A" + String.format("%02X", i % 256) + "', '2026-"
                    + String.format("%02d", 1 + i % 12) + "-" + String.format("%02d", 1 + i % 28) + "', '2026-03-01 12:00:0"
                    + (i % 10) + ".25', '2026-03-01 12:00:00', '" + (i % 30) + ":15:00'");
            long itemsId = Long.parseLong(SparkTesting.rows(statement, "SELECT TIDB_TABLE_ID FROM information_schema.tables"
                    + " WHERE TABLE_NAME = 'items'").get(0));
            for (long key : new long[] {700, 1500, 2300}) {
                admin.split(Keys.recordKey(itemsId, key));
            }
            statement.execute("CREATE TABLE events (id INT PRIMARY KEY, kind VARCHAR(10), amount DECIMAL(10,2))");
            SparkTesting.insertRows(statement, "events", 1, 1000, i -> i + ", 'k" + (i % 7) + "', " + (i % 97) + ".5");
            statement.execute("ALTER TABLE events SET TIFLASH REPLICA 1");
            LocalCluster.await("the learner replica of events", AVAILABLE_WITHIN, () -> {
                try {
                    return SparkTesting.rows(statement, "SELECT AVAILABLE FROM information_schema.tiflash_replica"
                            + " WHERE TABLE_NAME = 'events'").equals(List.of("1"));
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
            statement.execute("CREATE TABLE counters (id INT UNSIGNED PRIMARY KEY, hits BIGINT UNSIGNED,"
                    + " level TINYINT UNSIGNED)");
            statement.execute("INSERT INTO counters VALUES (1, 0, 0), (7, 9223372036854775808, 200),"
                    + " (4294967295, 18446744073709551615, 255)");
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

    @AfterEach
    void resetSession() {
        spark.conf().unset("spark.duet.isolation_read_engines");
        spark.conf().unset("spark.duet.push_down");
        spark.conf().set("spark.sql.session.timeZone", "UTC");
    }

    @Test
    void catalogListsDatabasesAndTablesWithSparkTypes() {
        assertThat(SparkTesting.rows(spark.sql("SHOW NAMESPACES IN duet").collectAsList())).contains("shop", "test");
        assertThat(SparkTesting.rows(spark.sql("SHOW TABLES IN duet.shop").collectAsList()))
                .containsExactlyInAnyOrder("shop|counters|false", "shop|events|false", "shop|items|false");
        List<String> columns = SparkTesting.rows(spark.sql("DESCRIBE TABLE duet.shop.items").collectAsList());
        assertThat(columns).startsWith("id|bigint|null", "small|tinyint|null", "medium|int|null", "price|decimal(12,2)|null",
                "ratio|double|null", "weight|float|null", "name|string|null", "note|string|null", "data|binary|null",
                "born|date|null", "updated|timestamp_ntz|null", "stamped|timestamp|null",
                "took|interval hour to second|null");
        assertThatThrownBy(() -> spark.table("duet.shop.missing")).hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
        assertThatThrownBy(() -> spark.sql("SHOW TABLES IN duet.nowhere").collect()).hasMessageContaining("SCHEMA_NOT_FOUND");
    }

    @Test
    void aScanOverSeveralRegionsAnswersAsTheSqlServer() throws Exception {
        Dataset<Row> items = spark.table("duet.shop.items");
        assertThat(items.count()).isEqualTo(ITEMS);
        String plan = items.queryExecution().executedPlan().toString();
        assertThat(plan).contains("DuetScan shop.items").contains("engine=tikv").contains("regions=4");
        List<String> aggregates = SparkTesting.rows(spark.sql("SELECT count(*), count(note), sum(small), sum(medium),"
                + " sum(price), min(name), max(name), min(born), max(born) FROM duet.shop.items").collectAsList());
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "shop"));
                Statement statement = connection.createStatement()) {
            assertThat(aggregates).containsExactly(String.join("|", SparkTesting.rows(statement, "SELECT count(*),"
                    + " count(note), sum(small), sum(medium), sum(price), min(name), max(name), min(born), max(born)"
                    + " FROM items")));
        }
        List<String> row = SparkTesting.rows(spark.sql("SELECT id, small, medium, price, ratio, weight, name, note,"
                + " hex(data), born, updated, took FROM duet.shop.items WHERE id = 1234").collectAsList());
        assertThat(row).containsExactly("1234|-16|8638|234.34|154.25|4.5|item 1234|note %_1234|0AD2|2026-11-03"
                + "|2026-03-01T12:00:04.250|PT4H15M");
        assertThat(spark.sql("SELECT count(*) FROM duet.shop.items WHERE note IS NULL").first().getLong(0))
                .isEqualTo(ITEMS / 5);
    }

    @Test
    void filtersAndLimitsArePushedAndAnswerAsWithoutPushDown() {
        List<String> queries = List.of(
                "SELECT id, name FROM duet.shop.items WHERE medium > 7000 AND small < 0 ORDER BY id",
                "SELECT id FROM duet.shop.items WHERE name LIKE 'item 12%' ORDER BY id",
                "SELECT id FROM duet.shop.items WHERE note LIKE '%\\%\\_29%' ORDER BY id",
                "SELECT count(*) FROM duet.shop.items WHERE price BETWEEN 10.5 AND 99.99 OR id IN (1, 2, 3000)",
                "SELECT id FROM duet.shop.items WHERE born >= DATE'2026-11-01' AND NOT (ratio > 300) ORDER BY id",
                "SELECT id FROM duet.shop.items WHERE updated < TIMESTAMP_NTZ'2026-03-01 12:00:01' ORDER BY id LIMIT 5");
        for (String query : queries) {
            Dataset<Row> pushed = spark.sql(query);
            String plan = pushed.queryExecution().executedPlan().toString();
            assertThat(plan).as(query).contains("pushedFilters=[").doesNotContain("pushedFilters=[]");
            List<String> expected = SparkTesting.rows(pushed.collectAsList());
            assertThat(expected).as(query).isNotEmpty();
            spark.conf().set("spark.duet.push_down", "false");
            Dataset<Row> unpushed = spark.sql(query);
            assertThat(unpushed.queryExecution().executedPlan().toString()).as(query).contains("pushedFilters=[]");
            assertThat(SparkTesting.rows(unpushed.collectAsList())).as(query).isEqualTo(expected);
            spark.conf().unset("spark.duet.push_down");
        }
        Dataset<Row> limited = spark.sql("SELECT id FROM duet.shop.items LIMIT 3");
        assertThat(limited.queryExecution().executedPlan().toString()).contains("pushedLimit=3");
        assertThat(limited.collectAsList()).hasSize(3);
    }

    @Test
    void aggregatesArePushedAsPartialAggregatesAndAnswerAsWithoutPushDown() {
        List<String> queries = List.of(
                "SELECT small, count(*), count(note), sum(medium), sum(price), sum(ratio), min(name), max(born)"
                        + " FROM duet.shop.items WHERE id > 100 GROUP BY small ORDER BY small",
                "SELECT count(*), sum(price), avg(price), min(updated), max(weight) FROM duet.shop.items",
                "SELECT kind, avg(amount), count(*) FROM duet.shop.events GROUP BY kind ORDER BY kind");
        for (String query : queries) {
            Dataset<Row> pushed = spark.sql(query);
            assertThat(pushed.queryExecution().executedPlan().toString()).as(query).contains("pushedAggregate=");
            List<String> expected = SparkTesting.rows(pushed.collectAsList());
            assertThat(expected).as(query).isNotEmpty();
            spark.conf().set("spark.duet.push_down", "false");
            Dataset<Row> unpushed = spark.sql(query);
            assertThat(unpushed.queryExecution().executedPlan().toString()).as(query).doesNotContain("pushedAggregate=");
            assertThat(SparkTesting.rows(unpushed.collectAsList())).as(query).isEqualTo(expected);
            spark.conf().unset("spark.duet.push_down");
        }
    }

    @Test
    void timestampsAreInstantsAndDatetimesAreNot() {
        spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
        Row row = spark.sql("SELECT date_format(stamped, 'yyyy-MM-dd HH:mm:ss'), unix_timestamp(stamped),"
                + " date_format(updated, 'yyyy-MM-dd HH:mm:ss.SS') FROM duet.shop.items WHERE id = 10").first();
        assertThat(row.getString(0)).isEqualTo("2026-03-01 04:00:00");
        assertThat(row.getLong(1)).isEqualTo(java.time.Instant.parse("2026-03-01T12:00:00Z").getEpochSecond());
        assertThat(row.getString(2)).isEqualTo("2026-03-01 12:00:00.25");
        assertThat(spark.sql("SELECT count(*) FROM duet.shop.items WHERE stamped = TIMESTAMP'2026-03-01 04:00:00'")
                .first().getLong(0)).isEqualTo(ITEMS);
    }

    @Test
    void aTableWithAColumnarReplicaIsReadFromTheLearner() {
        String query = "SELECT kind, count(*), sum(amount) FROM duet.shop.events WHERE id > 100 GROUP BY kind ORDER BY kind";
        Dataset<Row> fromLearner = spark.sql(query);
        assertThat(fromLearner.queryExecution().executedPlan().toString()).contains("engine=tiflash");
        List<String> expected = SparkTesting.rows(fromLearner.collectAsList());
        assertThat(expected).hasSize(7);
        spark.conf().set("spark.duet.isolation_read_engines", "tikv");
        Dataset<Row> fromRows = spark.sql(query);
        assertThat(fromRows.queryExecution().executedPlan().toString()).contains("engine=tikv");
        assertThat(SparkTesting.rows(fromRows.collectAsList())).isEqualTo(expected);
        spark.conf().set("spark.duet.isolation_read_engines", "tiflash");
        assertThatThrownBy(() -> spark.sql("SELECT count(*) FROM duet.shop.items").collect())
                .hasMessageContaining("allows tiflash only").hasMessageContaining("no columnar replica");
    }

    @Test
    void pastSnapshotsAreReadAsOfATimeOrATimestamp() throws Exception {
        long before;
        try (PlacementClient placement = cluster.newPlacementClient()) {
            before = placement.getTimestamp().packed();
        }
        String beforeTime = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
                .withZone(java.time.ZoneOffset.UTC).format(io.duetdb.common.time.Timestamp.fromPacked(before).physicalInstant());
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "shop"));
                Statement statement = connection.createStatement()) {
            statement.execute("UPDATE events SET amount = amount + 1000 WHERE id <= 10");
        }
        assertThat(spark.sql("SELECT sum(amount) FROM duet.shop.events WHERE id <= 10").first().getDecimal(0))
                .isEqualByComparingTo("10060.00");
        assertThat(spark.sql("SELECT sum(amount) FROM duet.shop.events VERSION AS OF '" + before + "' WHERE id <= 10")
                .first().getDecimal(0)).isEqualByComparingTo("60.00");
        assertThat(spark.sql("SELECT sum(amount) FROM duet.shop.events TIMESTAMP AS OF '" + beforeTime + "' WHERE id <= 10")
                .first().getDecimal(0)).isEqualByComparingTo("60.00");
    }

    @Test
    void analyzedRowCountsReachSparksPlanner() throws Exception {
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "shop"));
                Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE TABLE items");
        }
        scala.Option<scala.math.BigInt> rows = spark.table("duet.shop.items").queryExecution().optimizedPlan().stats()
                .rowCount();
        assertThat(rows.isDefined()).isTrue();
        assertThat(rows.get().longValue()).isEqualTo(ITEMS);
        assertThat(spark.table("duet.shop.counters").queryExecution().optimizedPlan().stats().rowCount().isDefined())
                .as("a table never analyzed has no row count").isFalse();
    }

    @Test
    void theDataSourceReadsATableWithoutTheCatalog() {
        Dataset<Row> events = spark.read().format("duet").option("pd", SparkTesting.placement(cluster))
                .option("table", "shop.events").load();
        assertThat(events.schema().fieldNames()).containsExactly("id", "kind", "amount");
        assertThat(events.filter("kind = 'k3'").count()).isEqualTo(143);
        assertThatThrownBy(() -> spark.read().format("duet").option("pd", SparkTesting.placement(cluster)).load())
                .hasMessageContaining("option 'table' is missing");
        assertThatThrownBy(() -> spark.read().format("duet").option("pd", SparkTesting.placement(cluster))
                .option("table", "shop.nothing").load()).hasMessageContaining("table shop.nothing does not exist");
        assertThatThrownBy(() -> spark.read().format("duet").option("table", "shop.events").load())
                .hasMessageContaining("option 'pd' is missing");
    }

    @Test
    void unsignedIntegersAreWidened() {
        assertThat(spark.table("duet.shop.counters").schema().simpleString())
                .isEqualTo("struct<id:bigint,hits:decimal(20,0),level:smallint>");
        assertThat(SparkTesting.rows(spark.sql("SELECT * FROM duet.shop.counters ORDER BY id").collectAsList()))
                .containsExactly("1|0|0", "7|9223372036854775808|200", "4294967295|18446744073709551615|255");
        assertThat(spark.sql("SELECT id FROM duet.shop.counters WHERE hits > 9223372036854775807 AND level > 100")
                .count()).isEqualTo(2);
    }
}
