package io.duetdb.benchmarks.sql;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.benchmarks.common.JdbcUrls;

/**
 * DDL latency through MySQL Connector/J, as migrations and test suites issue it: rounds of CREATE TABLE, CREATE
 * INDEX, ALTER TABLE ADD COLUMN and DROP TABLE on an empty table, one statement at a time from one connection. By
 * default on a DuetDB cluster in this JVM (three stores, --sql-servers SQL servers, the DDL sent to the first);
 * --url adds running endpoints, --mariadb a MariaDB server of the run's own, for the ratio.
 */
@Command(name = "ddl", mixinStandardHelpOptions = true,
        description = "DDL statements per second and per-statement latency, DuetDB beside MariaDB.")
public final class DdlBenchmark implements Callable<Integer> {
    private static final String DATABASE = "ddl_bench";
    private static final List<String> KINDS = List.of("create table", "create index", "add column", "drop table");

    @Option(names = "--rounds", defaultValue = "20", description = "measured rounds (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "10", description = "rounds before measuring (default: ${DEFAULT-VALUE})")
    int warmupRounds;

    @Option(names = "--url", description = "JDBC URLs of MySQL endpoints to measure, e.g. "
            + "jdbc:mysql://127.0.0.1:4000/test?user=root (repeatable); the benchmark creates database " + DATABASE)
    List<String> urls = new ArrayList<>();

    @Option(names = "--no-local", description = "do not start an in-process DuetDB cluster")
    boolean noLocal;

    @Option(names = "--sql-servers", defaultValue = "1",
            description = "SQL servers of the in-process cluster; the DDL goes to the first, the others only hold"
                    + " the schema (default: ${DEFAULT-VALUE})")
    int sqlServers;

    @Option(names = "--mariadb", description = "also start a MariaDB server of this run's own (mariadbd from Debian's"
            + " mariadb-server: bin/setup-test-tools mariadb) and measure it")
    boolean mariadb;

    @Option(names = "--mariadb-buffer-pool", defaultValue = "256MiB",
            description = "InnoDB buffer pool of the --mariadb server (default: ${DEFAULT-VALUE})")
    String mariadbBufferPool;

    /** One endpoint's measured rounds: every statement's latency in microseconds, by kind. */
    record Result(String endpoint, double seconds, Map<String, long[]> micros) {
        Result {
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(micros, "micros is null");
        }

        long statements() {
            return micros.values().stream().mapToLong(values -> values.length).sum();
        }

        double perSecond() {
            return statements() / seconds;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DdlBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || warmupRounds < 0 || sqlServers < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--rounds and --sql-servers must be positive, --warmup-rounds not negative");
        }
        List<Result> results = new ArrayList<>();
        for (String url : urls) {
            results.add(run(JdbcUrls.endpointName(url), url));
        }
        if (mariadb) {
            PrivateMariaDb.Config config = new PrivateMariaDb.Config(DataSize.parse(mariadbBufferPool),
                    Duration.ZERO, Duration.ofMinutes(2));
            try (PrivateMariaDb server = new PrivateMariaDb(config, System.out).start()) {
                results.add(run("mariadb (private)", server.jdbcUrl(PrivateMariaDb.DATABASE)));
            }
        }
        if (!noLocal) {
            results.add(0, runInProcess());
        }
        print(results);
        return 0;
    }

    private Result runInProcess() throws Exception {
        Path root = Files.createTempDirectory("duet-ddl-bench");
        LoopbackPorts ports = new LoopbackPorts();
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> config
                .setBlockCacheSize(DataSize.ofMebibytes(64)).setReserveSpace(DataSize.ofMebibytes(256)))) {
            cluster.start(3);
            List<SqlServer> servers = new ArrayList<>();
            try {
                for (int i = 0; i < sqlServers; i++) {
                    servers.add(new SqlServer(new SqlServerConfig()
                            .setPd(cluster.placement().clientAddresses())
                            .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                            .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start());
                }
                SqlServer first = servers.get(0);
                System.out.printf("duetdb (in-process): %d SQL server(s), DDL on %s, metrics at http://%s/metrics%n",
                        sqlServers, first.address(), first.statusAddress());
                String name = sqlServers == 1 ? "duetdb (in-process)" : "duetdb (" + sqlServers + " SQL servers)";
                return run(name, "jdbc:mysql://" + first.address() + "/test?user=root");
            } finally {
                for (SqlServer server : servers) {
                    server.close();
                }
            }
        } finally {
            DataDirectories.delete(root);
        }
    }

    private Result run(String name, String url) throws SQLException {
        String jdbc = url + (url.contains("?") ? "&" : "?") + "useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection = DriverManager.getConnection(jdbc); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            statement.execute("USE " + DATABASE);
            for (int round = 0; round < rounds + warmupRounds; round++) {
                statement.execute("DROP TABLE IF EXISTS ddl_bench_" + round);
            }
            System.out.printf("%s: %d warm-up rounds%n", name, warmupRounds);
            for (int round = 0; round < warmupRounds; round++) {
                round(statement, round, null);
            }
            System.out.printf("%s: %d rounds%n", name, rounds);
            Map<String, long[]> micros = new LinkedHashMap<>();
            for (String kind : KINDS) {
                micros.put(kind, new long[rounds]);
            }
            long start = System.nanoTime();
            for (int round = 0; round < rounds; round++) {
                long[] timings = new long[KINDS.size()];
                round(statement, warmupRounds + round, timings);
                for (int kind = 0; kind < KINDS.size(); kind++) {
                    micros.get(KINDS.get(kind))[round] = timings[kind];
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            statement.execute("DROP DATABASE " + DATABASE);
            return new Result(name, seconds, micros);
        }
    }

    /** One round on table ddl_bench_{@code round}; each statement's microseconds go to {@code timings} if given. */
    private static void round(Statement statement, int round, long[] timings) throws SQLException {
        String table = "ddl_bench_" + round;
        String[] statements = {
            "CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b VARCHAR(40))",
            "CREATE INDEX idx_a ON " + table + " (a)",
            "ALTER TABLE " + table + " ADD COLUMN c INT NOT NULL DEFAULT 0",
            "DROP TABLE " + table,
        };
        for (int i = 0; i < statements.length; i++) {
            long start = System.nanoTime();
            statement.execute(statements[i]);
            if (timings != null) {
                timings[i] = (System.nanoTime() - start) / 1000;
            }
        }
    }

    private void print(List<Result> results) {
        System.out.println();
        System.out.printf("DDL benchmark: %d rounds of CREATE TABLE, CREATE INDEX, ADD COLUMN, DROP TABLE on an empty"
                + " table (after %d warm-up rounds), one connection%n", rounds, warmupRounds);
        System.out.printf("%-28s %14s %10s", "endpoint", "statements/s", "total s");
        for (String kind : KINDS) {
            System.out.printf(" %22s", kind + " p50/p99 ms");
        }
        System.out.println();
        for (Result result : results) {
            System.out.printf("%-28s %,14.1f %10.2f", result.endpoint(), result.perSecond(), result.seconds());
            for (String kind : KINDS) {
                long[] sorted = result.micros().get(kind).clone();
                Arrays.sort(sorted);
                System.out.printf(" %22s", String.format("%.1f / %.1f", percentile(sorted, 0.50) / 1000.0,
                        percentile(sorted, 0.99) / 1000.0));
            }
            System.out.println();
        }
        if (results.size() > 1) {
            System.out.println();
            Result first = results.get(0);
            for (Result other : results.subList(1, results.size())) {
                System.out.printf("statements/s: %s / %s = %.3f%n", first.endpoint(), other.endpoint(),
                        first.perSecond() / Math.max(1e-9, other.perSecond()));
            }
        }
    }

    /** The nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, double fraction) {
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

}
