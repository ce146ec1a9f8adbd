package io.duetdb.benchmarks.tpcc;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.duetdb.benchmarks.mariadb.PrivateMariaDb;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.tpcc.ConsistencyCheck;
import io.duetdb.testing.tpcc.TpccDriver;
import io.duetdb.testing.tpcc.TpccLoader;
import io.duetdb.testing.tpcc.TpccRunResult;
import io.duetdb.testing.tpcc.TpccScale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.benchmarks.common.JdbcUrls;

/**
 * TPC-C through MySQL Connector/J with server-side prepared statements: loads the initial population into each
 * endpoint (warehouses in parallel), runs the five-transaction mix from --connections terminals without think
 * time for --warmup-seconds and then --seconds, prints tpmC, tpmTotal, latency percentiles and error counts per
 * transaction, then checks the consistency conditions. Endpoints: any --url, a MariaDB of the run's own with
 * --mariadb ({@link PrivateMariaDb}, stopped before the in-process cluster starts), and a DuetDB cluster in this
 * JVM (three stores, one SQL server) unless --no-local; the summary gives each endpoint's tpmC over the first's.
 */
@Command(name = "tpcc", mixinStandardHelpOptions = true,
        description = "TPC-C tpmC, latency and consistency on DuetDB beside other MySQL servers.")
public final class TpccBenchmark implements Callable<Integer> {
    private static final String DATABASE = "tpcc";
    private static final String CONNECTION_OPTIONS = "useSSL=false&allowPublicKeyRetrieval=true"
            + "&useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=500&prepStmtCacheSqlLimit=4096";

    @Option(names = "--warehouses", defaultValue = "4", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--connections", defaultValue = "16", description = "terminals, one connection each"
            + " (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--warmup-seconds", defaultValue = "60", description = "(default: ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "300", description = "measured seconds (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--url", description = "JDBC URLs of MySQL endpoints with an existing database, e.g. "
            + "jdbc:mysql://127.0.0.1:3307/tpcc?user=bench&password=bench (repeatable)")
    List<String> urls = new ArrayList<>();

    @Option(names = "--no-local", description = "do not start an in-process DuetDB cluster")
    boolean noLocal;

    @Option(names = "--mariadb", description = "also run on a MariaDB server of this run's own (mariadbd from"
            + " Debian's mariadb-server: bin/setup-test-tools mariadb)")
    boolean mariadb;

    @Option(names = "--mariadb-buffer-pool", defaultValue = "2GiB",
            description = "InnoDB buffer pool of the --mariadb server (default: ${DEFAULT-VALUE})")
    String mariadbBufferPool;

    @Option(names = "--no-load", description = "reuse the tables at the --url endpoints when they hold the"
            + " warehouses (the in-process cluster and --mariadb always load)")
    boolean noLoad;

    @Option(names = "--load-threads", defaultValue = "4", description = "loading connections (default: ${DEFAULT-VALUE})")
    int loadThreads;

    @Option(names = "--rows-per-insert", defaultValue = "500",
            description = "rows per multi-row INSERT while loading (default: ${DEFAULT-VALUE})")
    int rowsPerInsert;

    @Option(names = "--items", defaultValue = "100000", description = "items (and stock rows per warehouse); less than"
            + " 100,000 is a reduced population, marked as such (default: ${DEFAULT-VALUE})")
    int items;

    @Option(names = "--customers-per-district", defaultValue = "3000", description = "less than 3,000 is a reduced"
            + " population, marked as such (default: ${DEFAULT-VALUE})")
    int customersPerDistrict;

    @Option(names = "--check-timeout-seconds", defaultValue = "600",
            description = "per consistency query and warehouse (default: ${DEFAULT-VALUE})")
    int checkTimeoutSeconds;

    @Option(names = "--no-check", description = "skip the consistency conditions after the run")
    boolean noCheck;

    @Option(names = "--learners", description = "after the in-process run, give every table a column learner replica"
            + " and run again: the tpmC cost of the replicas, and the visibility delay of commits on the learner"
            + " meanwhile (a probe commits a row every 100 ms and reads it back from the learner)")
    boolean learners;

    @Option(names = "--resolved-ts-interval-ms", description = "the stores' resolved-timestamp interval for learners"
            + " (default: the stores' default)")
    Integer resolvedTsIntervalMillis;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the terminals' inputs (default: ${DEFAULT-VALUE})")
    long seed;

    /** One endpoint's load, run and checks. */
    record EndpointResult(String name, TpccLoader.Stats load, TpccRunResult run, List<ConsistencyCheck.Result> checks) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TpccBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        TpccScale scale = new TpccScale(warehouses, items, customersPerDistrict);
        System.out.println("TPC-C: " + scale.describe());
        List<EndpointResult> results = new ArrayList<>();
        for (String url : urls) {
            results.add(runEndpoint(JdbcUrls.endpointName(url), url, scale, !noLoad));
        }
        if (mariadb) {
            results.add(runPrivateMariaDb(scale));
        }
        if (!noLocal) {
            results.addAll(0, runInProcess(scale));
        }
        print(results);
        return 0;
    }

    private EndpointResult runPrivateMariaDb(TpccScale scale) throws Exception {
        PrivateMariaDb.Config config = new PrivateMariaDb.Config(DataSize.parse(mariadbBufferPool), Duration.ZERO,
                Duration.ofMinutes(2));
        try (PrivateMariaDb server = new PrivateMariaDb(config, System.out).start()) {
            createDatabase(server.jdbcUrl(PrivateMariaDb.DATABASE));
            return runEndpoint("mariadb (private)", server.jdbcUrl(DATABASE), scale, true);
        }
    }

    private List<EndpointResult> runInProcess(TpccScale scale) throws Exception {
        Path root = Files.createTempDirectory("duet-tpcc-bench");
        LoopbackPorts ports = new LoopbackPorts();
        try (Closeable cleanup = () -> DataDirectories.delete(root); LocalCluster cluster = new LocalCluster(root, 1, config -> { },
                config -> {
                    config.setBlockCacheSize(DataSize.ofMebibytes(256)).setReserveSpace(DataSize.ofMebibytes(256));
                    if (resolvedTsIntervalMillis != null) {
                        config.setResolvedTsInterval(Duration.ofMillis(resolvedTsIntervalMillis));
                    }
                })) {
            cluster.start(3);
            if (learners) {
                cluster.addLearner();
            }
            try (SqlServer server = new SqlServer(new SqlServerConfig()
                    .setPd(cluster.placement().clientAddresses())
                    .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                    .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                System.out.printf("duetdb (in-process): MySQL protocol on %s, metrics at http://%s/metrics%n",
                        server.address(), server.statusAddress());
                String base = "jdbc:mysql://" + server.address() + "/%s?user=root";
                createDatabase(String.format(base, "test"));
                List<EndpointResult> results = new ArrayList<>();
                results.add(runEndpoint("duetdb (in-process)", String.format(base, DATABASE), scale, true));
                if (learners) {
                    String url = withOptions(String.format(base, DATABASE));
                    LearnerFreshnessProbe.addReplicas(url, System.out);
                    try (LearnerFreshnessProbe probe = LearnerFreshnessProbe.start(url,
                            cluster.learner(0).orElseThrow().statusAddress().toString())) {
                        results.add(runEndpoint("duetdb (learner replicas)", String.format(base, DATABASE), scale,
                                false));
                        probe.print(System.out);
                    }
                }
                return results;
            }
        }
    }

    private static void createDatabase(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(withOptions(url));
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        }
    }

    private EndpointResult runEndpoint(String name, String url, TpccScale scale, boolean load) throws Exception {
        String jdbc = withOptions(url);
        ConnectionSource source = () -> DriverManager.getConnection(jdbc);
        TpccLoader.Stats loadStats = null;
        boolean reuse = false;
        if (!load) {
            try (Connection connection = source.open()) {
                reuse = TpccLoader.holds(connection, scale);
            }
            System.out.printf("%s: %s%n", name, reuse ? "reusing the loaded tables"
                    : "the tables do not hold " + scale.warehouses() + " warehouse(s); loading");
        }
        if (!reuse) {
            System.out.printf("%s: loading%n", name);
            loadStats = new TpccLoader(source, scale, loadThreads, rowsPerInsert, System.out).load();
        }
        System.out.printf("%s: running%n", name);
        TpccRunResult run = new TpccDriver(source, scale, connections, System.out, seed)
                .run(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(seconds));
        run.print(System.out, name);
        List<ConsistencyCheck.Result> checks = List.of();
        if (!noCheck) {
            System.out.printf("%s: checking the consistency conditions%n", name);
            checks = new ConsistencyCheck(source, scale, Duration.ofSeconds(checkTimeoutSeconds)).run(System.out);
        }
        return new EndpointResult(name, loadStats, run, checks);
    }

    private static void print(List<EndpointResult> results) {
        System.out.println();
        System.out.println("=== TPC-C results ===");
        for (EndpointResult result : results) {
            System.out.println();
            if (result.load() != null) {
                System.out.printf("%s: loaded %,d rows in %.0f s (%,.0f rows/s, ANALYZE included)%n", result.name(),
                        result.load().rows(), result.load().seconds(), result.load().rowsPerSecond());
            }
            result.run().print(System.out, result.name());
            if (!result.checks().isEmpty()) {
                long passed = result.checks().stream()
                        .filter(check -> check.status() == ConsistencyCheck.Status.PASSED).count();
                System.out.printf("%s: consistency conditions: %d of %d passed%n", result.name(), passed,
                        result.checks().size());
                for (ConsistencyCheck.Result check : result.checks()) {
                    System.out.printf("  %-8s %-7s %s%s%n", check.condition().clause(), check.status(),
                            check.condition().description(), check.detail() == null ? "" : ": " + check.detail());
                }
            }
        }
        if (results.size() > 1) {
            System.out.println();
            EndpointResult first = results.get(0);
            for (EndpointResult other : results.subList(1, results.size())) {
                System.out.printf("tpmC %s / %s = %,.1f / %,.1f = %.3f%n", first.name(), other.name(),
                        first.run().tpmC(), other.run().tpmC(), first.run().tpmC() / Math.max(1e-9, other.run().tpmC()));
            }
        }
        System.out.println("tpmC: committed New-Orders per minute of the measured interval (the 1% intended rollbacks"
                + " not counted); tpmTotal: committed transactions of all five types per minute; latency from the"
                + " first attempt to the end, retries included; retried: deadlocks (1213), lock wait timeouts (1205)"
                + " and write conflicts (9007), run again with the same inputs; failed: any other error, per code");
    }

    private static String withOptions(String url) {
        return url + (url.contains("?") ? "&" : "?") + CONNECTION_OPTIONS;
    }
}
