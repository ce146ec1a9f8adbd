package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * ADD INDEX's backfill through MySQL Connector/J, with pages of 8 rows so that a table spans many: one entry per
 * row (rows deleted before the index are skipped, NULLs of a unique index are not duplicates), a non-unique index
 * imported a page per request without locks, and duplicates of a unique index found within a page and across
 * pages (1062, no index left behind).
 */
class ItIndexBackfill {
    private static final int PAGE = 8;
    private static final int ROWS = 100;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        // A long lease: the server's schema-version record, which the catalog rewrites every half lease in a
        // pessimistic transaction, would otherwise add its lock requests to those counted below.
        server = SqlTesting.startServer(cluster, config -> config.setBackfillBatchSize(PAGE)
                .setSchemaLease(Duration.ofSeconds(20)));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        cluster.close();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false");
    }

    /** Rows 1..ROWS with k = id % 7 (NULL for every tenth row) and u = id. */
    static void fill(Statement statement, String table) throws SQLException {
        statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, k INT, u INT, note VARCHAR(20))");
        SqlTesting.insertRows(statement, table, 1, ROWS,
                id -> id + ", " + (id % 10 == 0 ? "NULL" : String.valueOf(id % 7)) + ", " + id + ", 'row " + id + "'");
    }

    /** Pessimistic lock requests the stores granted so far. */
    static double lockRequests() {
        return SqlTesting.storeMetric(cluster, "duet_store_pessimistic_locks_total");
    }

    /** KvImport requests the stores served so far. */
    static double importRequests() {
        return SqlTesting.storeMetric(cluster, "duet_store_requests_total", "method=\"KvImport\"");
    }

    @Test
    void aNonUniqueIndexIsWrittenAsTheSnapshotSawItWithoutLocksOneImportPerPage() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "plain");
            statement.executeUpdate("DELETE FROM plain WHERE id IN (5, 9, 10, 17, 64)");
            statement.execute("CREATE TABLE plain_empty (id INT PRIMARY KEY, k INT, u INT, note VARCHAR(20))");
            double locksBefore = lockRequests();
            double importsBefore = importRequests();
            statement.execute("CREATE INDEX idx_k ON plain_empty (k)");
            double locksWithoutRows = lockRequests() - locksBefore;
            assertThat(importRequests()).as("an empty table imports nothing").isEqualTo(importsBefore);
            locksBefore = lockRequests();
            statement.execute("CREATE INDEX idx_k ON plain (k)");
            double backfillLocks = lockRequests() - locksBefore - locksWithoutRows;
            double imports = importRequests() - importsBefore;

            assertThat(IndexConsistency.check(cluster, "test", "plain", "idx_k")).isEmpty();
            List<String> expected = new ArrayList<>();
            for (int id = 3; id <= ROWS; id += 7) {
                if (id % 10 != 0 && id != 17 && id != 64) {
                    expected.add(String.valueOf(id));
                }
            }
            assertThat(SqlTesting.rows(statement, "EXPLAIN SELECT id FROM plain WHERE k = 3"))
                    .anyMatch(row -> row.contains("idx_k"));
            assertThat(SqlTesting.rows(statement, "SELECT id FROM plain WHERE k = 3 ORDER BY id"))
                    .containsExactlyElementsOf(expected);
            assertThat(backfillLocks).as("no row or entry is locked").isZero();
            assertThat(imports).as("one page of at least 4,096 rows, one region").isEqualTo(1);
        }
    }

    @Test
    void aLargerTableIsImportedInPagesOfAtLeast4096Rows() throws SQLException {
        int rows = 2 * 4096 + 808;
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE wide (id INT PRIMARY KEY, k INT, note VARCHAR(20))");
            for (int first = 1; first <= rows; first += 1500) {
                SqlTesting.insertRows(statement, "wide", first, Math.min(rows, first + 1499),
                        id -> id + ", " + (id % 13) + ", 'row " + id + "'");
            }
            double importsBefore = importRequests();
            statement.execute("CREATE INDEX idx_k ON wide (k)");
            // Pages of 4,096, 4,096 and 808 rows, one request each.
            assertThat(importRequests() - importsBefore).isEqualTo(3);
            assertThat(IndexConsistency.check(cluster, "test", "wide", "idx_k")).isEmpty();
            long twelves = IntStream.rangeClosed(1, rows).filter(id -> id % 13 == 12).count();
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM wide WHERE k = 12"))
                    .containsExactly(String.valueOf(twelves));
        }
    }

    @Test
    void withFastReorganizationOffANonUniqueIndexLocksEachPageTogether() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "locked");
            statement.execute("CREATE TABLE locked_empty (id INT PRIMARY KEY, k INT, u INT, note VARCHAR(20))");
            statement.execute("SET GLOBAL tidb_ddl_enable_fast_reorg = OFF");
            try {
                double before = lockRequests();
                statement.execute("CREATE INDEX idx_k ON locked_empty (k)");
                double withoutRows = lockRequests() - before;
                double importsBefore = importRequests();
                before = lockRequests();
                statement.execute("CREATE INDEX idx_k ON locked (k)");
                double backfillRequests = lockRequests() - before - withoutRows;
                assertThat(importRequests()).isEqualTo(importsBefore);
                assertThat(IndexConsistency.check(cluster, "test", "locked", "idx_k")).isEmpty();
                // Two requests a page (its rows, then its entries), where locking row by row took two per row.
                int pages = ROWS / PAGE + 1;
                assertThat(backfillRequests).isBetween((double) pages, 2.0 * pages + 4);
            } finally {
                statement.execute("SET GLOBAL tidb_ddl_enable_fast_reorg = DEFAULT");
            }
        }
    }

    @Test
    void oneBackfillWorkerIndexesTheSameRowsAsSeveral() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "serial");
            statement.executeUpdate("DELETE FROM serial WHERE id % 11 = 0");
            statement.execute("SET GLOBAL tidb_ddl_reorg_worker_cnt = 1");
            try {
                statement.execute("CREATE INDEX idx_k ON serial (k)");
            } finally {
                statement.execute("SET GLOBAL tidb_ddl_reorg_worker_cnt = DEFAULT");
            }
            statement.execute("CREATE UNIQUE INDEX uk_u ON serial (u)");
            assertThat(IndexConsistency.check(cluster, "test", "serial", "idx_k")).isEmpty();
            assertThat(IndexConsistency.check(cluster, "test", "serial", "uk_u")).isEmpty();
            long expected = IntStream.rangeClosed(1, ROWS)
                    .filter(id -> id % 7 == 3 && id % 10 != 0 && id % 11 != 0).count();
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM serial WHERE k = 3"))
                    .containsExactly(String.valueOf(expected));
        }
    }

    @Test
    void aUniqueIndexAcceptsManyNullsAndThenRefusesDuplicates() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "nullable");
            statement.executeUpdate("UPDATE nullable SET u = NULL WHERE id % 3 = 0");
            statement.execute("CREATE UNIQUE INDEX uk_u ON nullable (u)");

            assertThat(IndexConsistency.check(cluster, "test", "nullable", "uk_u")).isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM nullable WHERE u IS NULL"))
                    .containsExactly(String.valueOf(ROWS / 3));
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO nullable VALUES (1000, 1, 50, 'again')"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1062));
        }
    }

    @Test
    void duplicatesWithinOnePageFailTheIndex() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "same_page");
            // Rows 42 and 43 share a page of eight.
            statement.executeUpdate("UPDATE same_page SET u = 500 WHERE id IN (42, 43)");

            assertThatThrownBy(() -> statement.execute("CREATE UNIQUE INDEX uk_u ON same_page (u)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1062);
                        assertThat(e.getMessage()).contains("500").contains("for key 'same_page.uk_u'");
                    });
            assertThat(SqlTesting.rows(statement, "SHOW INDEX FROM same_page")).noneMatch(row -> row.contains("uk_u"));
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM same_page")).containsExactly(
                    String.valueOf(ROWS));
        }
    }

    @Test
    void duplicatesOnDifferentPagesFailTheIndex() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            fill(statement, "other_page");
            statement.executeUpdate("UPDATE other_page SET u = 7 WHERE id = 90");

            assertThatThrownBy(() -> statement.execute("CREATE UNIQUE INDEX uk_u ON other_page (u)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1062);
                        assertThat(e.getMessage()).contains("7").contains("for key 'other_page.uk_u'");
                    });
            assertThat(SqlTesting.rows(statement, "SHOW INDEX FROM other_page")).noneMatch(row -> row.contains("uk_u"));
            statement.executeUpdate("UPDATE other_page SET u = 90 WHERE id = 90");
            statement.execute("CREATE UNIQUE INDEX uk_u ON other_page (u)");
            assertThat(IndexConsistency.check(cluster, "test", "other_page", "uk_u")).isEmpty();
        }
    }
}
