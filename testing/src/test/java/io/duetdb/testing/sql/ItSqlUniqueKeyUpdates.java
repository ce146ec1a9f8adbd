package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * UPDATE and INSERT ... ON DUPLICATE KEY UPDATE through MySQL Connector/J against the unique keys a row takes:
 * a changed unique value that another row holds fails with 1062 as in MySQL, whether or not the primary key is the
 * clustered integer handle and whether or not the primary key changes too; keys the row keeps are its own and are
 * not read again, so an UPDATE by primary key reads one key. A plain autocommit INSERT leaves its primary and
 * unique key checks to the prewrite (TiDB's lazy uniqueness check, no read first) and still fails with MySQL's 1062
 * naming the entry and key, for a row already stored, two rows of one statement and a unique index, writing nothing;
 * with tidb_constraint_check_in_place on, or inside a transaction, the keys are read first.
 */
class ItSqlUniqueKeyUpdates {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);

    static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + sqlCluster.server().address() + "/test?user=root&useSSL=false"
                + "&useServerPrepStmts=true");
    }

    static void assertDuplicate(ItSqlBasics.ThrowingRunnable statement, String entry, String key) {
        assertThatThrownBy(statement::run).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).isEqualTo(1062);
            assertThat(e.getSQLState()).isEqualTo("23000");
            assertThat(e.getMessage()).isEqualTo("Duplicate entry '" + entry + "' for key '" + key + "'");
        });
    }

    @Test
    void aChangedUniqueValueThatAnotherRowHoldsFailsWithAClusteredPrimaryKey() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE clustered (id INT PRIMARY KEY, u INT, v INT, UNIQUE KEY uk_u (u))");
            statement.executeUpdate("INSERT INTO clustered VALUES (1, 10, 0), (2, 20, 0), (3, NULL, 0)");

            assertDuplicate(() -> statement.executeUpdate("UPDATE clustered SET u = 20 WHERE id = 1"), "20",
                    "clustered.uk_u");
            assertDuplicate(() -> statement.executeUpdate("UPDATE clustered SET u = 10 WHERE id = 3"), "10",
                    "clustered.uk_u");
            assertThat(SqlTesting.rows(statement, "SELECT id, u FROM clustered ORDER BY id"))
                    .containsExactly("1|10", "2|20", "3|null");

            // Keeping the unique value, moving to a free one or to NULL is fine.
            assertThat(statement.executeUpdate("UPDATE clustered SET u = 10, v = 1 WHERE id = 1")).isEqualTo(1);
            assertThat(statement.executeUpdate("UPDATE clustered SET u = 30 WHERE id = 2")).isEqualTo(1);
            assertThat(statement.executeUpdate("UPDATE clustered SET u = 20 WHERE id = 3")).isEqualTo(1);
            assertThat(statement.executeUpdate("UPDATE clustered SET u = NULL WHERE id = 1")).isEqualTo(1);
            assertThat(SqlTesting.rows(statement, "SELECT id, u, v FROM clustered ORDER BY id"))
                    .containsExactly("1|null|1", "2|30|0", "3|20|0");
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "clustered", "uk_u")).isEmpty();
        }
    }

    @Test
    void aChangedUniqueValueFailsAlsoWhenThePrimaryKeyAndAnotherUniqueKeyChange() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE two_keys (id INT PRIMARY KEY, a INT, b INT, UNIQUE KEY uk_a (a),"
                    + " UNIQUE KEY uk_b (b))");
            statement.executeUpdate("INSERT INTO two_keys VALUES (1, 10, 100), (2, 20, 200)");

            // The row keeps a = 10 under a new primary key; b = 200 is row 2's.
            assertDuplicate(() -> statement.executeUpdate("UPDATE two_keys SET id = 3, b = 200 WHERE id = 1"), "200",
                    "two_keys.uk_b");
            assertDuplicate(() -> statement.executeUpdate("UPDATE two_keys SET id = 2 WHERE id = 1"), "2",
                    "two_keys.PRIMARY");
            assertThat(statement.executeUpdate("UPDATE two_keys SET id = 3, b = 300 WHERE id = 1")).isEqualTo(1);
            assertThat(SqlTesting.rows(statement, "SELECT id, a, b FROM two_keys ORDER BY id"))
                    .containsExactly("2|20|200", "3|10|300");
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "two_keys", "uk_a")).isEmpty();
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "two_keys", "uk_b")).isEmpty();
        }
    }

    @Test
    void aChangedUniqueValueFailsWithANonClusteredPrimaryKey() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE named (name VARCHAR(10) PRIMARY KEY, u INT, UNIQUE KEY uk_u (u))");
            statement.executeUpdate("INSERT INTO named VALUES ('x', 10), ('y', 20)");

            assertDuplicate(() -> statement.executeUpdate("UPDATE named SET u = 20 WHERE name = 'x'"), "20",
                    "named.uk_u");
            assertDuplicate(() -> statement.executeUpdate("UPDATE named SET name = 'y' WHERE name = 'x'"), "y",
                    "named.PRIMARY");
            assertThat(statement.executeUpdate("UPDATE named SET name = 'z', u = 30 WHERE name = 'x'")).isEqualTo(1);
            assertThat(SqlTesting.rows(statement, "SELECT name, u FROM named ORDER BY name"))
                    .containsExactly("y|20", "z|30");
        }
    }

    @Test
    void onDuplicateKeyUpdateIntoAnotherRowsUniqueValueFails() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE upserts (id INT PRIMARY KEY, u INT, hits INT, UNIQUE KEY uk_u (u))");
            statement.executeUpdate("INSERT INTO upserts VALUES (1, 10, 0), (2, 20, 0)");

            assertDuplicate(() -> statement.executeUpdate("INSERT INTO upserts VALUES (1, 99, 0)"
                    + " ON DUPLICATE KEY UPDATE u = 20"), "20", "upserts.uk_u");
            assertThat(statement.executeUpdate("INSERT INTO upserts VALUES (1, 99, 0)"
                    + " ON DUPLICATE KEY UPDATE hits = hits + 1, u = 10")).isEqualTo(2);
            assertThat(SqlTesting.rows(statement, "SELECT id, u, hits FROM upserts ORDER BY id"))
                    .containsExactly("1|10|1", "2|20|0");
            assertThat(IndexConsistency.check(sqlCluster.cluster(), "test", "upserts", "uk_u")).isEmpty();
        }
    }

    /** Point reads (KvGet and KvBatchGet requests) the stores served so far. */
    static double reads() {
        return SqlTesting.storeMetric(sqlCluster.cluster(), "duet_store_request_seconds_count", "method=\"KvGet\"")
                + batchGets();
    }

    @Test
    void anAutocommitUpdateByPrimaryKeyReadsOneKey() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                PreparedStatement select = connection.prepareStatement("SELECT v FROM counted WHERE id = ?");
                PreparedStatement update = connection.prepareStatement("UPDATE counted SET v = ? WHERE id = ?")) {
            statement.execute("CREATE TABLE counted (id INT PRIMARY KEY, u INT, v INT, UNIQUE KEY uk_u (u))");
            int statements = 200;
            SqlTesting.insertRows(statement, "counted", 1, statements, id -> id + ", " + id + ", 0");
            // Point selects read one key each: their reads, with the server's own meanwhile, are the yardstick.
            double before = reads();
            for (int id = 1; id <= statements; id++) {
                select.setInt(1, id);
                try (ResultSet result = select.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getInt(1)).isZero();
                }
            }
            double selectReads = reads() - before;
            before = reads();
            for (int id = 1; id <= statements; id++) {
                update.setInt(1, id * 7);
                update.setInt(2, id);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            double updateReads = reads() - before;

            // One read of the row each, where reading its primary key again made it two.
            assertThat(updateReads).isLessThan(selectReads + statements / 2.0);
            assertThat(SqlTesting.rows(statement, "SELECT SUM(v) FROM counted")).containsExactly(
                    String.valueOf(7 * statements * (statements + 1) / 2));
        }
    }

    /** Transactional batch reads the stores served so far. */
    static double batchGets() {
        return SqlTesting.storeMetric(sqlCluster.cluster(), "duet_store_request_seconds_count", "method=\"KvBatchGet\"");
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
