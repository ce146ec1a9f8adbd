package io.duetdb.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.reference.DuckDbReference;
import io.duetdb.testing.reference.QueryResult;
import io.duetdb.testing.reference.QueryRunner;
import io.duetdb.testing.tpch.TpchData;
import io.duetdb.testing.tpch.TpchQueries;
import io.duetdb.testing.tpch.TpchTable;

/**
 * The 22 TPC-H queries in Spark SQL over the connector return DuckDB's results on the same generated data: read from
 * the column learner (every table has a columnar replica), and again from the row store.
 */
class ItSparkTpch {
    private static final double SCALE_FACTOR = 0.01;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static DuckDbReference reference;
    static SparkSession spark;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(1);
        server = SparkTesting.startServer(cluster, config -> { });
        try (Connection connection = DriverManager.getConnection(SparkTesting.jdbcUrl(server, "test"));
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE tpch");
        }
        TpchData data = new TpchData(SCALE_FACTOR);
        String url = SparkTesting.jdbcUrl(server, "tpch");
        reference = DuckDbReference.load(data, System.out);
        DataLoader.loadMysql(() -> DriverManager.getConnection(url), data, 2, 1_000, System.out);
        cluster.addLearner();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (TpchTable table : data.tables()) {
                statement.execute("ALTER TABLE " + table.sqlName() + " SET TIFLASH REPLICA 1");
            }
            LocalCluster.await("columnar replicas of every table", Duration.ofSeconds(120), () -> {
                try {
                    return SparkTesting.rows(statement, "SELECT count(*) FROM information_schema.tiflash_replica"
                            + " WHERE TABLE_SCHEMA = 'tpch' AND AVAILABLE = 1").equals(List.of(String.valueOf(data.tables().size())));
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
        }
        spark = SparkTesting.spark(cluster);
        spark.sql("USE duet.tpch");
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        if (reference != null) {
            reference.close();
        }
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    @Test
    void theQueriesReturnDuckDbsResultsFromTheLearners() {
        assertThat(spark.sql(TpchQueries.sql(6, SCALE_FACTOR)).queryExecution().executedPlan().toString())
                .contains("engine=tiflash");
        assertThat(differences()).isEmpty();
    }

    @Test
    void theQueriesReturnDuckDbsResultsFromTheRowStore() {
        spark.conf().set("spark.duet.isolation_read_engines", "tikv");
        try {
            assertThat(spark.sql(TpchQueries.sql(6, SCALE_FACTOR)).queryExecution().executedPlan().toString())
                    .contains("engine=tikv");
            assertThat(differences()).isEmpty();
        } finally {
            spark.conf().unset("spark.duet.isolation_read_engines");
        }
    }

    /** One line per query whose result differs from DuckDB's. */
    private static List<String> differences() {
        List<String> differences = new ArrayList<>();
        try (QueryRunner duckdb = reference.runner()) {
            for (int query = 1; query <= TpchQueries.COUNT; query++) {
                QueryRunner.Outcome expected = duckdb.run(TpchQueries.referenceSql(query, SCALE_FACTOR), Duration.ofMinutes(2));
                assertThat(expected.status()).as("DuckDB Q%d", query).isEqualTo(QueryRunner.Status.OK);
                long start = System.nanoTime();
                QueryResult actual = result(spark.sql(TpchQueries.sql(query, SCALE_FACTOR)));
                System.out.printf("Q%02d: %d rows in %.2f s%n", query, actual.rows().size(), (System.nanoTime() - start) / 1e9);
                String difference = expected.result().differences(actual, TpchQueries.ordered(query));
                if (difference != null) {
                    differences.add("Q" + query + ": " + difference);
                }
            }
        }
        return differences;
    }

    /** A Spark result in the reference comparison's normal form. */
    static QueryResult result(Dataset<Row> dataset) {
        List<String> columns = new ArrayList<>();
        List<Integer> scales = new ArrayList<>();
        for (StructField field : dataset.schema().fields()) {
            columns.add(field.name());
            scales.add(field.dataType() instanceof DecimalType decimal ? decimal.scale() : -1);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : dataset.collectAsList()) {
            List<Object> values = new ArrayList<>(row.length());
            for (int i = 0; i < row.length(); i++) {
                values.add(normal(row.isNullAt(i) ? null : row.get(i)));
            }
            rows.add(values);
        }
        return new QueryResult(columns, scales, rows);
    }

    private static Object normal(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : value.toString();
        }
        if (value instanceof Number number) {
            return BigDecimal.valueOf(number.longValue());
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        if (value instanceof LocalDate || value instanceof LocalDateTime) {
            return value;
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toLocalDateTime();
        }
        return value.toString();
    }
}
