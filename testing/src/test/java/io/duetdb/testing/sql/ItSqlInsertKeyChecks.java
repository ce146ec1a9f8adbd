package io.duetdb.testing.sql;

import static io.duetdb.testing.sql.ItSqlUniqueKeyUpdates.assertDuplicate;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * Plain INSERTs through MySQL Connector/J: an autocommit INSERT leaves its primary and unique key checks to the
 * prewrite (TiDB's lazy uniqueness check, no read first), and still fails with MySQL's 1062 naming the entry and
 * key, for a row already stored, two rows of one statement, and a unique index; nothing of a failed statement is
 * written. With tidb_constraint_check_in_place on, or inside a transaction, the keys are read first.
 */
class ItSqlInsertKeyChecks {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        server = SqlTesting.startServer(cluster, config -> { });
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

    /** Transactional batch reads the stores served so far. */
    static double batchGets() {
        return SqlTesting.storeMetric(cluster, "duet_store_requests_total", "method=\"KvBatchGet\"");
    }

    @Test
    void autocommitInsertsCheckKeysAtPrewriteAndReportDuplicatesAsMysql() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE items (id INT PRIMARY KEY, code VARCHAR(10), note VARCHAR(10),"
                    + " UNIQUE KEY uk_code (code))");
            double before = batchGets();
            for (int id = 1; id <= 20; id++) {
                statement.executeUpdate("INSERT INTO items VALUES (" + id + ", 'c" + id + "', 'n')");
            }
            assertThat(statement.executeUpdate("INSERT INTO items VALUES (21, 'c21', 'n'), (22, NULL, 'n'),"
                    + " (23, NULL, 'n')")).isEqualTo(3);
            assertThat(batchGets()).as("no key read before writing").isEqualTo(before);

            assertDuplicate(() -> statement.executeUpdate("INSERT INTO items VALUES (5, 'new', 'n')"), "5",
                    "items.PRIMARY");
            assertDuplicate(() -> statement.executeUpdate("INSERT INTO items VALUES (30, 'c7', 'n')"), "c7",
                    "items.uk_code");
            assertDuplicate(() -> statement.executeUpdate("INSERT INTO items VALUES (31, 'a', 'n'), (32, 'b', 'n'),"
                    + " (31, 'c', 'n')"), "31", "items.PRIMARY");
            assertDuplicate(() -> statement.executeUpdate("INSERT INTO items VALUES (33, 'd', 'n'), (34, 'd', 'n')"),
                    "d", "items.uk_code");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*), MAX(id) FROM items")).containsExactly("23|23");
            assertThat(SqlTesting.rows(statement, "SELECT id FROM items WHERE code IN ('new', 'a', 'b', 'c', 'd')"))
                    .isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT note FROM items WHERE id = 5")).containsExactly("n");
        }
    }

    @Test
    void withConstraintCheckInPlaceOrInATransactionKeysAreReadFirst() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE eager (id INT PRIMARY KEY, v INT)");
            statement.executeUpdate("INSERT INTO eager VALUES (1, 1)");
            statement.execute("SET tidb_constraint_check_in_place = ON");
            double before = batchGets();
            statement.executeUpdate("INSERT INTO eager VALUES (2, 2)");
            assertThat(batchGets()).isGreaterThan(before);
            assertDuplicate(() -> statement.executeUpdate("INSERT INTO eager VALUES (1, 9)"), "1", "eager.PRIMARY");
            statement.execute("SET tidb_constraint_check_in_place = OFF");

            statement.execute("BEGIN");
            assertDuplicate(() -> statement.executeUpdate("INSERT INTO eager VALUES (2, 9)"), "2", "eager.PRIMARY");
            statement.executeUpdate("INSERT INTO eager VALUES (3, 3)");
            statement.execute("COMMIT");
            assertThat(SqlTesting.rows(statement, "SELECT id, v FROM eager ORDER BY id"))
                    .containsExactly("1|1", "2|2", "3|3");
        }
    }
}
