package io.duetdb.benchmarks.tpcc;

import java.io.PrintStream;
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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The visibility delay of commits on a column learner while a workload runs: every 100 ms one connection commits a
 * row (autocommit) to a probe table with a learner replica, and another reads it back from the learner
 * (tidb_isolation_read_engines = 'tiflash') until it is there; the delay is from the commit's acknowledgement to
 * the read that returned the row.
 */
final class LearnerFreshnessProbe implements AutoCloseable {
    private static final long PROBE_INTERVAL_MILLIS = 100;
    private static final Duration AVAILABLE_WITHIN = Duration.ofMinutes(15);

    private final String url;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Long> delays = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;

    private LearnerFreshnessProbe(String url) {
        this.url = url;
        this.thread = new Thread(this::run, "learner-freshness-probe");
        this.thread.setDaemon(true);
    }

    /** Gives every table of the database (and a probe table) a learner replica and waits until all are available. */
    static void addReplicas(String url, PrintStream out) throws Exception {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS freshness_probe (id BIGINT PRIMARY KEY, note VARCHAR(20))");
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SHOW TABLES")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
            for (String table : tables) {
                statement.execute("ALTER TABLE " + table + " SET TIFLASH REPLICA 1");
            }
            long started = System.nanoTime();
            while (true) {
                long available = 0;
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM information_schema.tiflash_replica"
                        + " WHERE TABLE_SCHEMA = database() AND AVAILABLE = 1")) {
                    rows.next();
                    available = rows.getLong(1);
                }
                out.printf("learner replicas: %d of %d tables available, %.1f s%n", available, tables.size(),
                        (System.nanoTime() - started) / 1e9);
                if (available == tables.size()) {
                    return;
                }
                if (System.nanoTime() - started > AVAILABLE_WITHIN.toNanos()) {
                    throw new IllegalStateException("the learner replicas did not become available within "
                            + AVAILABLE_WITHIN.toMinutes() + " minutes");
                }
                Thread.sleep(2000);
            }
        }
    }

    static LearnerFreshnessProbe start(String url) {
        LearnerFreshnessProbe probe = new LearnerFreshnessProbe(url);
        probe.thread.start();
        return probe;
    }

    private void run() {
        String separator = url.contains("?") ? "&" : "?";
        try (Connection writes = DriverManager.getConnection(url);
                Connection learner = DriverManager.getConnection(url + separator
                        + "sessionVariables=tidb_isolation_read_engines=%27tiflash%27");
                PreparedStatement insert = writes.prepareStatement("INSERT INTO freshness_probe VALUES (?, 'probe')");
                PreparedStatement read = learner.prepareStatement("SELECT id FROM freshness_probe WHERE id = ?")) {
            for (long id = System.currentTimeMillis(); running.get(); id++) {
                insert.setLong(1, id);
                insert.executeUpdate();
                long acknowledged = System.nanoTime();
                while (running.get()) {
                    read.setLong(1, id);
                    try (ResultSet rows = read.executeQuery()) {
                        if (rows.next()) {
                            break;
                        }
                    }
                }
                delays.add(System.nanoTime() - acknowledged);
                Thread.sleep(PROBE_INTERVAL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (running.get()) {
                errors.add(e.toString());
            }
        }
    }

    void print(PrintStream out) {
        List<Long> sorted = new ArrayList<>(delays);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            out.println("learner freshness: no probe finished" + (errors.isEmpty() ? "" : ": " + errors.get(0)));
            return;
        }
        long underHundred = sorted.stream().filter(nanos -> nanos < 100_000_000L).count();
        out.printf(Locale.ROOT, "learner freshness under the workload: commit ack -> row read from the learner p50 %.1f ms,"
                + " p99 %.1f ms, max %.1f ms; %.1f%% under 100 ms (%d probes)%s%n", percentile(sorted, 0.50),
                percentile(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6, 100.0 * underHundred / sorted.size(),
                sorted.size(), errors.isEmpty() ? "" : "; probe stopped: " + errors.get(0));
    }

    private static double percentile(List<Long> sorted, double quantile) {
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(30_000);
    }
}
