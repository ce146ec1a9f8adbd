package io.duetdb.benchmarks.tpcc;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The visibility delay of commits on a column learner while a workload runs, measured two ways on a probe table with
 * a learner replica, each every 100 ms:
 * <ul>
 * <li>a read that waits: one connection commits a row (autocommit) and another reads it back from the learner
 * (tidb_isolation_read_engines = 'tiflash') until it is there; the delay is from the commit's acknowledgement to the
 * read that returned the row (such a read waits for the leader's read index);</li>
 * <li>a read that does not wait: another connection commits a row and reads it back with TiDB's bounded
 * staleness, {@code AS OF TIMESTAMP TIDB_BOUNDED_STALENESS(NOW(3) - INTERVAL 10 SECOND, NOW(3))}, every 5 ms until
 * it is there: such a read takes the learners' lowest resolved timestamp and is served by the learner alone.</li>
 * </ul>
 * Every 50 ms it also samples the learner's resolved-timestamp lag of the worst region (held back by the
 * workload's open transactions).
 */
public final class LearnerFreshnessProbe implements AutoCloseable {
    private static final long PROBE_INTERVAL_MILLIS = 100;
    private static final long SAMPLE_INTERVAL_MILLIS = 50;
    private static final Duration AVAILABLE_WITHIN = Duration.ofMinutes(15);

    private final String url;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Long> delays = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> resolvedLags = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> resolvedDelays = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> boundedReads = Collections.synchronizedList(new ArrayList<>());
    private final String learnerStatus;
    private final Thread thread;
    private final Thread sampler;
    private final Thread resolvedProbe;

    private LearnerFreshnessProbe(String url, String learnerStatus) {
        this.url = url;
        this.learnerStatus = learnerStatus;
        this.thread = new Thread(this::run, "learner-freshness-probe");
        this.thread.setDaemon(true);
        this.sampler = new Thread(this::sampleResolvedLag, "learner-resolved-lag-sampler");
        this.sampler.setDaemon(true);
        this.resolvedProbe = new Thread(this::probeResolved, "learner-resolved-probe");
        this.resolvedProbe.setDaemon(true);
    }

    /** Gives every table of the database (and a probe table) a learner replica and waits until all are available. */
    public static void addReplicas(String url, PrintStream out) throws Exception {
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

    /** Starts probing through {@code url}; {@code learnerStatus} is the learner's status address (host:port). */
    public static LearnerFreshnessProbe start(String url, String learnerStatus) {
        LearnerFreshnessProbe probe = new LearnerFreshnessProbe(url, learnerStatus);
        probe.thread.start();
        probe.sampler.start();
        probe.resolvedProbe.start();
        return probe;
    }

    private void sampleResolvedLag() {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + learnerStatus + "/metrics")).build();
        while (running.get()) {
            try {
                String metrics = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                double worst = -1;
                for (String line : metrics.split("\n")) {
                    if (line.startsWith("duet_learner_resolved_ts_lag_seconds{")) {
                        worst = Math.max(worst, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
                    }
                }
                if (worst >= 0) {
                    resolvedLags.add((long) (worst * 1e9));
                }
                Thread.sleep(SAMPLE_INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (running.get()) {
                    errors.add("resolved lag: " + e);
                }
                return;
            }
        }
    }

    /** A connection whose reads go to the learners (tidb_isolation_read_engines = 'tiflash'). */
    private Connection learnerConnection() throws SQLException {
        return DriverManager.getConnection(url + (url.contains("?") ? "&" : "?")
                + "sessionVariables=tidb_isolation_read_engines=%27tiflash%27");
    }

    private void probeResolved() {
        try (Connection writes = DriverManager.getConnection(url); Connection learner = learnerConnection();
                PreparedStatement insert = writes.prepareStatement("INSERT INTO freshness_probe VALUES (?, 'bounded')");
                PreparedStatement read = learner.prepareStatement("SELECT id FROM freshness_probe AS OF TIMESTAMP"
                        + " TIDB_BOUNDED_STALENESS(NOW(3) - INTERVAL 10 SECOND, NOW(3)) WHERE id = ?")) {
            for (long id = -System.currentTimeMillis(); running.get(); id--) {
                insert.setLong(1, id);
                insert.executeUpdate();
                long acknowledged = System.nanoTime();
                int reads = 0;
                while (running.get()) {
                    read.setLong(1, id);
                    reads++;
                    try (ResultSet rows = read.executeQuery()) {
                        if (rows.next()) {
                            break;
                        }
                    }
                    Thread.sleep(5);
                }
                resolvedDelays.add(System.nanoTime() - acknowledged);
                boundedReads.add((long) reads);
                Thread.sleep(PROBE_INTERVAL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (running.get()) {
                errors.add("bounded-staleness probe: " + e);
            }
        }
    }

    private void run() {
        try (Connection writes = DriverManager.getConnection(url); Connection learner = learnerConnection();
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

    /**
     * The visibility delay of the reads that wait (commit acknowledged to the row read from the learner), in
     * milliseconds at the given quantiles (0 to 1); NaN when nothing was measured.
     */
    public double[] visibilityMillis(double... quantiles) {
        List<Long> sorted = new ArrayList<>(delays);
        Collections.sort(sorted);
        double[] values = new double[quantiles.length];
        for (int i = 0; i < quantiles.length; i++) {
            values[i] = sorted.isEmpty() ? Double.NaN : percentile(sorted, quantiles[i]);
        }
        return values;
    }

    public void print(PrintStream out) {
        printDistribution(out, "learner freshness under the workload, a read that waits: commit ack -> row read from"
                + " the learner", delays, "probes" + (errors.isEmpty() ? "" : "; probe stopped: " + errors.get(0)));
        printDistribution(out, "learner freshness under the workload, a read that does not wait (AS OF TIMESTAMP"
                + " TIDB_BOUNDED_STALENESS(NOW(3) - INTERVAL 10 SECOND, NOW(3)), at the learners' lowest resolved"
                + " timestamp): commit ack -> row returned", resolvedDelays, String.format(Locale.ROOT,
                "probes, a read every 5 ms, p50 %.0f reads each", percentile(sortedCopy(boundedReads), 0.50) * 1e6));
        printDistribution(out, "learner resolved-timestamp lag (a read that does not wait sees commits older than"
                + " this; worst region, sampled every 50 ms)", resolvedLags, "samples");
    }

    /** A line of a distribution of nanoseconds: p50, p99, max and the share under 100 ms. */
    private static void printDistribution(PrintStream out, String what, List<Long> values, String counted) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            out.println(what + ": nothing measured");
            return;
        }
        long underHundred = sorted.stream().filter(nanos -> nanos < 100_000_000L).count();
        out.printf(Locale.ROOT, "%s: p50 %.1f ms, p99 %.1f ms, max %.1f ms; %.1f%% under 100 ms (%d %s)%n", what,
                percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6,
                100.0 * underHundred / sorted.size(), sorted.size(), counted);
    }

    private static List<Long> sortedCopy(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.isEmpty() ? List.of(0L) : sorted;
    }

    private static double percentile(List<Long> sorted, double quantile) {
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(30_000);
        sampler.join(30_000);
        resolvedProbe.join(30_000);
    }
}
