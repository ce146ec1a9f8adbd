package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.tpcc.ConsistencyCheck;
import io.duetdb.testing.tpcc.TpccDriver;
import io.duetdb.testing.tpcc.TpccLoader;
import io.duetdb.testing.tpcc.TpccRunResult;
import io.duetdb.testing.tpcc.TpccScale;
import io.duetdb.testing.tpcc.TransactionType;

/**
 * A bounded TPC-C run through Connector/J with server-side prepared statements (io.duetdb.testing.tpcc, the driver
 * of {@code benchmarks/bench tpcc}): two warehouses of a REDUCED population (5,000 items and 300 customers per
 * district instead of 100,000 and 3,000, so that the load takes seconds rather than minutes here), 16 terminals
 * running the five-transaction mix for {@link #MEASURED} after a short warm-up. Every consistency condition
 * (3.3.2.1 to 3.3.2.12) must hold afterwards, some New-Orders must have committed, and few transactions may fail
 * beyond the intended rollbacks. Then each condition must catch a database that breaks it.
 */
class ItTpcc {
    static final TpccScale SCALE = new TpccScale(2, 5_000, 300);
    static final int CONNECTIONS = 16;
    static final Duration WARMUP = Duration.ofSeconds(5);
    static final Duration MEASURED = Duration.ofSeconds(25);
    /** Committed New-Orders the measured interval must reach (far below what the build does, far above zero). */
    static final long MIN_NEW_ORDERS = 20;
    /** The fraction of transactions that may fail beyond the intended rollbacks (retried conflicts excluded). */
    static final double MAX_FAILED_FRACTION = 0.05;

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    static ConnectionSource source;

    @BeforeAll
    static void start() throws SQLException {
        String url = sqlCluster.url() + "&useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=500"
                + "&prepStmtCacheSqlLimit=4096";
        source = () -> DriverManager.getConnection(url);
    }

    @Test
    void boundedRunKeepsEveryConsistencyCondition() throws Exception {
        new TpccLoader(source, SCALE, 4, 500, System.out).load();
        TpccRunResult result = new TpccDriver(source, SCALE, CONNECTIONS, System.out, 1).run(WARMUP, MEASURED);
        result.print(System.out, "duetdb");

        List<ConsistencyCheck.Result> checks = check();
        assertThat(ConsistencyCheck.notPassed(checks)).as("consistency conditions that did not pass").isEmpty();
        assertThat(result.of(TransactionType.NEW_ORDER).committed()).as("committed New-Orders")
                .isGreaterThanOrEqualTo(MIN_NEW_ORDERS);
        assertThat(result.of(TransactionType.PAYMENT).committed()).as("committed Payments").isPositive();
        assertThat(result.failedFraction()).as("failed beyond the intended rollbacks: %s", result.errors())
                .isLessThan(MAX_FAILED_FRACTION);

        breakEveryCondition();
        Map<String, ConsistencyCheck.Status> broken = check().stream().collect(Collectors.toMap(
                check -> check.condition().clause(), ConsistencyCheck.Result::status));
        assertThat(broken).as("every condition catches a database that breaks it")
                .allSatisfy((clause, status) -> assertThat(status).as(clause).isEqualTo(ConsistencyCheck.Status.FAILED));
    }

    private static List<ConsistencyCheck.Result> check() throws SQLException {
        return new ConsistencyCheck(source, SCALE, Duration.ofSeconds(120)).run(System.out);
    }

    /**
     * Changes the database so that each condition has rows that break it. The new order removed and the order
     * that loses a line are undelivered ones of the moment, whatever the run delivered.
     */
    private static void breakEveryCondition() throws SQLException {
        try (Connection connection = source.open(); Statement statement = connection.createStatement()) {
            // 3.3.2.1 and 3.3.2.8
            statement.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1");
            // 3.3.2.2
            statement.executeUpdate("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 1");
            // 3.3.2.3, 3.3.2.5 and 3.3.2.11: the next-to-newest of district 2's new orders
            long newest = single(statement, "SELECT MAX(no_o_id) FROM new_order WHERE no_w_id = 2 AND no_d_id = 2");
            assertThat(statement.executeUpdate("DELETE FROM new_order WHERE no_w_id = 2 AND no_d_id = 2 AND no_o_id = "
                    + (newest - 1))).isOne();
            // 3.3.2.4 and 3.3.2.6: a line of district 3's newest undelivered order
            newest = single(statement, "SELECT MAX(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 3");
            assertThat(statement.executeUpdate("DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = "
                    + newest + " AND ol_number = 1")).isOne();
            // 3.3.2.7: a line of a delivered order without its delivery date
            assertThat(statement.executeUpdate("UPDATE order_line SET ol_delivery_d = NULL WHERE ol_w_id = 1"
                    + " AND ol_d_id = 4 AND ol_o_id = 1 AND ol_number = 1")).isOne();
            // 3.3.2.9
            statement.executeUpdate("UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 2 AND d_id = 5");
            // 3.3.2.10 and 3.3.2.12
            statement.executeUpdate("UPDATE customer SET c_balance = c_balance + 1 WHERE c_w_id = 1 AND c_d_id = 6"
                    + " AND c_id = 1");
        }
    }

    private static long single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            assertThat(result.next()).isTrue();
            return result.getLong(1);
        }
    }
}
