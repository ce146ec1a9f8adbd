package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.HdrHistogram.Histogram;

/**
 * Single-connection latency of autocommit statements through Connector/J server-side prepared statements: a
 * single-row INSERT (the row and its entry in index k), an UPDATE of a non-indexed column by primary key, and a
 * point SELECT by primary key; each {@code warmup} times unmeasured, then {@code statements} times measured.
 */
final class AutocommitLatency {
    static final String TABLE = "oltp_latency";

    /**
     * One statement's latencies in microseconds, this process's CPU per measured statement ({@link ProcessCpu}), and
     * its failures (with the first failure's message).
     */
    record Result(String statement, long count, long p50Micros, long p99Micros, double meanMicros,
            double cpuMicros, long errors, Optional<String> firstError) {
        Result {
            requireNonNull(statement, "statement is null");
            requireNonNull(firstError, "firstError is null");
        }
    }

    private interface Execution {
        void execute(PreparedStatement statement, int round) throws SQLException;
    }

    private final Endpoint endpoint;
    private final int statements;
    private final int warmup;
    private final PrintStream progress;

    AutocommitLatency(Endpoint endpoint, int statements, int warmup, PrintStream progress) {
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.statements = statements;
        this.warmup = warmup;
        this.progress = requireNonNull(progress, "progress is null");
    }

    List<Result> run() throws SQLException {
        try (Connection connection = endpoint.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + TABLE);
                statement.execute(SbtestRows.createTable(TABLE));
            }
            int rows = warmup + statements;
            List<Result> results = new ArrayList<>();
            results.add(measure(connection, "INSERT", "INSERT INTO " + TABLE + " (id, k, c, pad) VALUES (?, ?, ?, ?)",
                    (insert, round) -> {
                        insert.setInt(1, round + 1);
                        insert.setInt(2, ThreadLocalRandom.current().nextInt(rows));
                        insert.setString(3, SbtestRows.cValue());
                        insert.setString(4, SbtestRows.padValue());
                        insert.executeUpdate();
                    }));
            results.add(measure(connection, "UPDATE", "UPDATE " + TABLE + " SET c = ? WHERE id = ?",
                    (update, round) -> {
                        update.setString(1, SbtestRows.cValue());
                        update.setInt(2, 1 + ThreadLocalRandom.current().nextInt(rows));
                        update.executeUpdate();
                    }));
            results.add(measure(connection, "SELECT", "SELECT c FROM " + TABLE + " WHERE id = ?",
                    (select, round) -> {
                        select.setInt(1, 1 + ThreadLocalRandom.current().nextInt(rows));
                        try (ResultSet result = select.executeQuery()) {
                            while (result.next()) {
                                result.getString(1);
                            }
                        }
                    }));
            return results;
        }
    }

    /** Runs {@code sql} warmup + statements times in a row, timing the last {@code statements}. */
    private Result measure(Connection connection, String name, String sql, Execution execution) throws SQLException {
        Histogram histogram = new Histogram(3);
        long errors = 0;
        String firstError = null;
        long start = System.nanoTime();
        long cpuStart = 0;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int round = 0; round < warmup + statements; round++) {
                if (round == warmup) {
                    cpuStart = ProcessCpu.nanos();
                }
                long before = System.nanoTime();
                try {
                    execution.execute(statement, round);
                    if (round >= warmup) {
                        histogram.recordValue(Math.max(1, (System.nanoTime() - before) / 1000));
                    }
                } catch (SQLException e) {
                    errors++;
                    if (firstError == null) {
                        firstError = e.getErrorCode() + " (" + e.getSQLState() + "): " + e.getMessage();
                    }
                }
            }
        }
        double cpuMicros = (ProcessCpu.nanos() - cpuStart) / 1000.0 / Math.max(1, statements);
        progress.printf("%s: %d autocommit %s statements (%d of them warm-up) in %.1f s%n", endpoint.name(),
                warmup + statements, name, warmup, (System.nanoTime() - start) / 1e9);
        return new Result(name, histogram.getTotalCount(), histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getMean(), cpuMicros, errors, Optional.ofNullable(firstError));
    }
}
