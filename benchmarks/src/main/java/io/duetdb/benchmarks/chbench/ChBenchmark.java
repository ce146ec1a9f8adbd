package io.duetdb.benchmarks.chbench;

import java.io.Closeable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.benchmarks.tpcc.LearnerFreshnessProbe;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.store.StoreConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.chbench.ChBenchmarkData;
import io.duetdb.testing.chbench.ChBenchmarkQueries;
import io.duetdb.testing.chbench.ChBenchmarkTable;
import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.tpcc.TpccDriver;
import io.duetdb.testing.tpcc.TpccLoader;
import io.duetdb.testing.tpcc.TpccRunResult;
import io.duetdb.testing.tpcc.TpccScale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * CH-benCHmark (Cole et al., DBTest 2011) on an in-process DuetDB cluster (three stores, a column learner, one SQL
 * server): the TPC-C population plus CH-benCHmark's supplier, nation and region tables, every table with a learner
 * replica; then, for every pair of transactional (TPC-C terminals, no think time) and analytical (the 22 queries in
 * turn) client counts, both run together and the run reports tpmC, analytical queries per hour and the visibility
 * delay of commits on the learner (the TiDB paper's Table 4). The grid is the interference matrix of its Figure 10,
 * written as CSV and drawn as PNG charts into --out.
 */
@Command(name = "chbench", mixinStandardHelpOptions = true,
        description = "CH-benCHmark: TP and AP throughput together, interference and visibility delay.")
public final class ChBenchmark implements Callable<Integer> {
    private static final String DATABASE = "chbench";
    private static final String CONNECTION_OPTIONS = "useSSL=false&allowPublicKeyRetrieval=true"
            + "&useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=500&prepStmtCacheSqlLimit=4096";
    private static final List<ChBenchmarkTable> EXTRA_TABLES = List.of(ChBenchmarkTable.SUPPLIER,
            ChBenchmarkTable.NATION, ChBenchmarkTable.REGION);

    @Option(names = "--warehouses", defaultValue = "4", description = "(default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--items", defaultValue = "100000", description = "less than 100,000 is a reduced population"
            + " (default: ${DEFAULT-VALUE})")
    int items;

    @Option(names = "--customers-per-district", defaultValue = "3000", description = "(default: ${DEFAULT-VALUE})")
    int customersPerDistrict;

    @Option(names = "--tp-clients", split = ",", defaultValue = "0,8",
            description = "transactional client counts of the grid (default: ${DEFAULT-VALUE})")
    List<Integer> tpClients;

    @Option(names = "--ap-clients", split = ",", defaultValue = "0,1,2",
            description = "analytical client counts of the grid (default: ${DEFAULT-VALUE})")
    List<Integer> apClients;

    @Option(names = "--warmup-seconds", defaultValue = "15", description = "per grid cell (default: ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "60", description = "measured, per grid cell (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--query-timeout-seconds", defaultValue = "120", description = "(default: ${DEFAULT-VALUE})")
    int queryTimeoutSeconds;

    @Option(names = "--ap-engines", defaultValue = "auto", description = "engines of the analytical sessions: auto"
            + " (chosen by cost), tiflash (learners only) or tikv (rows only) (default: ${DEFAULT-VALUE})")
    String apEngines;

    @Option(names = "--no-learners", description = "no learner replicas: everything on the row store")
    boolean noLearners;

    @Option(names = "--url", description = "a running DuetDB instead of the in-process cluster: the JDBC URL of an"
            + " existing database, e.g. jdbc:mysql://127.0.0.1:4000/chbench?user=root (its components in processes of"
            + " their own can be pinned to cores with taskset)")
    String endpointUrl;

    @Option(names = "--learner-status", description = "with --url: a learner's status address (host:port, e.g."
            + " 127.0.0.1:20292) for the visibility probe; without it no visibility delay is measured")
    String learnerStatusAddress;

    @Option(names = "--no-load", description = "with --url: reuse the tables when they hold the warehouses")
    boolean noLoad;

    @Option(names = "--load-threads", defaultValue = "4", description = "(default: ${DEFAULT-VALUE})")
    int loadThreads;

    @Option(names = "--out", defaultValue = "benchmarks/target/chbench",
            description = "directory of results.csv and the charts (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--seed", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
    long seed;

    /** One cell of the grid: the client counts and what they did together. */
    record Cell(int tpClients, int apClients, double tpmC, long tpFailed, double queriesPerHour, long apCompleted,
            long apFailed, double visibilityP50, double visibilityP90, double visibilityP99) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ChBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (!List.of("auto", "tiflash", "tikv").contains(apEngines)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--ap-engines: auto, tiflash or tikv");
        }
        TpccScale scale = new TpccScale(warehouses, items, customersPerDistrict);
        PrintStream progress = System.out;
        progress.println("CH-benCHmark: " + scale.describe() + ", TP clients " + tpClients + ", AP clients "
                + apClients + ", " + warmupSeconds + " s warm-up and " + seconds + " s measured per cell, AP engines "
                + apEngines + (noLearners ? ", no learner replicas" : ""));
        if (endpointUrl != null) {
            run(withOptions(endpointUrl), learnerStatusAddress, scale, progress);
            return 0;
        }
        Path root = Files.createTempDirectory("duet-chbench");
        LoopbackPorts ports = new LoopbackPorts();
        Consumer<StoreConfig> storeConfig = config -> config
                .setBlockCacheSize(DataSize.ofMebibytes(256)).setReserveSpace(DataSize.ofMebibytes(256));
        try (Closeable cleanup = () -> DataDirectories.delete(root);
                LocalCluster cluster = new LocalCluster(root, 1, config -> { }, storeConfig)) {
            cluster.start(3);
            if (!noLearners) {
                cluster.addLearner();
            }
            try (SqlServer server = new SqlServer(new SqlServerConfig()
                    .setPd(cluster.placement().clientAddresses())
                    .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                    .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                progress.printf("duetdb (in-process): MySQL protocol on %s, metrics at http://%s/metrics%n",
                        server.address(), server.statusAddress());
                String base = "jdbc:mysql://" + server.address() + "/%s?user=root";
                execute(withOptions(String.format(base, "test")), "CREATE DATABASE IF NOT EXISTS " + DATABASE);
                run(withOptions(String.format(base, DATABASE)), noLearners ? null
                        : cluster.learner(0).orElseThrow().statusAddress().toString(), scale, progress);
            }
        }
        return 0;
    }

    /** Loads (unless reused), gives the tables learner replicas (unless --no-learners), runs the grid and reports. */
    private void run(String jdbcUrl, String learnerAddress, TpccScale scale, PrintStream progress) throws Exception {
        boolean reuse = false;
        if (noLoad) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
                reuse = TpccLoader.holds(connection, scale);
            }
            progress.println(reuse ? "reusing the loaded tables" : "the tables do not hold the warehouses: loading");
        }
        if (!reuse) {
            load(jdbcUrl, scale, progress);
        }
        if (!noLearners) {
            LearnerFreshnessProbe.addReplicas(jdbcUrl, progress);
        }
        List<Cell> cells = runGrid(jdbcUrl, noLearners ? null : learnerAddress, scale, progress);
        report(cells, progress);
    }

    private void load(String url, TpccScale scale, PrintStream progress) throws Exception {
        ConnectionSource source = () -> DriverManager.getConnection(url);
        progress.println("loading the TPC-C population");
        TpccLoader.Stats stats = new TpccLoader(source, scale, loadThreads, 500, progress).load();
        progress.printf(Locale.ROOT, "loaded %,d rows in %.0f s%n", stats.rows(), stats.seconds());
        progress.println("loading CH-benCHmark's supplier, nation and region");
        // Generated as the reference test generates them (the same seed and shapes).
        DataLoader.loadMysql(source, new ChBenchmarkData(warehouses, items, customersPerDistrict)
                .restrictedTo(EXTRA_TABLES), loadThreads, 500, progress);
        for (ChBenchmarkTable table : EXTRA_TABLES) {
            execute(url, "ANALYZE TABLE " + table.sqlName());
        }
    }

    private List<Cell> runGrid(String url, String learnerStatus, TpccScale scale, PrintStream progress)
            throws Exception {
        String analyticalUrl = apEngines.equals("auto") ? url
                : url + "&sessionVariables=tidb_isolation_read_engines=%27" + apEngines + "%27";
        ChBenchmarkQueries queries = new ChBenchmarkQueries("CH-benCHmark, " + scale.describe());
        Duration warmup = Duration.ofSeconds(warmupSeconds);
        Duration measured = Duration.ofSeconds(seconds);
        List<Cell> cells = new ArrayList<>();
        for (int tp : tpClients) {
            for (int ap : apClients) {
                if (tp == 0 && ap == 0) {
                    continue;
                }
                progress.printf("cell: %d TP client(s), %d AP client(s)%n", tp, ap);
                AtomicReference<TpccRunResult> transactional = new AtomicReference<>();
                AtomicReference<Exception> failure = new AtomicReference<>();
                Thread tpThread = new Thread(() -> {
                    try {
                        transactional.set(new TpccDriver(() -> DriverManager.getConnection(url), scale, tp, progress,
                                seed).run(warmup, measured));
                    } catch (Exception e) {
                        failure.set(e);
                    }
                }, "ch-transactional");
                LearnerFreshnessProbe probe = learnerStatus == null ? null : LearnerFreshnessProbe.start(url,
                        learnerStatus);
                if (tp > 0) {
                    tpThread.start();
                }
                AnalyticalClients.Result analytical = new AnalyticalClients(() -> DriverManager.getConnection(
                        analyticalUrl), queries, ap, Duration.ofSeconds(queryTimeoutSeconds), progress)
                        .run(warmup, measured);
                if (tp > 0) {
                    tpThread.join();
                }
                double[] visibility = {Double.NaN, Double.NaN, Double.NaN};
                if (probe != null) {
                    probe.close();
                    visibility = probe.visibilityMillis(0.50, 0.90, 0.99);
                }
                if (failure.get() != null) {
                    throw failure.get();
                }
                TpccRunResult run = transactional.get();
                Cell cell = new Cell(tp, ap, run == null ? 0 : run.tpmC(), run == null ? 0 : run.failed(),
                        analytical.queriesPerHour(), analytical.completed(), analytical.failed(), visibility[0],
                        visibility[1], visibility[2]);
                progress.printf(Locale.ROOT, "cell: %d TP, %d AP: %,.0f tpmC (%d failed), %,.0f queries/h (%d done,"
                        + " %d failed%s), visibility p50/p90/p99 %.0f/%.0f/%.0f ms%n", tp, ap, cell.tpmC(),
                        cell.tpFailed(), cell.queriesPerHour(), cell.apCompleted(), cell.apFailed(),
                        analytical.errors().isEmpty() ? "" : ": " + analytical.errors(), visibility[0], visibility[1],
                        visibility[2]);
                cells.add(cell);
            }
        }
        return cells;
    }

    private void report(List<Cell> cells, PrintStream progress) throws Exception {
        Files.createDirectories(out);
        List<String> lines = new ArrayList<>();
        lines.add("tp_clients,ap_clients,tpmC,tp_failed,ap_queries_per_hour,ap_completed,ap_failed,"
                + "visibility_p50_ms,visibility_p90_ms,visibility_p99_ms");
        for (Cell cell : cells) {
            lines.add(String.format(Locale.ROOT, "%d,%d,%.1f,%d,%.1f,%d,%d,%.1f,%.1f,%.1f", cell.tpClients(),
                    cell.apClients(), cell.tpmC(), cell.tpFailed(), cell.queriesPerHour(), cell.apCompleted(),
                    cell.apFailed(), cell.visibilityP50(), cell.visibilityP90(), cell.visibilityP99()));
        }
        Files.write(out.resolve("results.csv"), lines);
        ChBenchmarkCharts.write(cells, out);
        progress.println();
        progress.println("=== CH-benCHmark results ===");
        progress.println("interference matrix: tpmC / analytical queries per hour (rows: TP clients, columns: AP"
                + " clients)");
        StringBuilder header = new StringBuilder(String.format("%10s", "TP \\ AP"));
        apClients.forEach(ap -> header.append(String.format("%22d", ap)));
        progress.println(header);
        for (int tp : tpClients) {
            StringBuilder row = new StringBuilder(String.format("%10d", tp));
            for (int ap : apClients) {
                Cell cell = cells.stream().filter(c -> c.tpClients() == tp && c.apClients() == ap).findFirst()
                        .orElse(null);
                row.append(cell == null ? String.format("%22s", "-")
                        : String.format(Locale.ROOT, "%22s", String.format(Locale.ROOT, "%,.0f / %,.0f", cell.tpmC(),
                                cell.queriesPerHour())));
            }
            progress.println(row);
        }
        progress.println("visibility delay (commit acknowledged -> row read from the learner), per cell:");
        for (Cell cell : cells) {
            progress.printf(Locale.ROOT, "  %d TP, %d AP: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms%n", cell.tpClients(),
                    cell.apClients(), cell.visibilityP50(), cell.visibilityP90(), cell.visibilityP99());
        }
        progress.println("results: " + out.resolve("results.csv").toAbsolutePath() + "; charts: "
                + out.resolve("tp-throughput.png").toAbsolutePath() + ", "
                + out.resolve("ap-throughput.png").toAbsolutePath());
    }

    private static void execute(String url, String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String withOptions(String url) {
        return url + (url.contains("?") ? "&" : "?") + CONNECTION_OPTIONS;
    }
}
