package io.duetdb.benchmarks.spark;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.reference.DuckDbReference;
import io.duetdb.testing.tpch.TpchData;
import io.duetdb.testing.tpch.TpchQueries;
import io.duetdb.testing.tpch.TpchTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Spark connector measured as its users run it, beside Spark reading Parquet files of the same data in the same
 * run: TPC-H generated into DuckDB and exported as Parquet; every table written into an in-process DuetDB from
 * Spark through the connector (rows per second per table); columnar replicas; then the 22 queries in Spark SQL
 * (local[2]) over Parquet and over the connector (learners, and the row store with --rows), and a read of every
 * column of lineitem into a count and a hash sum from each engine (rows per second).
 */
@Command(name = "spark", mixinStandardHelpOptions = true, description = "Spark over the DuetDB connector vs Spark over Parquet")
public final class SparkBenchmark implements Callable<Integer> {
    private static final List<String> TABLES = List.of("region", "nation", "supplier", "customer", "part", "partsupp",
            "orders", "lineitem");

    @Option(names = "--sf", defaultValue = "1", description = "scale factor (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--queries", defaultValue = "1-22", description = "queries to run (default: ${DEFAULT-VALUE})")
    String queries;

    @Option(names = "--runs", defaultValue = "3", description = "runs per query; the median is reported (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--stores", defaultValue = "1", description = "row stores of the in-process cluster (default: ${DEFAULT-VALUE})")
    int stores;

    @Option(names = "--rows", description = "also run the queries over the row store (isolation_read_engines=tikv)")
    boolean rows;

    @Option(names = "--spark-master", defaultValue = "local[2]", description = "Spark master (default: ${DEFAULT-VALUE})")
    String master;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SparkBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Integer> selected = TpchQueries.parseSelection(queries);
        TpchData data = new TpchData(scaleFactor);
        Path root = Files.createTempDirectory("duet-spark-bench");
        Path parquet = root.resolve("parquet");
        Files.createDirectories(parquet);
        try (Closeable cleanup = () -> DataDirectories.delete(root)) {
            long started = System.nanoTime();
            try (DuckDbReference reference = DuckDbReference.load(data, System.out)) {
                reference.exportParquet(data.tables(), parquet);
            }
            System.out.printf("parquet: %d tables exported in %.1f s%n", data.tables().size(), (System.nanoTime() - started) / 1e9);
            LoopbackPorts ports = new LoopbackPorts();
            try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), 1, config -> { }, config -> config
                    .setBlockCacheSize(DataSize.ofMebibytes(256)).setReserveSpace(DataSize.ofMebibytes(256)))) {
                cluster.start(stores);
                cluster.addLearner();
                try (SqlServer server = new SqlServer(new SqlServerConfig()
                        .setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                    String url = "jdbc:mysql://" + server.address() + "/%s?user=root&useSSL=false&allowPublicKeyRetrieval=true";
                    try (Connection connection = DriverManager.getConnection(String.format(url, "test"));
                            Statement statement = connection.createStatement()) {
                        statement.execute("CREATE DATABASE IF NOT EXISTS tpch");
                    }
                    try (Connection connection = DriverManager.getConnection(String.format(url, "tpch"))) {
                        DataLoader.createSchema(connection, data.tables());
                    }
                    String placement = String.join(",", cluster.placement().clientAddresses().stream()
                            .map(HostAndPort::toString).toList());
                    SparkSession spark = SparkSession.builder().master(master).appName("duet-spark-benchmark")
                            .config("spark.ui.enabled", "false")
                            .config("spark.sql.shuffle.partitions", "8")
                            .config("spark.sql.catalog.duet", "io.duetdb.spark.DuetCatalog")
                            .config("spark.sql.catalog.duet.pd", placement)
                            .getOrCreate();
                    spark.sparkContext().setLogLevel("WARN");
                    try {
                        write(spark, data, parquet);
                        analyze(String.format(url, "tpch"));
                        awaitReplicas(String.format(url, "tpch"));
                        Map<String, double[]> totals = new LinkedHashMap<>();
                        registerParquet(spark, data, parquet);
                        totals.put("spark (parquet)", runQueries(spark, "spark (parquet)", selected));
                        spark.sql("USE duet.tpch");
                        totals.put("spark (duet, learners)", runQueries(spark, "spark (duet, learners)", selected));
                        if (rows) {
                            spark.conf().set("spark.duet.isolation_read_engines", "tikv");
                            totals.put("spark (duet, rows)", runQueries(spark, "spark (duet, rows)", selected));
                            spark.conf().unset("spark.duet.isolation_read_engines");
                        }
                        readLineitem(spark, "tiflash");
                        readLineitem(spark, "tikv");
                        printTotals(totals, selected);
                    } finally {
                        spark.stop();
                    }
                }
            }
        }
        return 0;
    }

    /** Writes every table from its Parquet file into DuetDB through the connector, timing each. */
    private static void write(SparkSession spark, TpchData data, Path parquet) throws Exception {
        // The rows are counted from the Parquet file before the timed write.
        for (TpchTable table : data.tables()) {
            Dataset<Row> rows = spark.read().parquet(parquet.resolve(table.sqlName() + ".parquet").toString());
            long count = rows.count();
            long started = System.nanoTime();
            rows.writeTo("duet.tpch." + table.sqlName()).append();
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("write %-9s %,11d rows in %7.1f s: %,10.0f rows/s%n", table.sqlName(), count, seconds,
                    count / seconds);
        }
    }

    /** ANALYZE TABLE, as a user would after loading: Spark's planner sizes joins from the row counts. */
    private static void analyze(String url) throws Exception {
        long started = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                statement.execute("ANALYZE TABLE " + table);
            }
        }
        System.out.printf("analyze: %d tables in %.1f s%n", TABLES.size(), (System.nanoTime() - started) / 1e9);
    }

    private static void registerParquet(SparkSession spark, TpchData data, Path parquet) {
        for (TpchTable table : data.tables()) {
            spark.read().parquet(parquet.resolve(table.sqlName() + ".parquet").toString())
                    .createOrReplaceTempView(table.sqlName());
        }
    }

    /** Runs the queries {@code runs} times each; answers each query's median seconds (index = query number). */
    private double[] runQueries(SparkSession spark, String name, List<Integer> selected) {
        double[] medians = new double[TpchQueries.COUNT + 1];
        Arrays.fill(medians, Double.NaN);
        for (int query : selected) {
            double[] seconds = new double[runs];
            long rowsOut = 0;
            try {
                for (int run = 0; run < runs; run++) {
                    long started = System.nanoTime();
                    rowsOut = spark.sql(TpchQueries.sql(query, scaleFactor)).collectAsList().size();
                    seconds[run] = (System.nanoTime() - started) / 1e9;
                }
                Arrays.sort(seconds);
                medians[query] = seconds[runs / 2];
                System.out.printf("%s: Q%02d %.2f s (median of %d, %d rows)%n", name, query, medians[query], runs, rowsOut);
            } catch (RuntimeException e) {
                System.out.printf("%s: Q%02d failed: %s%n", name, query, e.getMessage().lines().findFirst().orElse(""));
            }
        }
        return medians;
    }

    /** Every column of lineitem into a count and a hash of every row (nothing Spark can push down), from one engine. */
    private static void readLineitem(SparkSession spark, String engine) {
        spark.conf().set("spark.duet.isolation_read_engines", engine);
        try {
            Dataset<Row> lineitem = spark.table("duet.tpch.lineitem");
            String columns = String.join(", ", lineitem.columns());
            for (int run = 0; run < 2; run++) {
                long started = System.nanoTime();
                Row result = spark.sql("SELECT count(*), bit_xor(xxhash64(" + columns + ")) FROM duet.tpch.lineitem").first();
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("read lineitem (every column) from %s, run %d: %,d rows in %.1f s: %,.0f rows/s%n", engine,
                        run + 1, result.getLong(0), seconds, result.getLong(0) / seconds);
            }
        } finally {
            spark.conf().unset("spark.duet.isolation_read_engines");
        }
    }

    private static void awaitReplicas(String url) throws Exception {
        long started = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                statement.execute("ALTER TABLE " + table + " SET TIFLASH REPLICA 1");
            }
            while (true) {
                long available = 0;
                try (ResultSet result = statement.executeQuery("SELECT sum(AVAILABLE) FROM information_schema.tiflash_replica"
                        + " WHERE TABLE_SCHEMA = 'tpch'")) {
                    result.next();
                    available = result.getLong(1);
                }
                System.out.printf("learner: %d of %d tables available, %.1f s%n", available, TABLES.size(),
                        (System.nanoTime() - started) / 1e9);
                if (available == TABLES.size()) {
                    return;
                }
                Thread.sleep(2000);
            }
        }
    }

    private static void printTotals(Map<String, double[]> totals, List<Integer> selected) {
        System.out.println();
        System.out.println("query  " + String.join("  ", totals.keySet().stream().map(name -> String.format("%22s", name)).toList()));
        for (int query : selected) {
            List<String> cells = new ArrayList<>();
            for (double[] medians : totals.values()) {
                cells.add(String.format("%22s", Double.isNaN(medians[query]) ? "failed" : String.format("%.2f s", medians[query])));
            }
            System.out.printf("Q%02d    %s%n", query, String.join("  ", cells));
        }
        double[] baseline = totals.values().iterator().next();
        for (Map.Entry<String, double[]> entry : totals.entrySet()) {
            double total = 0;
            double baselineTotal = 0;
            int finished = 0;
            for (int query : selected) {
                if (!Double.isNaN(entry.getValue()[query]) && !Double.isNaN(baseline[query])) {
                    total += entry.getValue()[query];
                    baselineTotal += baseline[query];
                    finished++;
                }
            }
            System.out.printf("%-24s total %.1f s over %d queries, %.2fx spark (parquet)%n", entry.getKey(), total, finished,
                    total / baselineTotal);
        }
    }
}
