package io.duetdb.benchmarks.oltp;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import io.duetdb.benchmarks.mariadb.PrivateMariaDb;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.DataDirectories;

/**
 * OLTP as MySQL users measure it, DuetDB beside MariaDB in one run: sysbench's oltp_point_select, oltp_read_only
 * and oltp_read_write (the Debian package, as users run it), sysbench's prepare step timed, single-connection
 * autocommit latency through Connector/J, and bulk INSERTs with an online index backfill. Endpoints: an in-process
 * DuetDB cluster (three stores, one SQL server; --no-local skips it), any --url (a running playground), and with
 * --mariadb a MariaDB server of the run's own ({@link PrivateMariaDb}), measured first and stopped before the
 * in-process cluster starts, so that each has the machine to itself.
 */
@Command(name = "oltp", mixinStandardHelpOptions = true, sortOptions = false,
        description = "sysbench OLTP, sysbench prepare, autocommit latency and bulk writes: DuetDB beside MariaDB.")
public final class OltpBenchmark implements Callable<Integer> {
    /** The parts --parts selects. */
    enum Part { SYSBENCH, PREPARE, LATENCY, BULK }

    @Option(names = "--parts", split = ",", defaultValue = "sysbench,prepare,latency,bulk",
            description = "parts to run: sysbench, prepare, latency, bulk; sysbench prepares its tables itself"
                    + " (default: ${DEFAULT-VALUE})")
    Set<Part> parts = EnumSet.allOf(Part.class);

    @Option(names = "--url", description = "JDBC URLs of running servers to measure, e.g. "
            + "jdbc:mysql://127.0.0.1:4000/?user=root (repeatable; sysbench gets their host, port, user, password)")
    List<String> urls = new ArrayList<>();

    @Option(names = "--no-local", description = "do not start an in-process DuetDB cluster")
    boolean noLocal;

    @Option(names = "--mariadb", description = "also measure a MariaDB server of this run's own (mariadbd from"
            + " Debian's mariadb-server: bin/setup-test-tools mariadb); the ratios are to it")
    boolean mariadb;

    @Option(names = "--mariadb-buffer-pool", defaultValue = "1GiB",
            description = "InnoDB buffer pool of the --mariadb server (default: ${DEFAULT-VALUE})")
    String mariadbBufferPool;

    @Option(names = "--database", defaultValue = "sbtest",
            description = "database every part works in, created if missing (default: ${DEFAULT-VALUE})")
    String database;

    @Option(names = "--workloads", split = ",", defaultValue = "oltp_point_select,oltp_read_only,oltp_read_write",
            description = "sysbench workloads (default: ${DEFAULT-VALUE})")
    List<String> workloads;

    @Option(names = "--threads", split = ",", defaultValue = "16,64",
            description = "sysbench threads, one run each (default: ${DEFAULT-VALUE})")
    List<Integer> threads;

    @Option(names = "--tables", defaultValue = "4", description = "sysbench tables (default: ${DEFAULT-VALUE})")
    int tables;

    @Option(names = "--table-size", defaultValue = "50000",
            description = "rows per sysbench table (default: ${DEFAULT-VALUE})")
    int tableSize;

    @Option(names = "--prepare-threads", defaultValue = "4",
            description = "sysbench prepare's threads; each loads whole tables (default: ${DEFAULT-VALUE})")
    int prepareThreads;

    @Option(names = "--seconds", defaultValue = "60", description = "seconds per sysbench run (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--warmup", defaultValue = "20",
            description = "seconds of each workload before its measured runs (default: ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--server-warmup", defaultValue = "180",
            description = "seconds of oltp_read_write at the most threads before the first workload, on every endpoint:"
                    + " a server that has run a while has compiled its hot code (the JVM's JIT) and filled its caches"
                    + " (default: ${DEFAULT-VALUE})")
    int serverWarmupSeconds;

    @Option(names = "--report-interval", defaultValue = "10",
            description = "seconds between sysbench's progress lines (default: ${DEFAULT-VALUE})")
    int reportInterval;

    @Option(names = "--latency-statements", defaultValue = "2000",
            description = "measured autocommit statements of each kind (default: ${DEFAULT-VALUE})")
    int latencyStatements;

    @Option(names = "--latency-warmup", defaultValue = "500",
            description = "unmeasured statements of each kind first (default: ${DEFAULT-VALUE})")
    int latencyWarmup;

    @Option(names = "--bulk-rows", defaultValue = "200000",
            description = "rows the bulk part inserts, then indexes (default: ${DEFAULT-VALUE})")
    int bulkRows;

    @Option(names = "--rows-per-insert", defaultValue = "1000",
            description = "rows per INSERT statement in the bulk part (default: ${DEFAULT-VALUE})")
    int rowsPerInsert;

    @Option(names = "--bulk-connections", defaultValue = "4",
            description = "connections inserting in the bulk part (default: ${DEFAULT-VALUE})")
    int bulkConnections;

    public static void main(String[] args) {
        System.exit(new CommandLine(new OltpBenchmark()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (parts.contains(Part.SYSBENCH) || parts.contains(Part.PREPARE)) {
            Sysbench.find();
        }
        List<EndpointResult> results = new ArrayList<>();
        if (!noLocal) {
            results.add(runInProcess());
        }
        for (String url : urls) {
            results.add(runEndpoint(Endpoint.fromJdbcUrl(null, url, database)));
        }
        if (mariadb) {
            results.add(runPrivateMariaDb());
        }
        new OltpReport(new OltpReport.Settings(tables, tableSize, prepareThreads, seconds, serverWarmupSeconds,
                warmupSeconds, workloads, threads, latencyStatements, latencyWarmup, bulkRows, rowsPerInsert,
                bulkConnections), results, System.out).print();
        return 0;
    }

    /** The private MariaDB runs first, alone: it is stopped and deleted before anything else starts. */
    private EndpointResult runPrivateMariaDb() throws Exception {
        PrivateMariaDb.Config config = new PrivateMariaDb.Config(DataSize.parse(mariadbBufferPool), Duration.ZERO,
                Duration.ofMinutes(2));
        try (PrivateMariaDb server = new PrivateMariaDb(config, System.out).start()) {
            return runEndpoint(Endpoint.fromJdbcUrl("mariadb (private)", server.jdbcUrl(PrivateMariaDb.DATABASE),
                    database));
        }
    }

    private EndpointResult runInProcess() throws Exception {
        Path root = Files.createTempDirectory("duet-oltp-bench");
        LoopbackPorts ports = new LoopbackPorts();
        try (Closeable cleanup = () -> DataDirectories.delete(root); LocalCluster cluster = new LocalCluster(root, 1, config -> { },
                config -> config.setBlockCacheSize(DataSize.ofMebibytes(128)).setReserveSpace(DataSize.ofMebibytes(256)))) {
            cluster.start(3);
            try (SqlServer server = new SqlServer(new SqlServerConfig()
                    .setPd(cluster.placement().clientAddresses())
                    .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                    .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                System.out.printf("duetdb (in-process): MySQL protocol on %s, metrics at http://%s/metrics%n",
                        server.address(), server.statusAddress());
                return runEndpoint(new Endpoint("duetdb (in-process)", server.address().host(),
                        server.address().port(), "root", "", database));
            }
        }
    }

    private EndpointResult runEndpoint(Endpoint endpoint) throws Exception {
        endpoint.createDatabase();
        EndpointResult result = new EndpointResult(endpoint.name());
        if (parts.contains(Part.PREPARE) || parts.contains(Part.SYSBENCH)) {
            Sysbench sysbench = new Sysbench(endpoint, tables, tableSize, System.out);
            Sysbench.Prepare prepare = sysbench.prepare(prepareThreads);
            result.setPrepare(prepare);
            prepare.failure().ifPresent(failure -> System.out.printf("%s: prepare failed: %s%n", endpoint.name(), failure));
            if (parts.contains(Part.SYSBENCH) && prepare.failure().isEmpty()) {
                runSysbench(endpoint, sysbench, result);
            }
        }
        if (parts.contains(Part.LATENCY)) {
            result.latencies().addAll(new AutocommitLatency(endpoint, latencyStatements, latencyWarmup, System.out).run());
        }
        if (parts.contains(Part.BULK)) {
            result.setBulk(new BulkWrites(endpoint, bulkRows, rowsPerInsert, bulkConnections, System.out).run());
        }
        return result;
    }

    private void runSysbench(Endpoint endpoint, Sysbench sysbench, EndpointResult result) throws Exception {
        if (serverWarmupSeconds > 0) {
            int most = threads.stream().max(Integer::compare).orElse(16);
            System.out.printf("%s: server warm-up, oltp_read_write, %d threads, %d s%n", endpoint.name(), most,
                    serverWarmupSeconds);
            sysbench.run("oltp_read_write", most, serverWarmupSeconds, reportInterval);
        }
        for (String workload : workloads) {
            if (warmupSeconds > 0) {
                System.out.printf("%s: %s warm-up, %d threads, %d s%n", endpoint.name(), workload, threads.get(0),
                        warmupSeconds);
                sysbench.run(workload, threads.get(0), warmupSeconds, reportInterval);
            }
            for (int count : threads) {
                System.out.printf("%s: %s, %d threads, %d s%n", endpoint.name(), workload, count, seconds);
                long cpuStart = ProcessCpu.nanos();
                SysbenchResult run = sysbench.run(workload, count, seconds, reportInterval);
                double cpuMicros = (ProcessCpu.nanos() - cpuStart) / 1000.0
                        / Math.max(1, run.transactionsPerSecond() * seconds);
                result.runs().add(new EndpointResult.SysbenchRun(workload, count, run, cpuMicros));
                System.out.printf("%s: %s, %d threads: %s%n", endpoint.name(), workload, count, run.completed()
                        ? String.format("%,.0f TPS, %,.0f QPS, p95 %.2f ms, %d ignored errors",
                                run.transactionsPerSecond(), run.queriesPerSecond(), run.p95Millis(), run.ignoredErrors())
                        : "failed: " + run.failure().orElseThrow());
            }
        }
    }

}
