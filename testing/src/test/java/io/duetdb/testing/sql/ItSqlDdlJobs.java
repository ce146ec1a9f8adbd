package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * ADMIN SHOW DDL JOBS through MySQL Connector/J: jobs are recorded in the catalog as they run, so another SQL
 * server sees an ADD INDEX running with its backfill's progress, then synced with the rows it indexed; a failed
 * and a killed ADD INDEX are recorded as such.
 */
class ItSqlDdlJobs {
    private static final int ROWS = 2000;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    /**
     * Runs the DDL; its backfill indexes 16 rows per transaction (fast reorganization off, so non-unique indexes are
     * backfilled in transactions too), so it runs for seconds.
     */
    static SqlServer ddlServer;
    /** Watches the jobs. */
    static SqlServer watchServer;
    static ExecutorService background = Executors.newCachedThreadPool();

    @BeforeAll
    static void start() throws SQLException {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        ddlServer = SqlTesting.startServer(cluster, config -> config.setBackfillBatchSize(16));
        watchServer = SqlTesting.startServer(cluster, config -> { });
        try (Connection connection = connect(ddlServer); Statement statement = connection.createStatement()) {
            statement.execute("SET GLOBAL tidb_ddl_enable_fast_reorg = OFF");
        }
    }

    @AfterAll
    static void stop() {
        background.shutdownNow();
        for (SqlServer server : new SqlServer[] {ddlServer, watchServer}) {
            if (server != null) {
                server.close();
            }
        }
        cluster.close();
    }

    static Connection connect(SqlServer server) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false");
    }

    /** ADMIN SHOW DDL JOBS [n], each row as column name to value. */
    static List<Map<String, String>> jobs(Statement statement, Integer count) throws SQLException {
        List<Map<String, String>> jobs = new ArrayList<>();
        // Connector/J's executeQuery() refuses statements it does not know to return rows: execute() does not.
        assertThat(statement.execute("ADMIN SHOW DDL JOBS" + (count == null ? "" : " " + count))).isTrue();
        try (ResultSet result = statement.getResultSet()) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, String> job = new LinkedHashMap<>();
                for (int i = 1; i <= columns; i++) {
                    job.put(result.getMetaData().getColumnLabel(i), result.getString(i));
                }
                jobs.add(job);
            }
        }
        return jobs;
    }

    static void fill(Statement statement, String table) throws SQLException {
        statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL, tag INT NOT NULL)");
        for (int first = 1; first <= ROWS; first += 500) {
            StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (int id = first; id < first + 500; id++) {
                insert.append(id > first ? ", " : "").append("(").append(id).append(", ").append(id % 97)
                        .append(", ").append(id % 2).append(")");
            }
            statement.executeUpdate(insert.toString());
        }
    }

    static Map<String, String> job(Statement statement, String type, String table) throws SQLException {
        return jobs(statement, 1000).stream()
                .filter(job -> job.get("JOB_TYPE").equals(type) && job.get("TABLE_NAME").equals(table))
                .findFirst().orElse(null);
    }

    @Test
    void anAddIndexIsSeenRunningFromAnotherServerThenSynced() throws Exception {
        try (Connection ddl = connect(ddlServer); Connection watch = connect(watchServer);
                Statement ddlStatement = ddl.createStatement(); Statement watcher = watch.createStatement()) {
            fill(ddlStatement, "orders");
            Map<String, String> created = job(watcher, "create table", "orders");
            assertThat(created).containsEntry("DB_NAME", "test").containsEntry("SCHEMA_STATE", "public")
                    .containsEntry("ROW_COUNT", "0").containsEntry("STATE", "synced");
            assertThat(created.get("END_TIME")).isNotNull();
            assertThat(created.get("TABLE_ID")).isNotEqualTo("0");

            Future<?> addIndex = background.submit(() -> {
                ddlStatement.execute("ALTER TABLE orders ADD INDEX idx_v (v)");
                return null;
            });
            List<Map<String, String>> seenRunning = new ArrayList<>();
            Map<String, String> last = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline) {
                last = job(watcher, "add index", "orders");
                if (last != null && last.get("STATE").equals("running")) {
                    seenRunning.add(last);
                }
                if (last != null && !last.get("STATE").equals("running")) {
                    break;
                }
                Thread.sleep(20);
            }
            addIndex.get(30, TimeUnit.SECONDS);

            // Four schema states, each two leases long, and 125 backfill batches: far longer than a poll.
            assertThat(seenRunning).isNotEmpty();
            assertThat(seenRunning).allSatisfy(job -> assertThat(job.get("END_TIME")).isNull());
            assertThat(seenRunning).extracting(job -> job.get("SCHEMA_STATE")).contains("write reorganization");
            assertThat(seenRunning).extracting(job -> Long.parseLong(job.get("ROW_COUNT")))
                    .isSorted().anySatisfy(rows -> assertThat(rows).isBetween(1L, (long) ROWS - 1));
            assertThat(last).containsEntry("STATE", "synced").containsEntry("SCHEMA_STATE", "public")
                    .containsEntry("ROW_COUNT", String.valueOf(ROWS)).containsEntry("DB_NAME", "test")
                    .containsEntry("SCHEMA_ID", created.get("SCHEMA_ID"))
                    .containsEntry("TABLE_ID", created.get("TABLE_ID"));
            assertThat(last.get("END_TIME")).isNotNull();
            assertThat(last.get("START_TIME").compareTo(last.get("END_TIME"))).isLessThanOrEqualTo(0);

            // Newest first; a count limits the list.
            List<Map<String, String>> all = jobs(watcher, null);
            assertThat(all).hasSizeLessThanOrEqualTo(10);
            assertThat(all).extracting(job -> Long.parseLong(job.get("JOB_ID")))
                    .isSortedAccordingTo((a, b) -> Long.compare(b, a));
            assertThat(all.get(0)).isEqualTo(last);
            assertThat(jobs(watcher, 1)).containsExactly(last);
            assertThat(SqlTesting.rows(watcher, "SELECT COUNT(*) FROM orders WHERE v = 5"))
                    .containsExactly(String.valueOf(ROWS / 97 + (ROWS % 97 >= 5 ? 1 : 0)));
        }
    }

    @Test
    void failedAndKilledAddIndexesAreRecorded() throws Exception {
        try (Connection ddl = connect(ddlServer); Connection watch = connect(watchServer);
                Statement ddlStatement = ddl.createStatement(); Statement watcher = watch.createStatement()) {
            fill(ddlStatement, "events");
            assertThat(ItSqlBasics.errorOf(() -> ddlStatement.execute("CREATE UNIQUE INDEX uk_tag ON events (tag)")))
                    .isEqualTo(1062);
            assertThat(job(watcher, "add index", "events")).containsEntry("STATE", "failed")
                    .containsEntry("SCHEMA_STATE", "none");

            long id = Long.parseLong(SqlTesting.rows(ddlStatement, "SELECT CONNECTION_ID()").get(0));
            Future<Integer> addIndex = background.submit(() -> ItSqlBasics.errorOf(
                    () -> ddlStatement.execute("CREATE INDEX idx_v ON events (v)")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Map<String, String> job = null;
            while (System.nanoTime() < deadline) {
                job = jobs(watcher, 1).get(0);
                if (job.get("TABLE_NAME").equals("events") && job.get("SCHEMA_STATE").equals("write reorganization")) {
                    break;
                }
                Thread.sleep(10);
            }
            assertThat(job).containsEntry("STATE", "running").containsEntry("SCHEMA_STATE", "write reorganization");
            try (Connection killer = connect(ddlServer); Statement statement = killer.createStatement()) {
                statement.execute("KILL QUERY " + id);
            }
            assertThat(addIndex.get(30, TimeUnit.SECONDS)).isEqualTo(1317);
            Map<String, String> killed = jobs(watcher, 1).get(0);
            assertThat(killed).containsEntry("JOB_ID", job.get("JOB_ID")).containsEntry("STATE", "cancelled")
                    .containsEntry("SCHEMA_STATE", "none");
            assertThat(Long.parseLong(killed.get("ROW_COUNT"))).isLessThan(ROWS);
            assertThat(SqlTesting.rows(watcher, "SHOW INDEX FROM events")).noneMatch(row -> row.contains("idx_v"));
            // The connection goes on.
            assertThat(SqlTesting.rows(ddlStatement, "SELECT COUNT(*) FROM events")).containsExactly(
                    String.valueOf(ROWS));
        }
    }
}
