package io.duetdb.benchmarks.sql;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.duetdb.benchmarks.common.LoadOptions;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.JdbcUrls;

/**
 * SQL workloads through MySQL Connector/J against any MySQL endpoint, several in one run for a ratio: by
 * default a DuetDB cluster in this JVM (three stores, one SQL server), and any --url given (MariaDB, a running
 * playground). Prepared primary-key point selects, then sysbench's read-write transaction mix.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "SQL point-select and read-write throughput and latency, DuetDB beside other MySQL servers.")
public final class SqlBenchmark implements Callable<Integer> {
    @Option(names = "--url", description = "JDBC URLs of MySQL endpoints to measure, e.g. "
            + "jdbc:mysql://127.0.0.1:3307/bench?user=bench&password=bench (repeatable)")
    List<String> urls = new ArrayList<>();

    @Option(names = "--no-local", description = "do not start an in-process DuetDB cluster")
    boolean noLocal;

    @Mixin
    LoadOptions load;

    @Option(names = "--rows", defaultValue = "10000", description = "rows in the table (default: ${DEFAULT-VALUE})")
    int rows;

    @Option(names = "--in-memory-locks", defaultValue = "true", arity = "1",
            description = "region leaders keep pessimistic locks in memory (default: ${DEFAULT-VALUE})")
    boolean inMemoryLocks;

    @Option(names = "--workloads", split = ",", defaultValue = "point,rw")
    List<String> workloads;

    /** {@code cpuMicrosPerOperation}: this process's CPU per operation, which for the in-process cluster is all of it. */
    record Result(String endpoint, String workload, double perSecond, double errorsPerSecond, long p50, long p99,
            double cpuMicrosPerOperation) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SqlBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Result> results = new ArrayList<>();
        for (String url : urls) {
            results.addAll(runEndpoint(JdbcUrls.endpointName(url), url));
        }
        if (!noLocal) {
            Path root = Files.createTempDirectory("duet-sql-bench");
            LoopbackPorts ports = new LoopbackPorts();
            try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> config
                    .setBlockCacheSize(DataSize.ofMebibytes(64)).setReserveSpace(DataSize.ofMebibytes(256))
                    .setInMemoryPessimisticLocks(inMemoryLocks))) {
                cluster.start(3);
                try (SqlServer server = new SqlServer(new SqlServerConfig()
                        .setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                    String url = "jdbc:mysql://" + server.address() + "/test?user=root";
                    System.out.printf("duetdb (in-process): MySQL protocol on %s, metrics at http://%s/metrics%n",
                            server.address(), server.statusAddress());
                    results.addAll(0, runEndpoint("duetdb (in-process)", url));
                }
            }
        }
        System.out.println();
        System.out.printf("SQL benchmark: %d connections, %d rows, %d s per run (after %d s warm-up)%n", load.clients,
                rows, load.seconds, load.warmupSeconds);
        System.out.printf("%-24s %-8s %12s %10s %10s %10s %14s%n", "endpoint", "workload", "per second", "errors/s",
                "p50 us", "p99 us", "harness CPU us");
        for (Result result : results) {
            System.out.printf("%-24s %-8s %,12.0f %,10.1f %10d %10d %,14.0f%n", result.endpoint(), result.workload(),
                    result.perSecond(), result.errorsPerSecond(), result.p50(), result.p99(), result.cpuMicrosPerOperation());
        }
        if (results.size() > workloads.size()) {
            System.out.println();
            for (String workload : workloads) {
                Result first = results.stream().filter(r -> r.workload().equals(workload)).findFirst().orElseThrow();
                for (Result other : results) {
                    if (other != first && other.workload().equals(workload)) {
                        System.out.printf("%s: %s / %s = %.2f%n", workload, first.endpoint(), other.endpoint(),
                                first.perSecond() / Math.max(1e-9, other.perSecond()));
                    }
                }
            }
        }
        System.out.println("point: SELECT c FROM sbtest1 WHERE id = ? (server-side prepared); point-text: the same as"
                + " statement text; rw: one transaction of 10"
                + " point selects, 2 updates, 1 delete, 1 insert (per second: transactions)");
        System.out.println("harness CPU us: CPU time of this process per operation (for the in-process DuetDB: clients, SQL"
                + " server, placement and stores together; for other endpoints: the clients only)");
        return 0;
    }

    private static String withOptions(String url) {
        return url + (url.contains("?") ? "&" : "?") + "useServerPrepStmts=true&cachePrepStmts=true&emulateUnsupportedPstmts=false&useSSL=false"
                + "&allowPublicKeyRetrieval=true";
    }

    private List<Result> runEndpoint(String name, String url) throws Exception {
        String jdbc = withOptions(url);
        System.out.printf("%s: loading %d rows%n", name, rows);
        try (Connection connection = DriverManager.getConnection(jdbc); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS sbtest1");
            statement.execute("CREATE TABLE sbtest1 (id INT NOT NULL PRIMARY KEY, k INT NOT NULL DEFAULT 0,"
                    + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k))");
            for (int start = 1; start <= rows; start += 100) {
                StringBuilder insert = new StringBuilder("INSERT INTO sbtest1 (id, k, c, pad) VALUES ");
                for (int id = start; id < Math.min(rows + 1, start + 100); id++) {
                    if (id > start) {
                        insert.append(',');
                    }
                    insert.append('(').append(id).append(',').append(ThreadLocalRandom.current().nextInt(rows))
                            .append(",'").append(text(120)).append("','").append(text(60)).append("')");
                }
                statement.executeUpdate(insert.toString());
                if (start % 5_000 == 1 && start > 1) {
                    System.out.printf("  %d rows%n", start - 1);
                }
            }
        }
        List<Result> results = new ArrayList<>();
        String first = workloads.get(0);
        System.out.printf("%s: warming up for %d s%n", name, load.warmupSeconds);
        run(name, jdbc, first, load.warmupSeconds);
        for (String workload : workloads) {
            results.add(run(name, jdbc, workload, load.seconds));
        }
        return results;
    }

    private static String text(int length) {
        StringBuilder text = new StringBuilder(length);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private Result run(String name, String jdbc, String workload, int seconds) throws Exception {
        System.out.printf("%s: running %s for %d s%n", name, workload, seconds);
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder done = new LongAdder();
        LongAdder errors = new LongAdder();
        Recorder latency = new Recorder(3);
        ExecutorService pool = Executors.newFixedThreadPool(load.clients);
        List<Future<?>> futures = new ArrayList<>();
        for (int client = 0; client < load.clients; client++) {
            int clientIndex = client;
            futures.add(pool.submit(() -> {
                try (Connection connection = DriverManager.getConnection(jdbc)) {
                    Workload work = workload.equals("point") ? new PointSelect(connection)
                            : workload.equals("point-text") ? new TextPointSelect(connection)
                            : new ReadWrite(connection, rows, clientIndex, load.clients);
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        try {
                            work.runOnce();
                            done.increment();
                            latency.recordValue((System.nanoTime() - start) / 1000);
                        } catch (SQLException e) {
                            errors.increment();
                            work.recover();
                        }
                    }
                }
                return null;
            }));
        }
        long cpuStart = processCpuNanos();
        long doneStart = done.sum();
        Thread.sleep(Duration.ofSeconds(seconds).toMillis());
        long cpu = processCpuNanos() - cpuStart;
        long operations = done.sum() - doneStart;
        stop.set(true);
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
        Histogram histogram = latency.getIntervalHistogram();
        return new Result(name, workload, done.sum() / (double) seconds, errors.sum() / (double) seconds,
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                cpu / 1000.0 / Math.max(1, operations));
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private interface Workload {
        void runOnce() throws SQLException;

        default void recover() throws SQLException {
        }
    }

    private final class PointSelect implements Workload {
        private final PreparedStatement select;

        PointSelect(Connection connection) throws SQLException {
            select = connection.prepareStatement("SELECT c FROM sbtest1 WHERE id = ?");
        }

        @Override
        public void runOnce() throws SQLException {
            select.setInt(1, 1 + ThreadLocalRandom.current().nextInt(rows));
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    result.getString(1);
                }
            }
        }
    }

    /** The same point select as statement text (what clients without server-side prepared statements send). */
    private final class TextPointSelect implements Workload {
        private final Statement statement;

        TextPointSelect(Connection connection) throws SQLException {
            statement = connection.createStatement();
        }

        @Override
        public void runOnce() throws SQLException {
            try (ResultSet result = statement.executeQuery("SELECT c FROM sbtest1 WHERE id = "
                    + (1 + ThreadLocalRandom.current().nextInt(rows)))) {
                while (result.next()) {
                    result.getString(1);
                }
            }
        }
    }

    /** sysbench oltp_read_write's shape: each client deletes and re-inserts ids of its own share only. */
    private static final class ReadWrite implements Workload {
        private final Connection connection;
        private final int rows;
        private final int client;
        private final int clients;
        private final PreparedStatement select;
        private final PreparedStatement updateIndex;
        private final PreparedStatement updateNonIndex;
        private final PreparedStatement delete;
        private final PreparedStatement insert;

        ReadWrite(Connection connection, int rows, int client, int clients) throws SQLException {
            this.connection = connection;
            this.rows = rows;
            this.client = client;
            this.clients = clients;
            connection.setAutoCommit(false);
            select = connection.prepareStatement("SELECT c FROM sbtest1 WHERE id = ?");
            updateIndex = connection.prepareStatement("UPDATE sbtest1 SET k = k + 1 WHERE id = ?");
            updateNonIndex = connection.prepareStatement("UPDATE sbtest1 SET c = ? WHERE id = ?");
            delete = connection.prepareStatement("DELETE FROM sbtest1 WHERE id = ?");
            insert = connection.prepareStatement("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)");
        }

        @Override
        public void runOnce() throws SQLException {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < 10; i++) {
                select.setInt(1, 1 + random.nextInt(rows));
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        result.getString(1);
                    }
                }
            }
            updateIndex.setInt(1, 1 + random.nextInt(rows));
            updateIndex.executeUpdate();
            updateNonIndex.setString(1, text(120));
            updateNonIndex.setInt(2, 1 + random.nextInt(rows));
            updateNonIndex.executeUpdate();
            int share = Math.max(1, rows / clients);
            int id = 1 + client * share + random.nextInt(share);
            delete.setInt(1, id);
            delete.executeUpdate();
            insert.setInt(1, id);
            insert.setInt(2, random.nextInt(rows));
            insert.setString(3, text(120));
            insert.setString(4, text(60));
            insert.executeUpdate();
            connection.commit();
        }

        @Override
        public void recover() throws SQLException {
            connection.rollback();
        }
    }
}
