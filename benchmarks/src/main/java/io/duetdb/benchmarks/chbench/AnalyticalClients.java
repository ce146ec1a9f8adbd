package io.duetdb.benchmarks.chbench;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.duetdb.testing.chbench.ChBenchmarkQueries;
import io.duetdb.testing.reference.ConnectionSource;

/**
 * CH-benCHmark's analytical side: each client runs the 22 queries in turn (client i starting at query i + 1), one
 * at a time and without think time, for a warm-up and then a measured interval; a query counts when it ends inside
 * the measured interval. A query over its timeout is cancelled and counted as failed.
 */
final class AnalyticalClients {
    /** What the clients did in the measured interval. */
    record Result(int clients, double seconds, long completed, long failed, Map<String, Long> errors) {
        /** Completed queries per hour. */
        double queriesPerHour() {
            return seconds <= 0 ? 0 : completed * 3600 / seconds;
        }
    }

    private final ConnectionSource source;
    private final ChBenchmarkQueries queries;
    private final int clients;
    private final Duration queryTimeout;
    private final PrintStream progress;

    AnalyticalClients(ConnectionSource source, ChBenchmarkQueries queries, int clients, Duration queryTimeout,
            PrintStream progress) {
        this.source = requireNonNull(source, "source is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.clients = clients;
        this.queryTimeout = requireNonNull(queryTimeout, "queryTimeout is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Runs the clients for {@code warmup} then {@code measured}; returns at once for no clients. */
    Result run(Duration warmup, Duration measured) throws InterruptedException {
        if (clients == 0) {
            return new Result(0, measured.toNanos() / 1e9, 0, 0, Map.of());
        }
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + measured.toNanos();
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Map<String, Long> errors = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            int first = client % ChBenchmarkQueries.COUNT;
            Thread thread = new Thread(() -> loop(first, measureFrom, end, completed, failed, errors),
                    "ch-analytical-" + client);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(Math.max(1, (end - System.nanoTime()) / 1_000_000 + queryTimeout.toMillis() + 30_000));
        }
        return new Result(clients, measured.toNanos() / 1e9, completed.get(), failed.get(), new TreeMap<>(errors));
    }

    private void loop(int first, long measureFrom, long end, AtomicLong completed, AtomicLong failed,
            Map<String, Long> errors) {
        try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout((int) Math.max(1, queryTimeout.toSeconds()));
            for (int i = first; System.nanoTime() < end; i++) {
                int number = i % ChBenchmarkQueries.COUNT + 1;
                try (ResultSet rows = statement.executeQuery(queries.sql(number))) {
                    while (rows.next()) {
                        // Read every row, as a client would.
                    }
                    long now = System.nanoTime();
                    if (now >= measureFrom && now < end) {
                        completed.incrementAndGet();
                    }
                } catch (SQLException e) {
                    long now = System.nanoTime();
                    if (now >= measureFrom && now < end) {
                        failed.incrementAndGet();
                        errors.merge("Q" + number + " " + e.getErrorCode(), 1L, Long::sum);
                    }
                }
            }
        } catch (SQLException e) {
            progress.println("an analytical client could not connect: " + e.getMessage());
            errors.merge("connect " + e.getErrorCode(), 1L, Long::sum);
        }
    }
}
