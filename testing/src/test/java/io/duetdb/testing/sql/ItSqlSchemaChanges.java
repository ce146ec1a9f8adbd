package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;

/**
 * Online schema changes with two SQL servers on one cluster: an index added while both servers write agrees
 * with the table afterwards; columns added and dropped under writes; upserts.
 */
class ItSqlSchemaChanges {
    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer first;
    static SqlServer second;

    @BeforeAll
    static void start() {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        first = server();
        second = server();
    }

    static SqlServer server() {
        return SqlTesting.startServer(cluster, config -> config.setSchemaLease(Duration.ofMillis(300)));
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        cluster.close();
    }

    static Connection connect(SqlServer server) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false");
    }

    static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.rows(statement, sql);
    }

    @Test
    void addIndexUnderConcurrentWritesFromTwoServersAgreesWithTheTable() throws Exception {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer INT NOT NULL, total INT)");
            StringBuilder insert = new StringBuilder("INSERT INTO orders VALUES ");
            for (int id = 1; id <= 300; id++) {
                insert.append(id > 1 ? "," : "").append('(').append(id).append(',').append(id % 17).append(',')
                        .append(id).append(')');
            }
            statement.executeUpdate(insert.toString());
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong writes = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (SqlServer server : List.of(first, second)) {
            for (int w = 0; w < 2; w++) {
                int writer = writers.size();
                Thread thread = new Thread(() -> {
                    try (Connection connection = connect(server);
                            PreparedStatement update = connection.prepareStatement(
                                    "UPDATE orders SET customer = ? WHERE id = ?");
                            PreparedStatement insert = connection.prepareStatement(
                                    "INSERT INTO orders VALUES (?, ?, 0)");
                            PreparedStatement delete = connection.prepareStatement("DELETE FROM orders WHERE id = ?")) {
                        int next = 1000 + writer * 100_000;
                        while (!stop.get()) {
                            ThreadLocalRandom random = ThreadLocalRandom.current();
                            try {
                                switch (random.nextInt(3)) {
                                    case 0 -> {
                                        update.setInt(1, random.nextInt(17));
                                        update.setInt(2, 1 + random.nextInt(300));
                                        update.executeUpdate();
                                    }
                                    case 1 -> {
                                        insert.setInt(1, next++);
                                        insert.setInt(2, random.nextInt(17));
                                        insert.executeUpdate();
                                    }
                                    default -> {
                                        delete.setInt(1, 1 + random.nextInt(300));
                                        delete.executeUpdate();
                                    }
                                }
                                writes.incrementAndGet();
                            } catch (SQLException e) {
                                if (e.getErrorCode() != 1213 && e.getErrorCode() != 9007 && e.getErrorCode() != 8002) {
                                    throw e;
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                thread.start();
                writers.add(thread);
            }
        }
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            Thread.sleep(300);
            statement.execute("ALTER TABLE orders ADD INDEX by_customer (customer)");
            Thread.sleep(500);
        } finally {
            stop.set(true);
            for (Thread writer : writers) {
                writer.join();
            }
        }
        assertThat(failure.get()).isNull();
        assertThat(writes.get()).isPositive();
        try (Connection connection = connect(second); Statement statement = connection.createStatement()) {
            for (int customer = 0; customer < 17; customer++) {
                // customer = c reads the new index (then the rows); customer + 0 = c scans the table.
                List<String> indexed = rows(statement, "SELECT id FROM orders WHERE customer = " + customer
                        + " ORDER BY id");
                List<String> scanned = rows(statement, "SELECT id FROM orders WHERE customer + 0 = " + customer
                        + " ORDER BY id");
                assertThat(indexed).as("customer %d", customer).isEqualTo(scanned).isNotEmpty();
            }
            assertThat(rows(statement, "SHOW INDEX FROM orders")).anyMatch(row -> row.contains("by_customer"));
        }
        // Every row has its entry in the new index and every entry belongs to a row with that value.
        assertThat(IndexConsistency.check(cluster, "test", "orders", "by_customer")).isEmpty();
    }

    @Test
    void addsAndDropsColumnsWhileServersWrite() throws Exception {
        try (Connection a = connect(first); Connection b = connect(second);
                Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20))");
            sa.executeUpdate("INSERT INTO notes VALUES (1, 'one'), (2, 'two')");
            sa.execute("ALTER TABLE notes ADD COLUMN stars INT NOT NULL DEFAULT 3");
            assertThat(rows(sb, "SELECT id, body, stars FROM notes ORDER BY id")).containsExactly("1|one|3", "2|two|3");
            sb.executeUpdate("INSERT INTO notes (id, body) VALUES (3, 'three')");
            sb.executeUpdate("UPDATE notes SET stars = 5 WHERE id = 1");
            sa.execute("ALTER TABLE notes ADD COLUMN tag VARCHAR(5) FIRST");
            assertThat(rows(sa, "SELECT * FROM notes ORDER BY id")).containsExactly("null|1|one|5", "null|2|two|3",
                    "null|3|three|3");
            sa.execute("ALTER TABLE notes DROP COLUMN body");
            assertThat(rows(sb, "SELECT * FROM notes ORDER BY id")).containsExactly("null|1|5", "null|2|3", "null|3|3");
            assertThatThrownBy(() -> sb.executeQuery("SELECT body FROM notes"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1054));
            sb.execute("RENAME TABLE notes TO memos");
            assertThat(rows(sa, "SELECT COUNT(*) FROM memos")).containsExactly("3");
            assertThatThrownBy(() -> sa.executeQuery("SELECT * FROM notes"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1146));
        }
    }

    @Test
    void aTransactionWhoseTableChangedUnderItIsRolledBackAtCommit() throws Exception {
        try (Connection a = connect(first); Connection b = connect(second);
                Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("CREATE TABLE ledger (id INT PRIMARY KEY, account INT, amount INT)");
            sa.executeUpdate("INSERT INTO ledger VALUES (1, 10, 100)");
            a.setAutoCommit(false);
            sa.executeUpdate("INSERT INTO ledger VALUES (2, 20, 200)");
            // Another server adds an index meanwhile: this transaction's row was written without its entry.
            sb.execute("ALTER TABLE ledger ADD INDEX by_account (account)");
            assertThatThrownBy(a::commit).satisfies(e -> {
                assertThat(((SQLException) e).getErrorCode()).isEqualTo(8028);
                assertThat(e.getMessage()).contains("Information schema is changed");
            });
            a.setAutoCommit(true);
            assertThat(rows(sa, "SELECT id FROM ledger ORDER BY id")).containsExactly("1");
            // Written again under the new definition, it commits with its index entry.
            sa.executeUpdate("INSERT INTO ledger VALUES (2, 20, 200)");
        }
        assertThat(IndexConsistency.check(cluster, "test", "ledger", "by_account")).isEmpty();
    }

    @Test
    void upsertsWithOnDuplicateKeyUpdate() throws SQLException {
        try (Connection connection = connect(first); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE counters (name VARCHAR(10) PRIMARY KEY, hits INT NOT NULL, seen INT)");
            assertThat(statement.executeUpdate("INSERT INTO counters VALUES ('a', 1, 1)"
                    + " ON DUPLICATE KEY UPDATE hits = hits + VALUES(hits)")).isEqualTo(1);
            assertThat(statement.executeUpdate("INSERT INTO counters VALUES ('a', 5, 1), ('b', 2, 1)"
                    + " ON DUPLICATE KEY UPDATE hits = hits + VALUES(hits), seen = seen + 1")).isEqualTo(3);
            assertThat(statement.executeUpdate("INSERT INTO counters VALUES ('b', 9, 9)"
                    + " ON DUPLICATE KEY UPDATE seen = seen")).isEqualTo(0);
            assertThat(rows(statement, "SELECT name, hits, seen FROM counters ORDER BY name"))
                    .containsExactly("a|6|2", "b|2|1");
        }
    }
}
