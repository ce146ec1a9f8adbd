package io.duetdb.benchmarks.tpch;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.benchmarks.mariadb.PrivateMariaDb;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.reference.DuckDbReference;
import io.duetdb.testing.reference.QueryResult;
import io.duetdb.testing.reference.QueryRunner;
import io.duetdb.testing.tpch.TpchData;
import io.duetdb.testing.tpch.TpchLoader;
import io.duetdb.testing.tpch.TpchQueries;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.benchmarks.common.JdbcUrls;

/**
 * TPC-H through MySQL Connector/J: generates the data at a scale factor, loads it through the SQL layer into a
 * DuetDB cluster in this JVM (three stores, one SQL server; skipped with --no-local) and into any --url endpoint
 * (MariaDB, a running playground), then runs each query --runs times with a timeout and prints the median per
 * query per endpoint, the totals, and the queries that failed or timed out. --check also compares every
 * endpoint's results with DuckDB's on the same data.
 *
 * <p>--mariadb adds a MariaDB server of the run's own ({@link PrivateMariaDb}: a temporary data directory, a free
 * loopback port, --mariadb-buffer-pool of InnoDB buffer pool), loaded and timed like any --url endpoint and stopped
 * and deleted before the in-process cluster starts, so that one command compares DuetDB with MariaDB on this machine:
 * {@code benchmarks/bench tpch --sf 1 --mariadb}. It needs mariadbd ({@code bin/setup-test-tools mariadb}).
 */
@Command(name = "tpch", mixinStandardHelpOptions = true,
        description = "TPC-H query times on DuetDB beside other MySQL servers (median of --runs per query).")
public final class TpchBenchmark implements Callable<Integer> {
    private static final Duration MARIADB_STATEMENT_LIMIT_MARGIN = Duration.ofSeconds(30);

    @Option(names = "--sf", defaultValue = "1", description = "scale factor (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--url", description = "JDBC URLs of MySQL endpoints, e.g. "
            + "jdbc:mysql://127.0.0.1:3307/bench?user=bench&password=bench (repeatable)")
    List<String> urls = new ArrayList<>();

    @Option(names = "--mariadb", description = "also start a MariaDB server of this run's own (mariadbd from Debian's"
            + " mariadb-server: bin/setup-test-tools mariadb) and time the queries on it")
    boolean mariadb;

    @Option(names = "--mariadb-buffer-pool", defaultValue = "2GiB",
            description = "InnoDB buffer pool of the --mariadb server (default: ${DEFAULT-VALUE})")
    String mariadbBufferPool;

    @Option(names = "--no-local", description = "do not start an in-process DuetDB cluster")
    boolean noLocal;

    @Option(names = "--queries", defaultValue = "1-22", description = "queries to run, e.g. 1-22 or 1,3,6-9 "
            + "(default: ${DEFAULT-VALUE})")
    String queries;

    @Option(names = "--runs", defaultValue = "3", description = "runs per query; the median is reported "
            + "(default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--timeout-seconds", defaultValue = "120", description = "per query run (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--no-load", description = "reuse the tables at the --url endpoints when their row counts match"
            + " the scale factor (the in-process cluster always loads)")
    boolean noLoad;

    @Option(names = "--load-threads", defaultValue = "4", description = "loading connections (default: ${DEFAULT-VALUE})")
    int loadThreads;

    @Option(names = "--rows-per-insert", defaultValue = "1000",
            description = "rows per multi-row INSERT (default: ${DEFAULT-VALUE})")
    int rowsPerInsert;

    @Option(names = "--without-push-down", description = "also time the in-process DuetDB with coprocessor push-down"
            + " switched off, on the same data")
    boolean withoutPushDown;

    @Option(names = "--learners", description = "also time the in-process DuetDB with every table read from a column"
            + " learner (SET TIFLASH REPLICA 1, tidb_isolation_read_engines = 'tiflash'), and with the engines chosen"
            + " by cost (both allowed)")
    boolean learners;

    @Option(names = "--learner-count", description = "with --learners: how many column learners to start, each table"
            + " getting a replica on every one (default: ${DEFAULT-VALUE})")
    int learnerCount = 1;

    @Option(names = "--mpp", description = "with --learners: also time the queries with tidb_enforce_mpp = 1, so that"
            + " joins and aggregations over the learners' columns run as MPP fragments on the learners")
    boolean mpp;

    @Option(names = "--check", description = "compare every result with DuckDB's on the same data")
    boolean check;

    @Option(names = "--duckdb", description = "also time DuckDB in process (JDBC driver) on the same data, and print"
            + " each endpoint's total as a ratio to DuckDB's")
    boolean duckdb;

    /** One endpoint's outcome for one query. */
    record Timing(String status, double[] seconds, String detail) {
        double median() {
            double[] sorted = seconds.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
        }

        boolean finished() {
            return status.equals("ok") || status.equals("wrong");
        }
    }

    /** One endpoint's load and query timings. */
    record EndpointResult(String name, double loadSeconds, long rows, Map<Integer, Timing> timings) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TpchBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Integer> selected = TpchQueries.parseSelection(queries);
        TpchData data = new TpchData(scaleFactor);
        Map<Integer, QueryResult> expected = new LinkedHashMap<>();
        List<EndpointResult> results = new ArrayList<>();
        if (check || duckdb) {
            long loadStarted = System.nanoTime();
            try (DuckDbReference reference = DuckDbReference.load(data, System.out);
                    QueryRunner runner = reference.runner()) {
                double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
                Map<Integer, Timing> timings = new LinkedHashMap<>();
                for (int query : selected) {
                    List<Double> seconds = new ArrayList<>();
                    String status = "ok";
                    String detail = null;
                    for (int run = 0; run < (duckdb ? runs : 1); run++) {
                        QueryRunner.Outcome outcome = runner.run(TpchQueries.referenceSql(query, scaleFactor),
                                Duration.ofMinutes(10));
                        if (outcome.status() != QueryRunner.Status.OK) {
                            System.out.printf("duckdb (in-process): Q%02d failed: %s%n", query, outcome.error());
                            status = "error";
                            detail = outcome.error();
                            break;
                        }
                        seconds.add(outcome.seconds());
                        if (run == 0 && check) {
                            expected.put(query, outcome.result());
                        }
                    }
                    Timing timing = new Timing(status, seconds.stream().mapToDouble(Double::doubleValue).toArray(), detail);
                    timings.put(query, timing);
                    if (duckdb && timing.finished()) {
                        System.out.printf("duckdb (in-process): Q%02d %.3f s (median of %d)%n", query, timing.median(),
                                seconds.size());
                    }
                }
                if (duckdb) {
                    results.add(new EndpointResult("duckdb (in-process)", loadSeconds,
                            data.tables().stream().mapToLong(data::approximateRows).sum(), timings));
                }
            }
        }
        for (String url : urls) {
            results.add(runEndpoint(JdbcUrls.endpointName(url), url, data, selected, expected, !noLoad));
        }
        if (mariadb) {
            results.add(runPrivateMariaDb(data, selected, expected));
        }
        if (!noLocal) {
            Path root = Files.createTempDirectory("duet-tpch-bench");
            LoopbackPorts ports = new LoopbackPorts();
            try (Closeable cleanup = () -> DataDirectories.delete(root); LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> config
                    .setBlockCacheSize(DataSize.ofMebibytes(256)).setReserveSpace(DataSize.ofMebibytes(256)))) {
                cluster.start(3);
                if (learners) {
                    for (int i = 0; i < learnerCount; i++) {
                        cluster.addLearner();
                    }
                }
                try (SqlServer server = new SqlServer(new SqlServerConfig()
                        .setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                    System.out.printf("duetdb (in-process): MySQL protocol on %s, metrics at http://%s/metrics%n",
                            server.address(), server.statusAddress());
                    String base = "jdbc:mysql://" + server.address() + "/%s?user=root&useSSL=false";
                    try (Connection connection = DriverManager.getConnection(String.format(base, "test"));
                            Statement statement = connection.createStatement()) {
                        statement.execute("CREATE DATABASE IF NOT EXISTS tpch");
                    }
                    results.add(0, runEndpoint("duetdb (in-process)", String.format(base, "tpch"), data, selected,
                            expected, true));
                    if (withoutPushDown) {
                        results.add(1, runEndpoint("duetdb (push-down off)", String.format(base, "tpch")
                                + "&sessionVariables=duet_coprocessor_push_down=OFF", data, selected, expected, false));
                    }
                    if (learners) {
                        awaitLearnerReplicas(String.format(base, "tpch"), learnerCount);
                        if (mpp) {
                            results.add(1, runEndpoint("duetdb (MPP, " + learnerCount + " learner(s))",
                                    String.format(base, "tpch") + "&sessionVariables=tidb_isolation_read_engines=%27tiflash%27,"
                                            + "tidb_enforce_mpp=1", data, selected, expected, false));
                        }
                        results.add(1, runEndpoint("duetdb (learners)", String.format(base, "tpch")
                                + "&sessionVariables=tidb_isolation_read_engines=%27tiflash%27", data, selected, expected,
                                false));
                        // Both engines allowed, as a session has them by default: the costs choose per table.
                        results.add(2, runEndpoint("duetdb (engines by cost)", String.format(base, "tpch"), data,
                                selected, expected, false));
                        // The row store alone again, now as warm as the runs before it.
                        results.add(3, runEndpoint("duetdb (rows, warm)", String.format(base, "tpch")
                                + "&sessionVariables=tidb_isolation_read_engines=%27tikv%27", data, selected, expected,
                                false));
                    }
                }
            }
        }
        print(results, selected);
        return 0;
    }

    /** Gives every TPC-H table a column learner replica and waits until all are available, printing progress. */
    private static void awaitLearnerReplicas(String url, int replicas) throws Exception {
        List<String> tables = List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders",
                "lineitem");
        long started = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (String table : tables) {
                statement.execute("ALTER TABLE " + table + " SET TIFLASH REPLICA " + replicas);
            }
            while (true) {
                long available = 0;
                double progress = 0;
                try (ResultSet rows = statement.executeQuery("SELECT AVAILABLE, PROGRESS FROM information_schema.tiflash_replica"
                        + " WHERE TABLE_SCHEMA = 'tpch'")) {
                    while (rows.next()) {
                        available += rows.getLong(1);
                        progress += rows.getDouble(2);
                    }
                }
                System.out.printf("duetdb (learners): %d of %d tables available, progress %.0f%%, %.1f s%n", available,
                        tables.size(), 100 * progress / tables.size(), (System.nanoTime() - started) / 1e9);
                if (available == tables.size()) {
                    return;
                }
                Thread.sleep(2000);
            }
        }
    }

    /**
     * Times the queries on a MariaDB of this run's own, stopped before the in-process cluster starts. Its
     * max_statement_time backs up the harness's cancel at the timeout: a query the cancel missed still ends.
     */
    private EndpointResult runPrivateMariaDb(TpchData data, List<Integer> selected, Map<Integer, QueryResult> expected)
            throws Exception {
        PrivateMariaDb.Config config = new PrivateMariaDb.Config(DataSize.parse(mariadbBufferPool),
                Duration.ofSeconds(timeoutSeconds).plus(MARIADB_STATEMENT_LIMIT_MARGIN), Duration.ofMinutes(2));
        try (PrivateMariaDb server = new PrivateMariaDb(config, System.out).start()) {
            return runEndpoint("mariadb (private)", server.jdbcUrl(PrivateMariaDb.DATABASE), data, selected, expected,
                    true);
        }
    }

    private static String withOptions(String url) {
        return url + (url.contains("?") ? "&" : "?") + "useSSL=false&allowPublicKeyRetrieval=true";
    }

    private EndpointResult runEndpoint(String name, String url, TpchData data, List<Integer> selected,
            Map<Integer, QueryResult> expected, boolean load) throws Exception {
        String jdbc = withOptions(url);
        ConnectionSource source = () -> DriverManager.getConnection(jdbc);
        double loadSeconds = Double.NaN;
        long rows = 0;
        boolean reuse = false;
        if (!load) {
            try (Connection connection = source.open()) {
                reuse = TpchLoader.holds(connection, data);
            }
            System.out.printf("%s: %s%n", name, reuse ? "reusing the loaded tables"
                    : "the tables do not hold SF " + scaleFactor + "'s rows; loading");
        }
        if (!reuse) {
            System.out.printf("%s: loading SF %s (%d connections, %d rows per INSERT)%n", name, scaleFactor,
                    loadThreads, rowsPerInsert);
            DataLoader.Stats stats = DataLoader.loadMysql(source, data, loadThreads, rowsPerInsert, System.out);
            loadSeconds = stats.seconds();
            rows = stats.totalRows();
        }
        Map<Integer, Timing> timings = new LinkedHashMap<>();
        try (QueryRunner runner = new QueryRunner(name, source)) {
            for (int query : selected) {
                String sql = TpchQueries.sql(query, scaleFactor);
                List<Double> seconds = new ArrayList<>();
                String status = "ok";
                String detail = null;
                for (int run = 0; run < runs; run++) {
                    QueryRunner.Outcome outcome = runner.run(sql, Duration.ofSeconds(timeoutSeconds));
                    if (outcome.status() != QueryRunner.Status.OK) {
                        status = outcome.status() == QueryRunner.Status.TIMEOUT ? "timeout" : "error";
                        detail = outcome.error();
                        break;
                    }
                    seconds.add(outcome.seconds());
                    if (run == 0 && expected.containsKey(query)) {
                        String differences = expected.get(query).differences(outcome.result(), TpchQueries.ordered(query));
                        if (differences != null) {
                            status = "wrong";
                            detail = differences;
                        }
                    }
                }
                Timing timing = new Timing(status, seconds.stream().mapToDouble(Double::doubleValue).toArray(), detail);
                timings.put(query, timing);
                System.out.printf("%s: Q%02d %s%s%n", name, query, status.equals("ok") || status.equals("wrong")
                        ? String.format("%.3f s (median of %d)", timing.median(), seconds.size()) : status,
                        detail == null ? "" : ": " + abbreviate(detail, 300));
            }
        }
        return new EndpointResult(name, loadSeconds, rows, timings);
    }

    private void print(List<EndpointResult> results, List<Integer> selected) {
        System.out.println();
        System.out.printf("TPC-H SF %s: median of %d runs per query, seconds; timeout %d s per run%s%n", scaleFactor,
                runs, timeoutSeconds, check ? "; results checked against DuckDB" : "");
        StringBuilder header = new StringBuilder(String.format("%-6s", "query"));
        for (EndpointResult result : results) {
            header.append(String.format(" %22s", abbreviate(result.name(), 22)));
        }
        System.out.println(header);
        for (int query : selected) {
            StringBuilder line = new StringBuilder(String.format("Q%02d   ", query));
            for (EndpointResult result : results) {
                Timing timing = result.timings().get(query);
                String cell = timing.finished() ? String.format("%.3f", timing.median()) : timing.status();
                if (timing.status().equals("wrong")) {
                    cell += " (wrong)";
                }
                line.append(String.format(" %22s", cell));
            }
            System.out.println(line);
        }
        StringBuilder totals = new StringBuilder(String.format("%-6s", "total"));
        StringBuilder finished = new StringBuilder(String.format("%-6s", "done"));
        StringBuilder common = new StringBuilder(String.format("%-6s", "common"));
        StringBuilder loads = new StringBuilder(String.format("%-6s", "load"));
        for (EndpointResult result : results) {
            double total = 0;
            int count = 0;
            double commonTotal = 0;
            for (int query : selected) {
                Timing timing = result.timings().get(query);
                if (timing.finished()) {
                    total += timing.median();
                    count++;
                }
                if (results.stream().allMatch(r -> r.timings().get(query).finished())) {
                    commonTotal += timing.median();
                }
            }
            totals.append(String.format(" %22.3f", total));
            finished.append(String.format(" %22s", count + "/" + selected.size()));
            common.append(String.format(" %22.3f", commonTotal));
            loads.append(String.format(" %22s", Double.isNaN(result.loadSeconds()) ? "reused"
                    : String.format("%.0f s, %,.0f rows/s", result.loadSeconds(), result.rows() / result.loadSeconds())));
        }
        System.out.println(totals);
        System.out.println(finished);
        if (results.size() > 1) {
            System.out.println(common);
        }
        System.out.println(loads);
        results.stream().filter(result -> result.name().startsWith("duckdb")).findFirst().ifPresent(reference -> {
            StringBuilder ratios = new StringBuilder(String.format("%-6s", "ratio"));
            double referenceTotal = commonTotal(reference, results, selected);
            for (EndpointResult result : results) {
                ratios.append(String.format(" %21.1fx", commonTotal(result, results, selected) / referenceTotal));
            }
            System.out.println(ratios + "   (common total over DuckDB's)");
        });
        System.out.println("total: sum of the medians of the queries that finished on that endpoint; done: how many"
                + " finished;" + (results.size() > 1 ? " common: the sum over the queries every endpoint finished;" : "")
                + " load: through the SQL layer, multi-row INSERTs");
        for (EndpointResult result : results) {
            result.timings().forEach((query, timing) -> {
                if (!timing.status().equals("ok")) {
                    System.out.printf("%s: Q%02d %s: %s%n", result.name(), query, timing.status(),
                            abbreviate(timing.detail(), 300));
                }
            });
        }
    }

    private static double commonTotal(EndpointResult result, List<EndpointResult> results, List<Integer> selected) {
        double total = 0;
        for (int query : selected) {
            if (results.stream().allMatch(r -> r.timings().get(query).finished())) {
                total += result.timings().get(query).median();
            }
        }
        return total;
    }

    private static String abbreviate(String text, int length) {
        return text == null || text.length() <= length ? text : text.substring(0, length) + "...";
    }
}
