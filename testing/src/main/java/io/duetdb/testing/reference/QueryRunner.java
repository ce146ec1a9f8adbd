package io.duetdb.testing.reference;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs queries on one endpoint with a timeout each, so that no query can hang its caller. The query runs on a
 * thread of its own; at the timeout the statement is cancelled (Connector/J sends KILL QUERY on a second
 * connection, DuckDB interrupts), and if it still has not returned a few seconds later the connection is aborted
 * and the thread left behind (a daemon). A connection that failed or timed out is replaced before the next query.
 */
public final class QueryRunner implements AutoCloseable {
    /** How a query ended. */
    public enum Status { OK, ERROR, TIMEOUT }

    /** A query's outcome: its result when OK, the error text otherwise, and the wall time in nanoseconds. */
    public record Outcome(Status status, QueryResult result, String error, long nanos) {
        public double seconds() {
            return nanos / 1e9;
        }
    }

    private static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final ConnectionSource source;
    private ExecutorService executor;
    private Connection connection;

    public QueryRunner(String name, ConnectionSource source) {
        this.name = name;
        this.source = source;
    }

    public String name() {
        return name;
    }

    /** Runs {@code sql} and reads its whole result, giving up after {@code timeout}. */
    public Outcome run(String sql, Duration timeout) {
        long start = System.nanoTime();
        Statement statement;
        try {
            if (connection == null || connection.isClosed()) {
                connection = source.open();
            }
            statement = connection.createStatement();
        } catch (SQLException e) {
            discardConnection();
            return new Outcome(Status.ERROR, null, "cannot connect: " + message(e), System.nanoTime() - start);
        }
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "query-" + name);
                thread.setDaemon(true);
                return thread;
            });
        }
        Future<QueryResult> future = executor.submit(() -> {
            try (statement; ResultSet result = statement.executeQuery(sql)) {
                return QueryResult.read(result);
            }
        });
        try {
            QueryResult result = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return new Outcome(Status.OK, result, null, System.nanoTime() - start);
        } catch (ExecutionException e) {
            long nanos = System.nanoTime() - start;
            checkConnection();
            return new Outcome(Status.ERROR, null, message(e.getCause()), nanos);
        } catch (TimeoutException e) {
            long nanos = System.nanoTime() - start;
            cancel(statement, future);
            return new Outcome(Status.TIMEOUT, null, "no result after " + timeout.toSeconds() + " s", nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel(statement, future);
            return new Outcome(Status.ERROR, null, "interrupted", System.nanoTime() - start);
        }
    }

    private void cancel(Statement statement, Future<QueryResult> future) {
        Thread canceller = new Thread(() -> {
            try {
                statement.cancel();
            } catch (SQLException | RuntimeException ignored) {
                // the abort below takes over
            }
        }, "cancel-" + name);
        canceller.setDaemon(true);
        canceller.start();
        try {
            future.get(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | java.util.concurrent.CancellationException ignored) {
            // cancelled (an error) or still running: either way this connection goes
        }
        if (!future.isDone()) {
            future.cancel(true);
            executor.shutdownNow();
            executor = null;
            Connection stuck = connection;
            connection = null;
            try {
                stuck.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // nothing more to do
            }
        } else {
            checkConnection();
        }
    }

    private void checkConnection() {
        try {
            if (connection != null && !connection.isValid(5)) {
                discardConnection();
            }
        } catch (SQLException e) {
            discardConnection();
        }
    }

    private void discardConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // replaced anyway
            }
            connection = null;
        }
    }

    static String message(Throwable error) {
        String message = error.getMessage();
        if (error instanceof SQLException sql && sql.getErrorCode() != 0) {
            message = sql.getErrorCode() + ": " + message;
        }
        message = message == null ? error.getClass().getSimpleName() : message;
        return message.replaceAll("\\s+", " ").strip();
    }

    @Override
    public void close() {
        discardConnection();
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
