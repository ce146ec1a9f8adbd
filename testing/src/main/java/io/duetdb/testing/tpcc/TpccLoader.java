package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.reference.DataLoader;

/**
 * Creates the TPC-C schema and loads the initial population through any MySQL endpoint: the units of
 * {@link TpccPopulation} (items, then each warehouse's districts, orders, customers and stock) are taken in turn
 * by {@code threads} connections, so that several warehouses load at once, each unit's rows written as multi-row
 * INSERT statements in autocommit. A line of progress every few seconds gives the rows so far and the rate; ANALYZE
 * TABLE follows the load, as MySQL users do.
 */
public final class TpccLoader {
    private static final long PROGRESS_MILLIS = 5_000;

    /** What a load did: the rows and the seconds it took (ANALYZE included). */
    public record Stats(long rows, double seconds) {
        public double rowsPerSecond() {
            return rows / Math.max(1e-9, seconds);
        }
    }

    private final ConnectionSource source;
    private final TpccScale scale;
    private final int threads;
    private final int rowsPerInsert;
    private final PrintStream progress;

    public TpccLoader(ConnectionSource source, TpccScale scale, int threads, int rowsPerInsert, PrintStream progress) {
        this.source = requireNonNull(source, "source is null");
        this.scale = requireNonNull(scale, "scale is null");
        if (threads < 1 || rowsPerInsert < 1) {
            throw new IllegalArgumentException("threads and rowsPerInsert must be positive");
        }
        this.threads = threads;
        this.rowsPerInsert = rowsPerInsert;
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Whether the tables exist and hold this scale's warehouses, districts, customers and items. */
    public static boolean holds(Connection connection, TpccScale scale) {
        long districts = (long) scale.warehouses() * TpccScale.DISTRICTS_PER_WAREHOUSE;
        try {
            return count(connection, "SELECT COUNT(*) FROM warehouse") == scale.warehouses()
                    && count(connection, "SELECT COUNT(*) FROM district") == districts
                    && count(connection, "SELECT COUNT(*) FROM item") == scale.items()
                    && count(connection, "SELECT COUNT(*) FROM customer") == districts * scale.customersPerDistrict();
        } catch (SQLException e) {
            return false;
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    /** Drops the tables that exist, creates them all, loads them and analyzes them. */
    public Stats load() throws Exception {
        long start = System.nanoTime();
        progress.printf("load: %s; %d connections, %d rows per INSERT%n", scale.describe(), threads, rowsPerInsert);
        try (Connection connection = source.open()) {
            DataLoader.createSchema(connection, List.of(TpccTable.values()));
        }
        TpccPopulation population = new TpccPopulation(scale, LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS));
        Map<TpccTable, AtomicLong> written = new EnumMap<>(TpccTable.class);
        for (TpccTable table : TpccTable.values()) {
            written.put(table, new AtomicLong());
        }
        List<TpccPopulation.Unit> units = population.units();
        ConcurrentLinkedQueue<TpccPopulation.Unit> queue = new ConcurrentLinkedQueue<>(units);
        AtomicInteger unitsDone = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "tpcc-loader");
            thread.setDaemon(true);
            return thread;
        });
        Thread reporter = new Thread(() -> report(written, unitsDone, units.size(), start), "tpcc-load-progress");
        reporter.setDaemon(true);
        reporter.start();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    loadUnits(population, queue, written, unitsDone);
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                try {
                    worker.get();
                } catch (ExecutionException e) {
                    queue.clear();
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            reporter.interrupt();
        }
        long rows = written.values().stream().mapToLong(AtomicLong::get).sum();
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        progress.printf("load: %,d rows in %.1f s (%,.0f rows/s)%n", rows, loadSeconds, rows / loadSeconds);
        analyze();
        return new Stats(rows, (System.nanoTime() - start) / 1e9);
    }

    private void loadUnits(TpccPopulation population, ConcurrentLinkedQueue<TpccPopulation.Unit> queue,
            Map<TpccTable, AtomicLong> written, AtomicInteger unitsDone) throws SQLException {
        try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
            InsertBatches batches = new InsertBatches(statement, rowsPerInsert, written);
            TpccPopulation.Unit unit;
            while ((unit = queue.poll()) != null) {
                try {
                    population.generate(unit, (table, values) -> {
                        try {
                            batches.add(table, values);
                        } catch (SQLException e) {
                            throw new InsertFailed(e);
                        }
                    });
                } catch (InsertFailed e) {
                    throw e.cause;
                }
                batches.flush();
                unitsDone.incrementAndGet();
            }
        }
    }

    /** Carries an INSERT's failure out of the row generator. */
    private static final class InsertFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SQLException cause;

        InsertFailed(SQLException cause) {
            super(cause);
            this.cause = cause;
        }
    }

    private void analyze() throws SQLException {
        long start = System.nanoTime();
        try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
            for (TpccTable table : TpccTable.values()) {
                statement.execute("ANALYZE TABLE " + table.sqlName());
            }
        }
        progress.printf("load: analyzed %d tables in %.1f s%n", TpccTable.values().length,
                (System.nanoTime() - start) / 1e9);
    }

    private void report(Map<TpccTable, AtomicLong> written, AtomicInteger unitsDone, int units, long start) {
        long expected = scale.approximateRows();
        long lastRows = 0;
        long lastTime = start;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(PROGRESS_MILLIS);
                long now = System.nanoTime();
                long rows = written.values().stream().mapToLong(AtomicLong::get).sum();
                progress.printf("load: %5.0f s, %,d of about %,d rows (%.0f%%), %,.0f rows/s (%,.0f since the last"
                        + " line), %d of %d units done%n", (now - start) / 1e9, rows, expected,
                        100.0 * rows / expected, rows / ((now - start) / 1e9),
                        (rows - lastRows) / ((now - lastTime) / 1e9), unitsDone.get(), units);
                lastRows = rows;
                lastTime = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
