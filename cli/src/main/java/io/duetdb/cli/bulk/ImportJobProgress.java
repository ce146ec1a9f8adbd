package io.duetdb.cli.bulk;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows imported so far: those of finished tables, the row counts the SQL server's running IMPORT INTO jobs report
 * (ADMIN SHOW DDL JOBS, read once a second on a connection of its own), and the rows logical imports inserted.
 */
final class ImportJobProgress implements AutoCloseable {
    private final Connection connection;
    private final Map<String, Long> finished;
    private final AtomicLong inserted;
    private final ScheduledExecutorService poller;
    private volatile long running;

    ImportJobProgress(Connection connection, Map<String, Long> finished, AtomicLong inserted) {
        this.connection = requireNonNull(connection, "connection is null");
        this.finished = requireNonNull(finished, "finished is null");
        this.inserted = requireNonNull(inserted, "inserted is null");
        this.poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "import-progress");
            thread.setDaemon(true);
            return thread;
        });
        poller.scheduleWithFixedDelay(this::poll, 1, 1, TimeUnit.SECONDS);
    }

    long rows() {
        return finished.values().stream().mapToLong(Long::longValue).sum() + running + inserted.get();
    }

    private void poll() {
        long rows = 0;
        try (Statement statement = connection.createStatement()) {
            // Connector/J takes ADMIN for an update in executeQuery: execute, then read the result set.
            statement.execute("ADMIN SHOW DDL JOBS 100");
            try (ResultSet jobs = statement.getResultSet()) {
                while (jobs.next()) {
                    if (jobs.getString("JOB_TYPE").equals("import into") && jobs.getString("STATE").equals("running")) {
                        rows += jobs.getLong("ROW_COUNT");
                    }
                }
            }
            running = rows;
        } catch (SQLException e) {
            // Progress only: the next poll tries again.
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
        running = 0;
    }
}
