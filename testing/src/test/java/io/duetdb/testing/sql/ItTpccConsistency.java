package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * A TPC-C-like workload (New-Order and Payment on one warehouse), run for a bounded time by concurrent
 * pessimistic transactions through Connector/J, then TPC-C's consistency conditions 1 to 4 checked.
 */
class ItTpccConsistency {
    private static final int DISTRICTS = 4;
    private static final int CUSTOMERS = 30;
    private static final int ITEMS = 50;

    @TempDir
    static Path root;
    static LocalCluster cluster;
    static SqlServer server;
    static String url;

    @BeforeAll
    static void start() throws SQLException {
        cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(3);
        server = SqlTesting.startServer(cluster, config -> { });
        url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false&useServerPrepStmts=true";
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_ytd DECIMAL(12,2) NOT NULL)");
            statement.execute("CREATE TABLE district (d_w_id INT NOT NULL, d_id INT NOT NULL, d_ytd DECIMAL(12,2) NOT NULL,"
                    + " d_next_o_id INT NOT NULL, PRIMARY KEY (d_w_id, d_id))");
            statement.execute("CREATE TABLE customer (c_w_id INT NOT NULL, c_d_id INT NOT NULL, c_id INT NOT NULL,"
                    + " c_balance DECIMAL(12,2) NOT NULL, c_ytd_payment DECIMAL(12,2) NOT NULL,"
                    + " PRIMARY KEY (c_w_id, c_d_id, c_id))");
            statement.execute("CREATE TABLE item (i_id INT PRIMARY KEY, i_price DECIMAL(5,2) NOT NULL)");
            statement.execute("CREATE TABLE stock (s_w_id INT NOT NULL, s_i_id INT NOT NULL, s_quantity INT NOT NULL,"
                    + " s_order_cnt INT NOT NULL, PRIMARY KEY (s_w_id, s_i_id))");
            statement.execute("CREATE TABLE orders (o_w_id INT NOT NULL, o_d_id INT NOT NULL, o_id INT NOT NULL,"
                    + " o_c_id INT NOT NULL, o_ol_cnt INT NOT NULL, PRIMARY KEY (o_w_id, o_d_id, o_id))");
            statement.execute("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL,"
                    + " PRIMARY KEY (no_w_id, no_d_id, no_o_id))");
            statement.execute("CREATE TABLE order_line (ol_w_id INT NOT NULL, ol_d_id INT NOT NULL, ol_o_id INT NOT NULL,"
                    + " ol_number INT NOT NULL, ol_i_id INT NOT NULL, ol_amount DECIMAL(8,2) NOT NULL,"
                    + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))");
            statement.executeUpdate("INSERT INTO warehouse VALUES (1, 30000.00)");
            for (int d = 1; d <= DISTRICTS; d++) {
                statement.executeUpdate("INSERT INTO district VALUES (1, " + d + ", 7500.00, 1)");
                StringBuilder customers = new StringBuilder("INSERT INTO customer VALUES ");
                for (int c = 1; c <= CUSTOMERS; c++) {
                    customers.append(c > 1 ? "," : "").append("(1,").append(d).append(',').append(c).append(",-10.00,10.00)");
                }
                statement.executeUpdate(customers.toString());
            }
            StringBuilder items = new StringBuilder("INSERT INTO item VALUES ");
            StringBuilder stock = new StringBuilder("INSERT INTO stock VALUES ");
            for (int i = 1; i <= ITEMS; i++) {
                items.append(i > 1 ? "," : "").append('(').append(i).append(',').append(1 + i % 20).append(".50)");
                stock.append(i > 1 ? "," : "").append("(1,").append(i).append(",100,0)");
            }
            statement.executeUpdate(items.toString());
            statement.executeUpdate(stock.toString());
        }
    }

    @AfterAll
    static void stop() {
        server.close();
        cluster.close();
    }

    static void newOrder(Connection connection) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int district = 1 + random.nextInt(DISTRICTS);
        int customer = 1 + random.nextInt(CUSTOMERS);
        int lines = 3 + random.nextInt(4);
        int orderId;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = ? FOR UPDATE")) {
            select.setInt(1, district);
            try (ResultSet result = select.executeQuery()) {
                result.next();
                orderId = result.getInt(1);
            }
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = ?")) {
            update.setInt(1, district);
            update.executeUpdate();
        }
        try (PreparedStatement order = connection.prepareStatement("INSERT INTO orders VALUES (1, ?, ?, ?, ?)");
                PreparedStatement newOrder = connection.prepareStatement("INSERT INTO new_order VALUES (1, ?, ?)")) {
            order.setInt(1, district);
            order.setInt(2, orderId);
            order.setInt(3, customer);
            order.setInt(4, lines);
            order.executeUpdate();
            newOrder.setInt(1, district);
            newOrder.setInt(2, orderId);
            newOrder.executeUpdate();
        }
        try (PreparedStatement price = connection.prepareStatement("SELECT i_price FROM item WHERE i_id = ?");
                PreparedStatement stock = connection.prepareStatement("UPDATE stock SET s_quantity = CASE WHEN"
                        + " s_quantity > 10 THEN s_quantity - ? ELSE s_quantity + 91 - ? END, s_order_cnt = s_order_cnt + 1"
                        + " WHERE s_w_id = 1 AND s_i_id = ?");
                PreparedStatement line = connection.prepareStatement(
                        "INSERT INTO order_line VALUES (1, ?, ?, ?, ?, ?)")) {
            for (int number = 1; number <= lines; number++) {
                int item = 1 + random.nextInt(ITEMS);
                int quantity = 1 + random.nextInt(10);
                BigDecimal unit;
                price.setInt(1, item);
                try (ResultSet result = price.executeQuery()) {
                    result.next();
                    unit = result.getBigDecimal(1);
                }
                stock.setInt(1, quantity);
                stock.setInt(2, quantity);
                stock.setInt(3, item);
                stock.executeUpdate();
                line.setInt(1, district);
                line.setInt(2, orderId);
                line.setInt(3, number);
                line.setInt(4, item);
                line.setBigDecimal(5, unit.multiply(BigDecimal.valueOf(quantity)));
                line.executeUpdate();
            }
        }
        connection.commit();
    }

    static void payment(Connection connection) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int district = 1 + random.nextInt(DISTRICTS);
        int customer = 1 + random.nextInt(CUSTOMERS);
        BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(500000), 2);
        try (PreparedStatement warehouse = connection.prepareStatement(
                "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = 1");
                PreparedStatement districtUpdate = connection.prepareStatement(
                        "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = 1 AND d_id = ?");
                PreparedStatement customerUpdate = connection.prepareStatement("UPDATE customer SET c_balance ="
                        + " c_balance - ?, c_ytd_payment = c_ytd_payment + ? WHERE c_w_id = 1 AND c_d_id = ? AND c_id = ?")) {
            warehouse.setBigDecimal(1, amount);
            warehouse.executeUpdate();
            districtUpdate.setBigDecimal(1, amount);
            districtUpdate.setInt(2, district);
            districtUpdate.executeUpdate();
            customerUpdate.setBigDecimal(1, amount);
            customerUpdate.setBigDecimal(2, amount);
            customerUpdate.setInt(3, district);
            customerUpdate.setInt(4, customer);
            customerUpdate.executeUpdate();
        }
        connection.commit();
    }

    @Test
    void boundedRunKeepsTheConsistencyConditions() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong committed = new AtomicLong();
        AtomicLong aborted = new AtomicLong();
        List<Thread> terminals = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            Thread terminal = new Thread(() -> {
                try (Connection connection = DriverManager.getConnection(url)) {
                    connection.setAutoCommit(false);
                    while (!stop.get()) {
                        try {
                            if (ThreadLocalRandom.current().nextBoolean()) {
                                newOrder(connection);
                            } else {
                                payment(connection);
                            }
                            committed.incrementAndGet();
                        } catch (SQLException e) {
                            connection.rollback();
                            if (e.getErrorCode() != 1213 && e.getErrorCode() != 1205 && e.getErrorCode() != 9007
                                    && e.getErrorCode() != 8002) {
                                throw e;
                            }
                            aborted.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            terminal.start();
            terminals.add(terminal);
        }
        Thread.sleep(Integer.getInteger("duet.tpcc.seconds", 15) * 1000L);
        stop.set(true);
        for (Thread terminal : terminals) {
            terminal.join();
        }
        assertThat(failure.get()).isNull();
        assertThat(committed.get()).isGreaterThan(10);
        System.out.printf("TPC-C-like run: %d committed, %d aborted (deadlock / lock wait / conflict)%n",
                committed.get(), aborted.get());

        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            // Condition 1: W_YTD = sum(D_YTD).
            BigDecimal warehouseYtd = single(statement, "SELECT w_ytd FROM warehouse WHERE w_id = 1");
            BigDecimal districtYtd = single(statement, "SELECT SUM(d_ytd) FROM district WHERE d_w_id = 1");
            assertThat(warehouseYtd).isEqualByComparingTo(districtYtd);
            Map<Integer, Integer> nextOrder = new HashMap<>();
            try (ResultSet result = statement.executeQuery("SELECT d_id, d_next_o_id FROM district ORDER BY d_id")) {
                while (result.next()) {
                    nextOrder.put(result.getInt(1), result.getInt(2));
                }
            }
            for (int d = 1; d <= DISTRICTS; d++) {
                long orders = single(statement, "SELECT COUNT(*) FROM orders WHERE o_d_id = " + d).longValue();
                if (orders == 0) {
                    assertThat(nextOrder.get(d)).isEqualTo(1);
                    continue;
                }
                // Condition 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID).
                assertThat(single(statement, "SELECT MAX(o_id) FROM orders WHERE o_d_id = " + d).intValue())
                        .isEqualTo(nextOrder.get(d) - 1);
                assertThat(single(statement, "SELECT MAX(no_o_id) FROM new_order WHERE no_d_id = " + d).intValue())
                        .isEqualTo(nextOrder.get(d) - 1);
                // Condition 3: the new orders are a contiguous run (no deliveries ran).
                long newOrders = single(statement, "SELECT COUNT(*) FROM new_order WHERE no_d_id = " + d).longValue();
                long span = single(statement, "SELECT MAX(no_o_id) - MIN(no_o_id) + 1 FROM new_order WHERE no_d_id = "
                        + d).longValue();
                assertThat(newOrders).isEqualTo(span).isEqualTo(orders);
                // Condition 4: sum(O_OL_CNT) = number of order lines.
                assertThat(single(statement, "SELECT SUM(o_ol_cnt) FROM orders WHERE o_d_id = " + d).longValue())
                        .isEqualTo(single(statement, "SELECT COUNT(*) FROM order_line WHERE ol_d_id = " + d).longValue());
            }
            // Payments move money between the warehouse and customers only: the totals still balance.
            BigDecimal customerYtd = single(statement, "SELECT SUM(c_ytd_payment) FROM customer");
            assertThat(warehouseYtd.subtract(new BigDecimal("30000.00")))
                    .isEqualByComparingTo(customerYtd.subtract(new BigDecimal("1200.00")));
        }
    }

    static BigDecimal single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            assertThat(result.next()).isTrue();
            return result.getBigDecimal(1);
        }
    }
}
