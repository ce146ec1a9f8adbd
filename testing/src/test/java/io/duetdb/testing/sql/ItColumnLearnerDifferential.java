package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StoreAdminCalls;

/**
 * The column learner against the row store under a random transactional workload (inserts, upserts, updates,
 * deletes, pessimistic and optimistic transactions, rollbacks) on three stores, while the table's region splits,
 * its leaders move and the learner restarts: at several moments during the run, and at the end, one transaction
 * reads the table from the row store and then from the learner at the same timestamp, and the two answers agree;
 * the same at timestamps taken a step earlier, which the learner serves below its resolved timestamp.
 */
class ItColumnLearnerDifferential {
    /** Errors a random workload meets and a MySQL application retries: deadlock, lock wait, write conflict. */
    private static final Set<Integer> RETRYABLE = Set.of(1213, 1205, 9007, 8002, 8022);

    @TempDir
    Path root;

    @Test
    void theLearnerAgreesWithTheRowStoreAtTheSameTimestampThroughSplitsLeaderMovesAndARestart() throws Exception {
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3)) {
            // Small deltas merged often, so that reads meet column packs, deltas and merges under way.
            cluster.addLearner(config -> config.setDeltaMergeRows(50).setMergeCheckInterval(Duration.ofMillis(300)));
            try (SqlServer server = SqlTesting.startServer(cluster, config -> { });
                    PlacementClient placement = cluster.newPlacementClient();
                    StoreAdminCalls admin = new StoreAdminCalls(placement)) {
                String url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false";
                try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
                    statement.execute("CREATE TABLE diff (id INT PRIMARY KEY, k INT, v VARCHAR(40))");
                    SqlTesting.insertRows(statement, "diff", 1, 300, i -> i + ", " + (i % 13) + ", 'v" + i + "'");
                    statement.execute("ALTER TABLE diff SET TIFLASH REPLICA 1");
                    awaitAvailable(statement);
                    long tableId = Long.parseLong(SqlTesting.rows(statement, "SELECT TABLE_ID FROM"
                            + " information_schema.tiflash_replica WHERE TABLE_NAME = 'diff'").get(0));

                    AtomicBoolean running = new AtomicBoolean(true);
                    AtomicLong committed = new AtomicLong();
                    List<Throwable> failures = new ArrayList<>();
                    List<Thread> writers = new ArrayList<>();
                    for (int writer = 0; writer < 3; writer++) {
                        long seed = 7919L * (writer + 1);
                        Thread thread = new Thread(() -> write(url, seed, running, committed, failures), "writer-" + writer);
                        thread.start();
                        writers.add(thread);
                    }
                    // Each step also compares at a timestamp taken before it: by then the learner's resolved
                    // timestamp has usually passed it, and the learner answers alone (no read index, no lock check)
                    // while one-phase and two-phase commits keep landing around that timestamp.
                    int comparisons = 0;
                    double resolvedReads = learnerMetric(cluster, "duet_learner_resolved_reads_total");
                    long past = placement.getTimestamp().packed();
                    comparisons += compareAtOneTimestamp(statement);
                    admin.split(Keys.recordKey(tableId, 100));
                    comparisons += compareAtOneTimestamp(statement) + compareInThePast(statement, past);
                    past = placement.getTimestamp().packed();
                    moveLeaders(admin, tableId, 150, cluster);
                    comparisons += compareAtOneTimestamp(statement) + compareInThePast(statement, past);
                    past = placement.getTimestamp().packed();
                    admin.split(Keys.recordKey(tableId, 220));
                    comparisons += compareAtOneTimestamp(statement) + compareInThePast(statement, past);
                    cluster.stopLearner(0);
                    long before = committed.get();
                    LocalCluster.await("writes while the learner is down", Duration.ofSeconds(30),
                            () -> committed.get() >= before + 30);
                    past = placement.getTimestamp().packed();
                    cluster.startLearner(0);
                    awaitAvailable(statement);
                    comparisons += compareAtOneTimestamp(statement) + compareInThePast(statement, past);
                    resolvedReads = Math.min(resolvedReads, learnerMetric(cluster, "duet_learner_resolved_reads_total"));
                    for (int round = 0; round < 5; round++) {
                        past = placement.getTimestamp().packed();
                        moveLeaders(admin, tableId, 50 + 60 * round, cluster);
                        comparisons += compareInThePast(statement, past);
                    }
                    assertThat(learnerMetric(cluster, "duet_learner_resolved_reads_total"))
                            .as("learner reads below the resolved timestamp").isGreaterThan(resolvedReads);

                    running.set(false);
                    for (Thread thread : writers) {
                        thread.join(60_000);
                    }
                    assertThat(failures).isEmpty();
                    assertThat(committed.get()).isGreaterThan(100);
                    comparisons += compareAtOneTimestamp(statement);
                    assertThat(comparisons).isEqualTo(15);
                }
            }
        }
    }

    /** One transaction, one timestamp: the row store's answer, then the learner's. */
    private static int compareAtOneTimestamp(Statement statement) throws SQLException {
        statement.execute("BEGIN");
        try {
            statement.execute("SET tidb_isolation_read_engines = 'tikv'");
            List<String> rows = SqlTesting.rows(statement, "SELECT * FROM diff ORDER BY id");
            List<String> totals = SqlTesting.rows(statement, "SELECT count(*), sum(k), max(v) FROM diff");
            statement.execute("SET tidb_isolation_read_engines = 'tiflash'");
            assertThat(SqlTesting.rows(statement, "SELECT * FROM diff ORDER BY id")).isEqualTo(rows);
            assertThat(SqlTesting.rows(statement, "SELECT count(*), sum(k), max(v) FROM diff")).isEqualTo(totals);
        } finally {
            statement.execute("SET tidb_isolation_read_engines = 'tikv,tiflash,tidb'");
            statement.execute("COMMIT");
        }
        return 1;
    }

    /** The row store's answer at {@code ts} (tidb_snapshot), then the learner's. */
    private static int compareInThePast(Statement statement, long ts) throws SQLException {
        statement.execute("SET tidb_snapshot = '" + ts + "'");
        try {
            statement.execute("SET tidb_isolation_read_engines = 'tikv'");
            List<String> rows = SqlTesting.rows(statement, "SELECT * FROM diff ORDER BY id");
            statement.execute("SET tidb_isolation_read_engines = 'tiflash'");
            assertThat(SqlTesting.rows(statement, "SELECT * FROM diff ORDER BY id")).as("at " + ts).isEqualTo(rows);
        } finally {
            statement.execute("SET tidb_isolation_read_engines = 'tikv,tiflash,tidb'");
            statement.execute("SET tidb_snapshot = ''");
        }
        return 1;
    }

    private static double learnerMetric(LocalCluster cluster, String name) {
        return SqlTesting.metric(cluster.learner(0).orElseThrow().statusAddress().toString(), name);
    }

    private static void moveLeaders(StoreAdminCalls admin, long tableId, long handle, LocalCluster cluster) {
        byte[] key = Keys.recordKey(tableId, handle);
        long current = admin.regionWithLeader(key).getLeader().getStoreId();
        for (int i = 0; i < cluster.storeCount(); i++) {
            long storeId = cluster.store(i).orElseThrow().storeId();
            if (storeId != current && admin.transferLeader(key, storeId)) {
                return;
            }
        }
    }

    private static void write(String url, long seed, AtomicBoolean running, AtomicLong committed, List<Throwable> failures) {
        Random random = new Random(seed);
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            while (running.get()) {
                int id = 1 + random.nextInt(350);
                try {
                    switch (random.nextInt(6)) {
                        case 0 -> statement.execute("INSERT INTO diff VALUES (" + id + ", " + random.nextInt(13)
                                + ", 'i" + seed + "') ON DUPLICATE KEY UPDATE k = k + 1");
                        case 1 -> statement.execute("DELETE FROM diff WHERE id = " + id);
                        case 2 -> statement.execute("UPDATE diff SET v = 'u" + random.nextInt(1000) + "' WHERE id BETWEEN "
                                + id + " AND " + (id + 5));
                        case 3 -> {
                            statement.execute("BEGIN");
                            statement.execute("UPDATE diff SET k = k - 1 WHERE id = " + id);
                            statement.execute("INSERT IGNORE INTO diff VALUES (" + (id + 1) + ", 1, 'txn')");
                            statement.execute(random.nextBoolean() ? "COMMIT" : "ROLLBACK");
                        }
                        case 4 -> {
                            statement.execute("SET tidb_txn_mode = 'optimistic'");
                            try {
                                statement.execute("BEGIN");
                                statement.execute("UPDATE diff SET k = k + 2 WHERE id = " + id);
                                statement.execute("DELETE FROM diff WHERE id = " + (id + 2));
                                statement.execute("COMMIT");
                            } finally {
                                statement.execute("SET tidb_txn_mode = 'pessimistic'");
                            }
                        }
                        default -> {
                            statement.execute("BEGIN");
                            statement.execute("INSERT IGNORE INTO diff VALUES (" + id + ", 5, 'gone')");
                            statement.execute("ROLLBACK");
                        }
                    }
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    if (!RETRYABLE.contains(e.getErrorCode())) {
                        throw e;
                    }
                    statement.execute("ROLLBACK");
                }
            }
        } catch (Throwable e) {
            synchronized (failures) {
                failures.add(e);
            }
        }
    }

    private static void awaitAvailable(Statement statement) {
        LocalCluster.await("the learner replica of diff", Duration.ofSeconds(90), () -> {
            try {
                return SqlTesting.rows(statement, "SELECT AVAILABLE FROM information_schema.tiflash_replica WHERE"
                        + " TABLE_NAME = 'diff'").equals(List.of("1"));
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
    }
}
