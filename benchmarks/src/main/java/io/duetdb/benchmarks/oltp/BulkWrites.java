package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes in bulk through SQL: {@code rows} rows in multi-row INSERT statements of {@code rowsPerInsert} rows from
 * {@code connections} connections into a sysbench-shaped table (primary key and index k), then the online index
 * backfill: CREATE INDEX on that table's pad column, beside CREATE INDEX on an empty table of the same shape (what
 * the statement costs without rows to backfill).
 */
final class BulkWrites {
    static final String TABLE = "oltp_bulk";
    static final String EMPTY_TABLE = "oltp_bulk_empty";
    private static final long PROGRESS_INTERVAL_SECONDS = 5;

    /**
     * The load's and the index builds' times, and this process's CPU per row loaded ({@link ProcessCpu}); rows counts
     * only what the INSERTs that succeeded wrote.
     */
    record Result(long rows, double insertSeconds, double insertCpuMicrosPerRow, long failedInserts,
            double emptyIndexSeconds, double backfillSeconds, Optional<String> firstError) {
        Result {
            requireNonNull(firstError, "firstError is null");
        }

        double insertRowsPerSecond() {
            return rows / insertSeconds;
        }

        double backfillRowsPerSecond() {
            return rows / backfillSeconds;
        }
    }

    private final Endpoint endpoint;
    private final int rows;
    private final int rowsPerInsert;
    private final int connections;
    private final PrintStream progress;

    BulkWrites(Endpoint endpoint, int rows, int rowsPerInsert, int connections, PrintStream progress) {
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.rows = rows;
        this.rowsPerInsert = rowsPerInsert;
        this.connections = connections;
        this.progress = requireNonNull(progress, "progress is null");
    }

    Result run() throws Exception {
        try (Connection connection = endpoint.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
            statement.execute("DROP TABLE IF EXISTS " + EMPTY_TABLE);
            statement.execute(SbtestRows.createTable(TABLE));
            statement.execute(SbtestRows.createTable(EMPTY_TABLE));
        }
        progress.printf("%s: inserting %,d rows, %,d per INSERT, from %d connections%n", endpoint.name(), rows,
                rowsPerInsert, connections);
        AtomicInteger nextBatch = new AtomicInteger();
        AtomicLong written = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        int batches = (rows + rowsPerInsert - 1) / rowsPerInsert;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long start = System.nanoTime();
        long cpuStart = ProcessCpu.nanos();
        try {
            List<Future<?>> loaders = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                loaders.add(pool.submit(() -> {
                    try (Connection connection = endpoint.connect(); Statement statement = connection.createStatement()) {
                        for (int batch = nextBatch.getAndIncrement(); batch < batches; batch = nextBatch.getAndIncrement()) {
                            int first = batch * rowsPerInsert + 1;
                            int last = Math.min(rows, first + rowsPerInsert - 1);
                            try {
                                statement.executeUpdate(insert(first, last));
                                written.addAndGet(last - first + 1);
                            } catch (SQLException e) {
                                failed.incrementAndGet();
                                firstError.compareAndSet(null, e.getErrorCode() + " (" + e.getSQLState() + "): "
                                        + e.getMessage());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> loader : loaders) {
                while (true) {
                    try {
                        loader.get(PROGRESS_INTERVAL_SECONDS, TimeUnit.SECONDS);
                        break;
                    } catch (TimeoutException stillLoading) {
                        double elapsed = (System.nanoTime() - start) / 1e9;
                        progress.printf("%s: %6.1f s  %,d rows (%,.0f rows/s)%n", endpoint.name(), elapsed,
                                written.get(), written.get() / elapsed);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double insertSeconds = (System.nanoTime() - start) / 1e9;
        double cpuMicrosPerRow = (ProcessCpu.nanos() - cpuStart) / 1000.0 / Math.max(1, written.get());
        progress.printf("%s: %,d rows in %.1f s (%,.0f rows/s), %d INSERTs failed%n", endpoint.name(), written.get(),
                insertSeconds, written.get() / insertSeconds, failed.get());
        double emptyIndexSeconds;
        double backfillSeconds;
        try (Connection connection = endpoint.connect(); Statement statement = connection.createStatement()) {
            emptyIndexSeconds = timed(statement, "CREATE INDEX pad_1 ON " + EMPTY_TABLE + " (pad)");
            progress.printf("%s: CREATE INDEX on an empty table: %.3f s; now on %,d rows%n", endpoint.name(),
                    emptyIndexSeconds, written.get());
            backfillSeconds = timed(statement, "CREATE INDEX pad_1 ON " + TABLE + " (pad)");
            progress.printf("%s: CREATE INDEX on %,d rows: %.1f s (%,.0f rows/s)%n", endpoint.name(), written.get(),
                    backfillSeconds, written.get() / backfillSeconds);
            statement.execute("DROP TABLE " + EMPTY_TABLE);
        }
        return new Result(written.get(), insertSeconds, cpuMicrosPerRow, failed.get(), emptyIndexSeconds, backfillSeconds,
                Optional.ofNullable(firstError.get()));
    }

    private static double timed(Statement statement, String sql) throws SQLException {
        long start = System.nanoTime();
        statement.execute(sql);
        return (System.nanoTime() - start) / 1e9;
    }

    private String insert(int first, int last) {
        StringBuilder sql = new StringBuilder(40 + (last - first + 1) * 200).append("INSERT INTO ").append(TABLE)
                .append(" (id, k, c, pad) VALUES ");
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int id = first; id <= last; id++) {
            if (id > first) {
                sql.append(',');
            }
            sql.append('(').append(id).append(',').append(1 + random.nextInt(rows)).append(",'")
                    .append(SbtestRows.cValue()).append("','").append(SbtestRows.padValue()).append("')");
        }
        return sql.toString();
    }
}
