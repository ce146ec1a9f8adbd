package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * DDL with two SQL servers on one cluster: a statement returns once the other server has loaded the new schema,
 * well before the two leases it waited before, so what it created is usable there at once; a registered server
 * that stops confirming forces the full wait until its registration expires.
 */
class ItSqlSchemaSync {
    /** Each server checks the schema version every tenth of a lease (100 ms); a full wait is two leases. */
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration FULL_WAIT = LEASE.multipliedBy(2);

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer first;
    static SqlServer second;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        first = SqlTesting.startServer(cluster, config -> config.setSchemaLease(LEASE));
        second = SqlTesting.startServer(cluster, config -> config.setSchemaLease(LEASE));
    }

    @AfterAll
    static void stop() {
        for (SqlServer server : new SqlServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
        cluster.close();
    }

    static Connection connect(SqlServer server) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false");
    }

    /** Runs {@code sql} and answers how long it took. */
    static Duration timed(Statement statement, String sql) throws SQLException {
        long start = System.nanoTime();
        statement.execute(sql);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Test
    void aTableCreatedOnOneServerIsUsableOnTheOtherAsSoonAsCreateReturns() throws Exception {
        try (Connection a = connect(first); Connection b = connect(second);
                Statement onFirst = a.createStatement(); Statement onSecond = b.createStatement()) {
            // The second server learns of a new version within a tenth of a lease by itself; a statement that
            // returned without waiting for it would find the table missing there nearly every time.
            for (int round = 0; round < 5; round++) {
                String table = "fresh_" + round;
                Duration create = timed(onFirst, "CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT)");
                onSecond.executeUpdate("INSERT INTO " + table + " VALUES (1, 10)");
                assertThat(SqlTesting.rows(onSecond, "SELECT v FROM " + table)).containsExactly("10");
                assertThat(create).as("CREATE TABLE waits for the other server, not two leases")
                        .isLessThan(FULL_WAIT);

                Duration index = timed(onFirst, "CREATE INDEX by_v ON " + table + " (v)");
                assertThat(SqlTesting.rows(onSecond, "SHOW INDEX FROM " + table)).anyMatch(row -> row.contains("by_v"));
                onSecond.executeUpdate("INSERT INTO " + table + " VALUES (2, 20)");
                assertThat(SqlTesting.rows(onSecond, "SELECT id FROM " + table + " WHERE v = 20")).containsExactly("2");
                // Four schema states, each confirmed by both servers.
                assertThat(index).as("CREATE INDEX's four states").isLessThan(FULL_WAIT.multipliedBy(2));

                timed(onFirst, "ALTER TABLE " + table + " ADD COLUMN w INT NOT NULL DEFAULT 7");
                assertThat(SqlTesting.rows(onSecond, "SELECT id, w FROM " + table + " ORDER BY id"))
                        .containsExactly("1|7", "2|7");

                timed(onFirst, "DROP TABLE " + table);
                assertThat(ItSqlBasics.errorOf(() -> onSecond.executeQuery("SELECT * FROM " + table)))
                        .isEqualTo(1146);
            }
            assertThat(SqlTesting.metric(first, "duet_sql_ddl_schema_syncs_total", "outcome=\"confirmed\""))
                    .isGreaterThanOrEqualTo(5 * 9);
        }
    }

    @Test
    void aServerThatStopsConfirmingForcesTheFullWaitUntilItsRegistrationExpires() throws Exception {
        try (Connection a = connect(first); Connection b = connect(second);
                Statement onFirst = a.createStatement(); Statement onSecond = b.createStatement()) {
            double fullWaits = SqlTesting.metric(first, "duet_sql_ddl_schema_syncs_total", "outcome=\"lease\"");
            // A registered server that dies: its catalog registered, then its connection to the cluster went
            // away before it could remove its record.
            PlacementClient placement = cluster.newPlacementClient();
            TxnClient client = new TxnClient(placement);
            Catalog ghost = new Catalog(client, LEASE, "ghost", Catalog.DdlStepObserver.NONE);
            ghost.start();
            client.close();
            placement.close();
            ghost.close();

            Duration create = timed(onFirst, "CREATE TABLE haunted (id INT PRIMARY KEY)");
            assertThat(create).isGreaterThanOrEqualTo(FULL_WAIT);
            assertThat(SqlTesting.metric(first, "duet_sql_ddl_schema_syncs_total", "outcome=\"lease\""))
                    .isEqualTo(fullWaits + 1);
            onSecond.executeUpdate("INSERT INTO haunted VALUES (1)");

            // Ten seconds without a report and the record expires: DDL is quick again.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Duration last = FULL_WAIT;
            for (int round = 0; System.nanoTime() < deadline; round++) {
                last = timed(onFirst, "ALTER TABLE haunted ADD COLUMN c" + round + " INT");
                if (last.compareTo(FULL_WAIT) < 0) {
                    break;
                }
            }
            assertThat(last).isLessThan(FULL_WAIT);
            assertThat(timed(onFirst, "DROP TABLE haunted")).isLessThan(FULL_WAIT);
        }
    }
}
