package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The access paths OLTP statements take, through Connector/J: batch point gets on (NONCLUSTERED) composite primary
 * keys, unique indexes and clustered keys (IN lists of tuples, IN lists, ORs of equalities), as text and prepared statements, in
 * autocommit and in transactions, plain and locking; and locking reads that lock exactly the rows they read.
 */
class ItOltpAccessPaths {
    private static final int WAREHOUSES = 3;
    private static final int ITEMS = 50;

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE stock (s_w_id INT NOT NULL, s_i_id INT NOT NULL, s_quantity INT NOT NULL,"
                    + " s_data VARCHAR(20), PRIMARY KEY (s_w_id, s_i_id) NONCLUSTERED)");
            statement.execute("CREATE TABLE item (i_id INT PRIMARY KEY, i_name VARCHAR(20) NOT NULL)");
            statement.execute("CREATE TABLE customer (c_w_id INT NOT NULL, c_id INT NOT NULL, c_last VARCHAR(16) NOT NULL,"
                    + " c_balance INT NOT NULL, PRIMARY KEY (c_w_id, c_id) NONCLUSTERED, UNIQUE KEY c_name (c_w_id, c_last))");
            for (int w = 1; w <= WAREHOUSES; w++) {
                int warehouse = w;
                SqlTesting.insertRows(statement, "stock", 1, ITEMS,
                        i -> warehouse + "," + i + "," + quantity(warehouse, i) + ",'data-" + warehouse + "-" + i + "'");
                SqlTesting.insertRows(statement, "customer", 1, 10,
                        c -> warehouse + "," + c + ",'" + (char) ('A' + c) + "'," + (warehouse * 1000 + c));
            }
            SqlTesting.insertRows(statement, "item", 1, ITEMS, i -> i + ",'item-" + i + "'");
        }
    }

    private static int quantity(int warehouse, int item) {
        return warehouse * 100 + item;
    }

    private static String stockRow(int warehouse, int item) {
        return warehouse + "|" + item + "|" + quantity(warehouse, item);
    }

    @Test
    void keyListsAreReadByBatchPointGets() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            String tuples = "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE (s_w_id, s_i_id) IN ((1,1),(1,3),(2,2),(9,9))";
            assertThat(SqlTesting.rows(statement, tuples)).containsExactlyInAnyOrder(stockRow(1, 1), stockRow(1, 3),
                    stockRow(2, 2));
            assertThat(operator(statement, tuples)).isEqualTo(
                    "Batch_Point_Get|4.00|root|table:stock, index:PRIMARY(s_w_id, s_i_id)");

            String prefixAndList = "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id IN (7, 5, 6)";
            assertThat(SqlTesting.rows(statement, prefixAndList)).containsExactlyInAnyOrder(stockRow(2, 5),
                    stockRow(2, 6), stockRow(2, 7));
            assertThat(operator(statement, prefixAndList)).startsWith("Batch_Point_Get|3.00|");

            String orOfKeys = "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE (s_w_id = 1 AND s_i_id = 4)"
                    + " OR (s_i_id = 50 AND s_w_id = 3)";
            assertThat(SqlTesting.rows(statement, orOfKeys)).containsExactlyInAnyOrder(stockRow(1, 4), stockRow(3, 50));
            assertThat(operator(statement, orOfKeys)).startsWith("Batch_Point_Get|2.00|");

            String oneKey = "SELECT s_quantity FROM stock WHERE s_i_id = 9 AND s_w_id = 3";
            assertThat(SqlTesting.rows(statement, oneKey)).containsExactly(String.valueOf(quantity(3, 9)));
            assertThat(operator(statement, oneKey)).startsWith("Point_Get|1.00|");

            String clustered = "SELECT i_id, i_name FROM item WHERE i_id IN (3, 1, 2, 1000) OR i_id = 7";
            assertThat(SqlTesting.rows(statement, clustered)).containsExactly("1|item-1", "2|item-2", "3|item-3",
                    "7|item-7");
            assertThat(operator(statement, clustered)).isEqualTo("Batch_Point_Get|5.00|root|table:item, handle:i_id");

            String uniqueIndex = "SELECT c_id, c_balance FROM customer WHERE c_w_id = 2 AND c_last IN ('C', 'E', 'Z')";
            assertThat(SqlTesting.rows(statement, uniqueIndex)).containsExactlyInAnyOrder("2|2002", "4|2004");
            assertThat(operator(statement, uniqueIndex)).isEqualTo(
                    "Batch_Point_Get|3.00|root|table:customer, index:c_name(c_w_id, c_last)");

            // A key part that cannot hold the value, or contradicting equalities, match nothing.
            assertThat(SqlTesting.rows(statement, "SELECT s_quantity FROM stock WHERE (s_w_id, s_i_id) IN ((1, 1.5))"))
                    .isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_w_id = 2"
                    + " AND s_i_id = 1")).isEmpty();
            // Other conjuncts are still applied to the rows read.
            assertThat(SqlTesting.rows(statement, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((1,1),(1,2))"
                    + " AND s_quantity > 101")).containsExactly("2");
        }
    }

    @Test
    void preparedKeyListsInTransactionsAndLockingReads() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true")) {
            String sql = "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE (s_w_id, s_i_id) IN ((?,?),(?,?),(?,?))";
            for (String suffix : List.of("", " FOR UPDATE", " LOCK IN SHARE MODE")) {
                for (boolean autocommit : List.of(true, false)) {
                    connection.setAutoCommit(autocommit);
                    try (PreparedStatement select = connection.prepareStatement(sql + suffix)) {
                        for (int round = 1; round <= 3; round++) {
                            int[] keys = {round, round, round, round + 10, WAREHOUSES, ITEMS - round};
                            for (int i = 0; i < keys.length; i++) {
                                select.setInt(i + 1, keys[i]);
                            }
                            assertThat(SqlTesting.rows(select.executeQuery())).as("%s, autocommit %s, round %s", suffix,
                                    autocommit, round).containsExactlyInAnyOrder(stockRow(round, round),
                                            stockRow(round, round + 10), stockRow(WAREHOUSES, ITEMS - round));
                        }
                    }
                    if (!autocommit) {
                        connection.commit();
                    }
                }
            }
            connection.setAutoCommit(true);
        }
    }

    @Test
    void lockingReadsLockTheRowsTheyReadAndNoOthers() throws Exception {
        try (Connection holder = DriverManager.getConnection(sqlCluster.url()); Connection other = DriverManager.getConnection(sqlCluster.url());
                Statement held = holder.createStatement(); Statement contender = other.createStatement()) {
            holder.setAutoCommit(false);
            other.setAutoCommit(false);
            contender.execute("SET innodb_lock_wait_timeout = 1");
            assertThat(SqlTesting.rows(held, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((1,21),(1,23))"
                    + " FOR UPDATE")).containsExactlyInAnyOrder("21", "23");

            // Neighbours of the locked rows, in the same region, are free.
            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((1,22),(2,21))"
                    + " FOR UPDATE")).containsExactlyInAnyOrder("22", "21");
            assertThat(contender.executeUpdate("UPDATE stock SET s_quantity = s_quantity + 1 WHERE s_w_id = 1"
                    + " AND s_i_id = 24")).isEqualTo(1);
            // A locked one waits, here for one second, then fails with MySQL's lock wait timeout.
            assertThatThrownBy(() -> contender.executeQuery("SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id = 23"
                    + " FOR UPDATE")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            // The transaction goes on after the timeout, its earlier locks held.
            holder.commit();
            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id = 23"
                    + " FOR UPDATE")).containsExactly("23");
            other.commit();
        }
    }

    @Test
    void nowaitFailsAtOnceAndSkipLockedPassesHeldRowsBy() throws Exception {
        try (Connection holder = DriverManager.getConnection(sqlCluster.url()); Connection other = DriverManager.getConnection(sqlCluster.url());
                Statement held = holder.createStatement(); Statement contender = other.createStatement()) {
            holder.setAutoCommit(false);
            other.setAutoCommit(false);
            // A lock wait this long would outlast the test: only NOWAIT and SKIP LOCKED can answer in time.
            contender.execute("SET innodb_lock_wait_timeout = 50");
            assertThat(SqlTesting.rows(held, "SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id IN (11, 13)"
                    + " FOR UPDATE")).containsExactlyInAnyOrder("11", "13");

            CompletableFuture<SQLException> nowait = CompletableFuture.supplyAsync(() -> {
                try {
                    SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id IN (12, 13)"
                            + " FOR UPDATE NOWAIT");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            SQLException refused = nowait.get(10, TimeUnit.SECONDS);
            assertThat((Object) refused).isNotNull();
            assertThat(refused.getErrorCode()).isEqualTo(3572);
            // The failed statement took (12) with it; nothing it read stays locked.
            assertThat(SqlTesting.rows(held, "SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id = 12 FOR UPDATE"
                    + " NOWAIT")).containsExactly("12");

            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE s_w_id = 1 AND s_i_id BETWEEN 10 AND 15"
                    + " ORDER BY s_i_id FOR UPDATE SKIP LOCKED")).containsExactly("10", "14", "15");
            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((1,13),(1,16))"
                    + " FOR UPDATE SKIP LOCKED")).containsExactly("16");
            holder.commit();
            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((1,13),(1,16))"
                    + " FOR UPDATE NOWAIT")).containsExactlyInAnyOrder("13", "16");
            other.commit();
        }
    }

    @Test
    void anOrderedLockingReadWithALimitLocksOnlyTheRowsItReturns() throws Exception {
        try (Connection holder = DriverManager.getConnection(sqlCluster.url()); Connection other = DriverManager.getConnection(sqlCluster.url());
                Statement held = holder.createStatement(); Statement contender = other.createStatement()) {
            holder.setAutoCommit(false);
            other.setAutoCommit(false);
            contender.execute("SET innodb_lock_wait_timeout = 1");
            // TPC-C Delivery's shape: the oldest row of a key prefix, through the primary key's order.
            assertThat(SqlTesting.rows(held, "SELECT s_i_id FROM stock WHERE s_w_id = 2 AND s_quantity > 202"
                    + " ORDER BY s_i_id LIMIT 2 FOR UPDATE")).containsExactly("3", "4");
            assertThat(SqlTesting.rows(held, "SELECT i_id FROM item WHERE i_id > 40 ORDER BY i_id LIMIT 1 FOR UPDATE"))
                    .containsExactly("41");

            assertThat(SqlTesting.rows(contender, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((2,2),(2,5))"
                    + " FOR UPDATE")).containsExactlyInAnyOrder("2", "5");
            assertThat(SqlTesting.rows(contender, "SELECT i_id FROM item WHERE i_id = 42 FOR UPDATE"))
                    .containsExactly("42");
            assertThatThrownBy(() -> contender.executeQuery("SELECT s_i_id FROM stock WHERE s_w_id = 2 AND s_i_id = 4"
                    + " FOR UPDATE")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            assertThatThrownBy(() -> contender.executeQuery("SELECT i_id FROM item WHERE i_id = 41 FOR UPDATE"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            holder.commit();
            other.commit();
        }
    }

    @Test
    void aFailedStatementReleasesTheLocksOnlyItTook() throws Exception {
        try (Connection first = DriverManager.getConnection(sqlCluster.url()); Connection second = DriverManager.getConnection(sqlCluster.url());
                Statement failing = first.createStatement(); Statement waiting = second.createStatement()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            waiting.execute("SET innodb_lock_wait_timeout = 1");
            assertThat(failing.executeUpdate("UPDATE stock SET s_quantity = s_quantity + 1 WHERE s_w_id = 2"
                    + " AND s_i_id = 31")).isEqualTo(1);
            // Locks (2,32) and (2,33), then fails: s_quantity is NOT NULL.
            assertThatThrownBy(() -> failing.executeUpdate("UPDATE stock SET s_quantity = NULL WHERE"
                    + " (s_w_id, s_i_id) IN ((2,32),(2,33))")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1048));
            assertThat(SqlTesting.rows(waiting, "SELECT s_i_id FROM stock WHERE (s_w_id, s_i_id) IN ((2,32),(2,33))"
                    + " FOR UPDATE")).containsExactlyInAnyOrder("32", "33");
            // The row the earlier statement wrote stays locked.
            assertThatThrownBy(() -> waiting.executeQuery("SELECT s_i_id FROM stock WHERE s_w_id = 2 AND s_i_id = 31"
                    + " FOR UPDATE")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1205));
            first.commit();
            second.commit();
            assertThat(SqlTesting.rows(waiting, "SELECT s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id IN (31, 32)"))
                    .containsExactly(String.valueOf(quantity(2, 31) + 1), String.valueOf(quantity(2, 32)));
        }
    }

    @Test
    void aDeadlockBetweenTwoLockingReadsIsReportedAndTheOtherGoesOn() throws Exception {
        try (Connection first = DriverManager.getConnection(sqlCluster.url()); Connection second = DriverManager.getConnection(sqlCluster.url());
                Statement one = first.createStatement(); Statement two = second.createStatement()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            // Long enough that a timeout cannot pass for the detection.
            one.execute("SET innodb_lock_wait_timeout = 50");
            two.execute("SET innodb_lock_wait_timeout = 50");
            assertThat(SqlTesting.rows(one, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 41 FOR UPDATE"))
                    .containsExactly("41");
            assertThat(SqlTesting.rows(two, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 42 FOR UPDATE"))
                    .containsExactly("42");
            CompletableFuture<List<String>> firstWaits = CompletableFuture.supplyAsync(() -> {
                try {
                    return SqlTesting.rows(one, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 42 FOR UPDATE");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            // The second closes the cycle, whenever the first's wait began: one of them is the deadlock's victim.
            SQLException victim = null;
            try {
                SqlTesting.rows(two, "SELECT s_i_id FROM stock WHERE s_w_id = 3 AND s_i_id = 41 FOR UPDATE");
            } catch (SQLException e) {
                victim = e;
            }
            if (victim != null) {
                assertThat(victim.getErrorCode()).isEqualTo(1213);
                assertThat(firstWaits.get(30, TimeUnit.SECONDS)).containsExactly("42");
                first.commit();
            } else {
                assertThat(firstWaits).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(Exception.class)
                        .withMessageContaining("Deadlock");
                second.commit();
            }
        }
    }

    /**
     * TPC-C's Stock-Level: the order lines of a district's last orders joined to the warehouse's stock on the item.
     * The join key is the second column of stock's primary key and the filter fixes the first, so the inner rows
     * are read by batch gets of whole keys (s_w_id, ol_i_id); a non-unique index with a fixed leading column is
     * read by a scan of each key's prefix. Results equal those of the plan that reads the inner table whole.
     */
    @Test
    void aJoinOnTheSecondColumnOfACompositeKeyWithTheFirstFixedLooksTheKeysUp() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE order_line (ol_w_id INT NOT NULL, ol_d_id INT NOT NULL, ol_o_id INT NOT NULL,"
                    + " ol_number INT NOT NULL, ol_i_id INT NOT NULL, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))");
            // Orders 1..10 of district (2, 1), three lines each, on items 1..13 (repeats across orders).
            SqlTesting.insertRows(statement, "order_line", 1, 30,
                    n -> "2, 1, " + ((n - 1) / 3 + 1) + ", " + ((n - 1) % 3 + 1) + ", " + (n % 13 + 1));
            statement.execute("INSERT INTO order_line VALUES (1, 1, 5, 1, 40), (2, 2, 5, 1, 41)");
            statement.execute("CREATE TABLE reorders (r_w_id INT NOT NULL, r_quantity INT NOT NULL, r_id INT PRIMARY KEY,"
                    + " KEY by_quantity (r_w_id, r_quantity))");
            SqlTesting.insertRows(statement, "reorders", 1, 60, r -> (r % 3 + 1) + ", " + (200 + r % 20) + ", " + r);

            String stockLevel = "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 2 AND ol_d_id = 1"
                    + " AND ol_o_id < 9 AND ol_o_id >= 3 AND s_w_id = 2 AND s_i_id = ol_i_id AND s_quantity < 210";
            String byPrefix = "SELECT i_id, r_id FROM item, reorders WHERE i_id < 4 AND r_w_id = 2"
                    + " AND r_quantity = i_id + 200 ORDER BY i_id, r_id";
            List<String> lookedUp = SqlTesting.rows(statement, stockLevel);
            List<String> lookedUpByPrefix = SqlTesting.rows(statement, byPrefix);
            List<String> plan = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + stockLevel);
            // Orders 3..8 have 18 lines on 13 distinct items: 13 keys looked up, of which 9 have s_quantity < 210.
            assertThat(plan).as(String.join("\n", plan)).anySatisfy(line -> assertThat(line)
                    .contains("IndexJoin|").contains("inner rows through index PRIMARY lookups"));
            assertThat(plan).anySatisfy(line -> assertThat(line).contains("IndexLookUp|")
                    .contains("|9|root|table:test.stock, index:PRIMARY|"));
            List<String> prefixPlan = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + byPrefix);
            assertThat(prefixPlan).as(String.join("\n", prefixPlan)).anySatisfy(line -> assertThat(line)
                    .contains("inner rows through index by_quantity lookups"));

            statement.execute("SET duet_index_join_max_outer_rows = 0");
            assertThat(SqlTesting.rows(statement, stockLevel)).isEqualTo(lookedUp);
            assertThat(SqlTesting.rows(statement, byPrefix)).isEqualTo(lookedUpByPrefix);
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
            // Items 1..13 in warehouse 2 have quantities 201..213: those below 210 are items 1..9.
            assertThat(lookedUp).containsExactly("9");
            // Of the reorders of warehouse 2 (r % 3 = 1), quantities 201, 202 and 203 are those of r = 1, 22 and 43.
            assertThat(lookedUpByPrefix).containsExactly("1|1", "2|22", "3|43");

            try (PreparedStatement prepared = connection.prepareStatement("SELECT COUNT(DISTINCT s_i_id)"
                    + " FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ?"
                    + " AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?")) {
                for (int i = 0; i < 3; i++) {
                    prepared.setInt(1, 2);
                    prepared.setInt(2, 1);
                    prepared.setInt(3, 9);
                    prepared.setInt(4, 3);
                    prepared.setInt(5, 2);
                    prepared.setInt(6, 210);
                    assertThat(SqlTesting.rows(prepared.executeQuery())).isEqualTo(lookedUp);
                }
            }
            statement.execute("DROP TABLE order_line");
            statement.execute("DROP TABLE reorders");
        }
    }

    /**
     * TPC-C Delivery's oldest new order without a lock: ORDER BY the index column after the fixed prefix with a
     * LIMIT reads the range in the sort's order, so each region's scan stops after the rows kept instead of reading
     * the whole range for a top N.
     */
    @Test
    void anOrderedLimitOverAnIndexRangeStopsTheScan() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            String first = "SELECT s_i_id FROM stock WHERE s_w_id = 3 ORDER BY s_i_id LIMIT 2";
            assertThat(SqlTesting.rows(statement, first)).containsExactly("1", "2");
            List<String> plan = SqlTesting.rows(statement, "EXPLAIN ANALYZE " + first);
            assertThat(plan).as(String.join("\n", plan)).anySatisfy(line -> assertThat(line).contains("Limit|")
                    .contains("limit 2 per region"));
            String scan = plan.stream().filter(line -> line.contains("IndexRangeScan")).findFirst().orElseThrow();
            // The scan's first batch (32 rows at most), not the range's 50 entries.
            assertThat(Long.parseLong(scan.split("\\|", -1)[2])).as(scan).isLessThan(ITEMS);
            // Descending, or by a column the range does not ascend by, it is still a top N of the whole range.
            assertThat(SqlTesting.rows(statement, "SELECT s_i_id FROM stock WHERE s_w_id = 3 ORDER BY s_i_id DESC LIMIT 2"))
                    .containsExactly(String.valueOf(ITEMS), String.valueOf(ITEMS - 1));
            assertThat(SqlTesting.rows(statement, "SELECT s_i_id FROM stock WHERE s_w_id = 3 ORDER BY s_quantity DESC"
                    + " LIMIT 1")).containsExactly(String.valueOf(ITEMS));
        }
    }

    /**
     * A range whose bounds cross (found by ItRandomQueries: seed 99, {@code n0 BETWEEN 133 AND 5}) holds no rows on
     * every path: read through the index then the rows, covered by the index, and under a locking read.
     */
    @Test
    void aRangeWhoseBoundsCrossReadsNoRows() throws SQLException {
        try (Connection connection = DriverManager.getConnection(sqlCluster.url()); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT s_w_id, count(*), max(s_data) FROM stock"
                    + " WHERE s_w_id BETWEEN 3 AND 1 GROUP BY s_w_id")).isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT count(DISTINCT s_quantity, s_data) FROM stock"
                    + " WHERE s_w_id = 2 AND s_i_id BETWEEN 40 AND 4")).containsExactly("0");
            assertThat(SqlTesting.rows(statement, "SELECT s_i_id FROM stock WHERE s_w_id = 2 AND s_i_id > 30"
                    + " AND s_i_id < 20")).isEmpty();
            assertThat(SqlTesting.rows(statement, "SELECT c_id FROM customer WHERE c_w_id = 1 AND c_last BETWEEN 'K' AND 'B'"
                    + " FOR UPDATE")).isEmpty();
        }
    }

    /** The first plan line's operator, estimated rows, task and access object. */
    private static String operator(Statement statement, String query) throws SQLException {
        for (String row : SqlTesting.rows(statement, "EXPLAIN " + query)) {
            String[] columns = row.split("\\|", -1);
            String name = columns[0].replaceAll("^[└─│ ]+", "");
            if (!name.equals("Projection")) {
                return name + "|" + columns[1] + "|" + columns[2] + "|" + columns[3];
            }
        }
        throw new AssertionError("no operator below the projection for " + query);
    }
}
