package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.duetdb.testing.reference.ConnectionSource;

/**
 * Runs the TPC-C transaction mix from {@code connections} terminals against loaded tables: terminal i has
 * warehouse i mod W + 1 as its home and district (i / W) mod 10 + 1 for Stock-Level. The outcomes of a warm-up
 * are dropped; those of the measured interval that follows are the result. A line of progress every ten seconds
 * gives the New-Orders per minute since the last line. Terminals still inside a transaction when the time is up
 * get {@link #STOP_GRACE} to finish it, then their connections are closed under them.
 */
public final class TpccDriver {
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private final ConnectionSource source;
    private final TpccScale scale;
    private final int connections;
    private final PrintStream progress;
    private final long seed;

    public TpccDriver(ConnectionSource source, TpccScale scale, int connections, PrintStream progress, long seed) {
        this.source = requireNonNull(source, "source is null");
        this.scale = requireNonNull(scale, "scale is null");
        if (connections < 1) {
            throw new IllegalArgumentException("need at least one connection");
        }
        this.connections = connections;
        this.progress = requireNonNull(progress, "progress is null");
        this.seed = seed;
    }

    public TpccRunResult run(Duration warmup, Duration measured) throws SQLException, InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        NonUniformConstants constants = NonUniformConstants.forRun(random);
        AtomicReference<TpccMetrics> metrics = new AtomicReference<>(new TpccMetrics());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Terminal> terminals = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            int warehouse = i % scale.warehouses() + 1;
            int district = i / scale.warehouses() % TpccScale.DISTRICTS_PER_WAREHOUSE + 1;
            Terminal terminal = new Terminal(source, new TerminalContext(scale, constants, warehouse, district,
                    new TpccRandom(random.split())), metrics::get, running::get);
            terminals.add(terminal);
            try {
                terminal.connect();
            } catch (SQLException e) {
                terminals.forEach(Terminal::abort);
                throw e;
            }
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < terminals.size(); i++) {
            Thread thread = new Thread(terminals.get(i), "tpcc-terminal-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        progress.printf("run: %d terminals, C_LAST/C_ID/OL_I_ID constants %d/%d/%d; warm-up %d s, then %d s"
                + " measured%n", connections, constants.lastName(), constants.customerId(), constants.itemId(),
                warmup.toSeconds(), measured.toSeconds());
        try {
            watch("warm-up", metrics.get(), warmup);
            TpccMetrics measuring = new TpccMetrics();
            metrics.set(measuring);
            long start = System.nanoTime();
            watch("measured", measuring, measured);
            metrics.set(new TpccMetrics());
            double seconds = (System.nanoTime() - start) / 1e9;
            return new TpccRunResult(scale, connections, seconds, measuring.summarize());
        } finally {
            running.set(false);
            stop(terminals, threads);
        }
    }

    /** Sleeps through an interval, printing New-Orders per minute every {@link #PROGRESS_INTERVAL}. */
    private void watch(String phase, TpccMetrics metrics, Duration interval) throws InterruptedException {
        long start = System.nanoTime();
        long end = start + interval.toNanos();
        long lastNewOrders = 0;
        long lastTotal = 0;
        long lastTime = start;
        while (true) {
            long now = System.nanoTime();
            if (now >= end) {
                return;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(end - now, PROGRESS_INTERVAL.toNanos()));
            now = System.nanoTime();
            long newOrders = metrics.committed(TransactionType.NEW_ORDER);
            long total = metrics.committed();
            double minutes = (now - lastTime) / 60e9;
            progress.printf("run: %s %3.0f/%d s: %,.0f New-Orders/min, %,.0f transactions/min%n", phase,
                    (now - start) / 1e9, interval.toSeconds(), (newOrders - lastNewOrders) / minutes,
                    (total - lastTotal) / minutes);
            lastNewOrders = newOrders;
            lastTotal = total;
            lastTime = now;
        }
    }

    private static void stop(List<Terminal> terminals, List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        for (int i = 0; i < threads.size(); i++) {
            if (threads.get(i).isAlive()) {
                terminals.get(i).abort();
            }
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
