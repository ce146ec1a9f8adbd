package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.duetdb.testing.reference.ConnectionSource;

/**
 * Runs the consistency conditions on every warehouse after a run and reports each as passed, failed (with the
 * number of offending rows and the first few), or not checked because its query failed or timed out.
 */
public final class ConsistencyCheck {
    private static final int EXAMPLES = 3;

    /** How a condition came out. */
    public enum Status { PASSED, FAILED, ERROR, TIMEOUT }

    /** One condition's verdict over all warehouses. */
    public record Result(ConsistencyCondition condition, Status status, long violations, String detail,
            double seconds) {
        public Result {
            requireNonNull(condition, "condition is null");
            requireNonNull(status, "status is null");
        }
    }

    private final ConnectionSource source;
    private final TpccScale scale;
    private final Duration timeout;

    public ConsistencyCheck(ConnectionSource source, TpccScale scale, Duration timeout) {
        this.source = requireNonNull(source, "source is null");
        this.scale = requireNonNull(scale, "scale is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    public List<Result> run(PrintStream progress) throws SQLException {
        List<Result> results = new ArrayList<>();
        try (Connection connection = source.open()) {
            for (ConsistencyCondition condition : ConsistencyCondition.all(scale)) {
                Result result = check(connection, condition);
                progress.printf("check: %-8s %-7s %s%s (%.1f s)%n", condition.clause(), result.status(),
                        condition.description(), result.detail() == null ? "" : ": " + result.detail(),
                        result.seconds());
                results.add(result);
            }
        }
        return results;
    }

    private Result check(Connection connection, ConsistencyCondition condition) {
        long start = System.nanoTime();
        long violations = 0;
        List<String> examples = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(condition.sql())) {
            statement.setQueryTimeout(Math.toIntExact(Math.max(1, timeout.toSeconds())));
            for (int warehouse = 1; warehouse <= scale.warehouses(); warehouse++) {
                for (int parameter = 1; parameter <= condition.parameters(); parameter++) {
                    statement.setInt(parameter, warehouse);
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        violations++;
                        if (examples.size() < EXAMPLES) {
                            examples.add("w " + warehouse + ": " + row(rows));
                        }
                    }
                }
            }
        } catch (SQLTimeoutException e) {
            return new Result(condition, Status.TIMEOUT, violations, "no answer within " + timeout.toSeconds() + " s",
                    seconds(start));
        } catch (SQLException e) {
            return new Result(condition, Status.ERROR, violations, SqlErrors.key(e) + " " + e.getMessage(),
                    seconds(start));
        }
        return violations == 0 ? new Result(condition, Status.PASSED, 0, null, seconds(start))
                : new Result(condition, Status.FAILED, violations, violations + " rows break it, e.g. " + examples,
                        seconds(start));
    }

    private static String row(ResultSet rows) throws SQLException {
        ResultSetMetaData metaData = rows.getMetaData();
        List<String> values = new ArrayList<>();
        for (int column = 1; column <= metaData.getColumnCount(); column++) {
            values.add(metaData.getColumnLabel(column) + "=" + rows.getString(column));
        }
        return String.join(" ", values);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    /** The results that did not pass. */
    public static List<Result> notPassed(List<Result> results) {
        return results.stream().filter(result -> result.status() != Status.PASSED).toList();
    }
}
