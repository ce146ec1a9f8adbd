package io.duetdb.benchmarks.sql;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

import io.duetdb.benchmarks.common.DataDirectories;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How fresh column learner reads are, through MySQL Connector/J on a cluster in this JVM (three stores, one learner,
 * one SQL server): one connection commits single-row INSERTs (autocommit) while a background load of --writers
 * connections writes to the same table; after each acknowledgement another connection reads the new row from the
 * learner (tidb_isolation_read_engines = 'tiflash'). A learner read asks the region's leader for its commit index and
 * waits until the learner applied it, so the time from acknowledgement to the row coming back is the visibility
 * delay a reader sees. The same reads from the row store give the baseline.
 */
@Command(name = "learner", mixinStandardHelpOptions = true,
        description = "Visibility delay of committed rows on column learners under writes, beside row-store reads.")
public final class LearnerFreshnessBenchmark implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "2000", description = "measured commits (default: ${DEFAULT-VALUE})")
    int rows;

    @Option(names = "--warmup-rows", defaultValue = "1000", description = "commits before measuring (default: ${DEFAULT-VALUE})")
    int warmupRows;

    @Option(names = "--writers", defaultValue = "4",
            description = "connections writing in the background (default: ${DEFAULT-VALUE})")
    int writers;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LearnerFreshnessBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = Files.createTempDirectory("duet-learner-bench");
        LoopbackPorts ports = new LoopbackPorts();
        try (Closeable cleanup = () -> DataDirectories.delete(root); LocalCluster cluster = new LocalCluster(root, 1,
                config -> { }, config -> config.setBlockCacheSize(DataSize.ofMebibytes(128))
                        .setReserveSpace(DataSize.ofMebibytes(256)))) {
            cluster.start(3);
            cluster.addLearner();
            try (SqlServer server = new SqlServer(new SqlServerConfig().setPd(cluster.placement().clientAddresses())
                    .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                    .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))).start()) {
                String url = "jdbc:mysql://" + server.address() + "/fresh?user=root&useSSL=false&useServerPrepStmts=true";
                prepare(url.replace("/fresh?", "/test?"));
                AtomicBoolean loading = new AtomicBoolean(true);
                List<Thread> load = startLoad(url, loading);
                try {
                    System.out.printf("learner freshness: %d warm-up commits, then %d measured, %d background writers%n",
                            warmupRows, rows, writers);
                    measure(url, 1, warmupRows, null, null);
                    List<Long> learner = new ArrayList<>();
                    List<Long> rowStore = new ArrayList<>();
                    long started = System.nanoTime();
                    measure(url, warmupRows + 1, warmupRows + rows, learner, rowStore);
                    double seconds = (System.nanoTime() - started) / 1e9;
                    System.out.printf("%,d commits in %.1f s with their reads%n", rows, seconds);
                    print("commit ack -> row read from the learner", learner);
                    print("commit ack -> row read from the row store", rowStore);
                } finally {
                    loading.set(false);
                    for (Thread thread : load) {
                        thread.join(30_000);
                    }
                }
            }
        }
        return 0;
    }

    private static void prepare(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE fresh");
            statement.execute("CREATE TABLE fresh.events (id BIGINT PRIMARY KEY, writer INT, payload VARCHAR(100))");
            statement.execute("ALTER TABLE fresh.events SET TIFLASH REPLICA 1");
            long started = System.nanoTime();
            while (true) {
                try (ResultSet result = statement.executeQuery("SELECT AVAILABLE FROM information_schema.tiflash_replica"
                        + " WHERE TABLE_NAME = 'events'")) {
                    if (result.next() && result.getLong(1) == 1) {
                        break;
                    }
                }
                if (System.nanoTime() - started > Duration.ofMinutes(2).toNanos()) {
                    throw new IllegalStateException("the learner replica did not become available within 2 minutes");
                }
                Thread.sleep(200);
            }
            System.out.printf("learner replica available after %.1f s%n", (System.nanoTime() - started) / 1e9);
        }
    }

    /** Background writers: each inserts its own rows (ids far above the measured ones) as fast as it can. */
    private List<Thread> startLoad(String url, AtomicBoolean loading) {
        List<Thread> threads = new ArrayList<>();
        for (int writer = 1; writer <= writers; writer++) {
            long base = 1_000_000_000L * writer;
            int id = writer;
            Thread thread = new Thread(() -> {
                try (Connection connection = DriverManager.getConnection(url);
                        PreparedStatement insert = connection.prepareStatement("INSERT INTO events VALUES (?, ?, ?)")) {
                    for (long i = base; loading.get(); i++) {
                        insert.setLong(1, i);
                        insert.setInt(2, id);
                        insert.setString(3, "background " + i);
                        insert.executeUpdate();
                    }
                } catch (Exception e) {
                    if (loading.get()) {
                        System.out.println("background writer " + id + " stopped: " + e);
                    }
                }
            }, "background-writer-" + writer);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        return threads;
    }

    private static void measure(String url, long first, long last, List<Long> learner, List<Long> rowStore)
            throws Exception {
        try (Connection writes = DriverManager.getConnection(url);
                Connection columnar = DriverManager.getConnection(url + "&sessionVariables=tidb_isolation_read_engines=%27tiflash%27");
                Connection rows = DriverManager.getConnection(url + "&sessionVariables=tidb_isolation_read_engines=%27tikv%27");
                PreparedStatement insert = writes.prepareStatement("INSERT INTO events VALUES (?, 0, ?)");
                PreparedStatement fromLearner = columnar.prepareStatement("SELECT id FROM events WHERE id = ?");
                PreparedStatement fromRowStore = rows.prepareStatement("SELECT id FROM events WHERE id = ?")) {
            for (long id = first; id <= last; id++) {
                insert.setLong(1, id);
                insert.setString(2, "measured " + id);
                insert.executeUpdate();
                long acknowledged = System.nanoTime();
                readOnce(fromLearner, id);
                long seenOnLearner = System.nanoTime();
                readOnce(fromRowStore, id);
                long seenOnRowStore = System.nanoTime();
                if (learner != null) {
                    learner.add(seenOnLearner - acknowledged);
                    rowStore.add(seenOnRowStore - seenOnLearner);
                }
            }
        }
    }

    private static void readOnce(PreparedStatement read, long id) throws Exception {
        read.setLong(1, id);
        try (ResultSet result = read.executeQuery()) {
            if (!result.next() || result.getLong(1) != id) {
                throw new IllegalStateException("row " + id + " was acknowledged but not read back: a stale read");
            }
        }
    }

    private static void print(String what, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        System.out.printf(Locale.ROOT, "%-45s p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (%d reads)%n", what,
                percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6, sorted.size());
    }

    private static double percentile(List<Long> sorted, double quantile) {
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
