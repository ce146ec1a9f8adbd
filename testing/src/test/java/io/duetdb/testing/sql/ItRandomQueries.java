package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A random query generator with the metamorphic oracles SQLancer made known, over the types and functions MySQL
 * applications use. For each random condition p over a table:
 * <ul>
 * <li>ternary logic partitioning: the rows WHERE p, WHERE NOT p and WHERE p IS NULL are, together, all the rows;
 * and MAX over the three partitions is MAX over the table;</li>
 * <li>NoREC: the rows WHERE p (which the optimizer may read through an index or filter in the stores) are the rows
 * whose p, computed as a select item, IS TRUE;</li>
 * <li>the same rows in a twin table without secondary indexes answer WHERE p alike;</li>
 * <li>the groups of WHERE p count its rows, and COUNT(DISTINCT a, b) counts the distinct non-NULL pairs;</li>
 * <li>where MariaDB is installed (bin/setup-test-tools mariadb), a private MariaDB with the same rows answers WHERE p
 * alike, when both answer (MySQL's own type rules, which MariaDB shares for these expressions).</li>
 * </ul>
 * The seed and the number of queries come from {@code -Dduet.random.seed} and {@code -Dduet.random.queries}; CI
 * runs a fixed seed for a bounded count, a longer run takes other seeds. A mismatch names its seed and query; each
 * one found becomes a regression test.
 */
class ItRandomQueries {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    @RegisterExtension
    static final MariaDbAnswers mariaDbAnswers = new MariaDbAnswers(sqlCluster);

    /** Errors a valid query may raise for some rows (an overflow, a value out of a type's range). */
    private static final Set<Integer> EXPECTED_ERRORS = Set.of(1690, 1292, 1264, 3064);
    private static final List<RandomExpressions.Column> COLUMNS = List.of(
            new RandomExpressions.Column("n0", RandomExpressions.Column.Kind.NUMBER),
            new RandomExpressions.Column("n1", RandomExpressions.Column.Kind.NUMBER),
            new RandomExpressions.Column("n2", RandomExpressions.Column.Kind.NUMBER),
            new RandomExpressions.Column("s0", RandomExpressions.Column.Kind.TEXT),
            new RandomExpressions.Column("s1", RandomExpressions.Column.Kind.TEXT),
            new RandomExpressions.Column("d0", RandomExpressions.Column.Kind.DATE));

    @Test
    void conditionsPartitionRowsAndAgreeWithTheirOwnValues() throws SQLException {
        long seed = Long.getLong("duet.random.seed", 20261128L);
        int queries = Integer.getInteger("duet.random.queries", 150);
        Random random = new Random(seed);
        PrivateMariaDbServer mariaDb = mariaDbAnswers.server();
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement();
                Connection reference = mariaDb == null ? null : DriverManager.getConnection(mariaDb.url());
                Statement referenceStatement = reference == null ? null : reference.createStatement()) {
            if (referenceStatement != null) {
                // DuetDB's literals are utf8mb4_bin, as TiDB's are (MySQL's and MariaDB's compare case-insensitively).
                referenceStatement.execute("SET NAMES utf8mb4 COLLATE utf8mb4_bin");
            }
            for (String sql : tables(random)) {
                statement.execute(sql);
                if (referenceStatement != null) {
                    referenceStatement.execute(sql.startsWith("CREATE TABLE") ? sql + " COLLATE utf8mb4_bin" : sql);
                }
            }
            statement.execute("ANALYZE TABLE t0");
            RandomExpressions expressions = new RandomExpressions(random, COLUMNS);
            List<String> mismatches = new ArrayList<>();
            int checked = 0;
            for (int i = 0; i < queries && mismatches.size() < 5; i++) {
                String condition = expressions.condition(1 + random.nextInt(3));
                try {
                    String mismatch = check(statement, condition);
                    if (mismatch == null && referenceStatement != null) {
                        mismatch = compareWithReference(statement, referenceStatement, condition);
                    }
                    if (mismatch != null) {
                        mismatches.add("seed " + seed + ", query " + i + ": " + mismatch);
                    }
                    checked++;
                } catch (SQLException e) {
                    if (!EXPECTED_ERRORS.contains(e.getErrorCode())) {
                        mismatches.add("seed " + seed + ", query " + i + ": WHERE " + condition + " failed with "
                                + e.getErrorCode() + ": " + e.getMessage());
                    }
                }
            }
            assertThat(mismatches).as("mismatches").isEmpty();
            assertThat(checked).as("conditions checked").isGreaterThan(queries / 2);
        }
    }

    /** The first oracle a condition fails, or null when it passes them all. */
    private static String check(Statement statement, String condition) throws SQLException {
        List<String> all = ids(statement, "SELECT id FROM t0");
        List<String> partitions = new ArrayList<>();
        partitions.addAll(ids(statement, "SELECT id FROM t0 WHERE " + condition));
        partitions.addAll(ids(statement, "SELECT id FROM t0 WHERE NOT " + condition));
        partitions.addAll(ids(statement, "SELECT id FROM t0 WHERE (" + condition + ") IS NULL"));
        Collections.sort(partitions);
        if (!partitions.equals(all)) {
            return "WHERE p, NOT p and p IS NULL give " + partitions + ", the table " + all + "; p = " + condition;
        }
        List<String> where = ids(statement, "SELECT id FROM t0 WHERE " + condition);
        List<String> computed = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT id, (" + condition + ") IS TRUE FROM t0")) {
            while (result.next()) {
                if (result.getLong(2) == 1) {
                    computed.add(result.getString(1));
                }
            }
        }
        Collections.sort(computed);
        if (!where.equals(computed)) {
            return "WHERE p gives " + where + ", p IS TRUE as a select item " + computed + "; p = " + condition;
        }
        List<String> twin = ids(statement, "SELECT id FROM t1 WHERE " + condition);
        if (!where.equals(twin)) {
            return "WHERE p gives " + where + " with indexes, " + twin + " without; p = " + condition;
        }
        String grouped = single(statement, "SELECT SUM(c) FROM (SELECT s0, COUNT(*) AS c FROM t0 WHERE " + condition
                + " GROUP BY s0) g");
        if (!String.valueOf(where.size()).equals(grouped == null ? "0" : grouped)) {
            return "WHERE p has " + where.size() + " rows, its groups by s0 count " + grouped + "; p = " + condition;
        }
        String distinct = single(statement, "SELECT COUNT(DISTINCT n0, s0) FROM t0 WHERE " + condition);
        String distinctRows = single(statement, "SELECT COUNT(*) FROM (SELECT DISTINCT n0, s0 FROM t0 WHERE "
                + condition + " AND n0 IS NOT NULL AND s0 IS NOT NULL) d");
        if (!String.valueOf(distinct).equals(String.valueOf(distinctRows))) {
            return "COUNT(DISTINCT n0, s0) is " + distinct + ", the distinct rows " + distinctRows + "; p = " + condition;
        }
        String maximum = single(statement, "SELECT MAX(n0) FROM t0");
        List<String> partMaxima = new ArrayList<>();
        for (String part : List.of(condition, "NOT " + condition, "(" + condition + ") IS NULL")) {
            String value = single(statement, "SELECT MAX(n0) FROM t0 WHERE " + part);
            if (value != null) {
                partMaxima.add(value);
            }
        }
        String partitionMaximum = partMaxima.stream().map(Long::parseLong).max(Long::compare).map(String::valueOf)
                .orElse(null);
        if (!String.valueOf(maximum).equals(String.valueOf(partitionMaximum))) {
            return "MAX(n0) is " + maximum + ", over the partitions " + partitionMaximum + "; p = " + condition;
        }
        return null;
    }

    /**
     * MariaDB's rows of WHERE p against DuetDB's, or null when they agree or MariaDB refuses the query. Conditions
     * with MOD are left out: MariaDB's (and MySQL's) decimal MOD gives a negative zero that compares unequal to 0
     * ({@code MOD(-15.44, -15.44) = 0} is 0 there), which DuetDB's decimals do not have.
     */
    private static String compareWithReference(Statement statement, Statement reference, String condition)
            throws SQLException {
        if (condition.contains("MOD(")) {
            return null;
        }
        String query = "SELECT id FROM t0 WHERE " + condition;
        List<String> expected;
        try {
            // MariaDB's twin table without secondary indexes: its range optimizer has bugs of its own (with KEY (n1,
            // s1), 2023 NOT BETWEEN n1 AND n0 finds no rows in MariaDB 10.11).
            expected = ids(reference, "SELECT id FROM t1 WHERE " + condition);
        } catch (SQLException e) {
            return null;
        }
        List<String> actual = ids(statement, query);
        if (actual.equals(expected)) {
            return null;
        }
        List<String> differing = new ArrayList<>(actual);
        differing.removeAll(expected);
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        differing.addAll(missing);
        return "WHERE p gives " + actual + ", on MariaDB " + expected + "; p = " + condition + "; the rows that differ: "
                + SqlTesting.rows(statement, "SELECT * FROM t0 WHERE id IN (" + String.join(", ", differing) + ")");
    }

    /** The tables t0 (with secondary indexes) and t1 (without), holding the same random rows. */
    private static List<String> tables(Random random) {
        String columns = "(id INT PRIMARY KEY, n0 INT, n1 DECIMAL(10,2), n2 BIGINT, s0 VARCHAR(10), s1 VARCHAR(10),"
                + " d0 DATE";
        List<String> statements = new ArrayList<>();
        statements.add("CREATE TABLE t0 " + columns + ", KEY (n0), KEY (s0), KEY (d0), KEY (n1, s1))");
        statements.add("CREATE TABLE t1 " + columns + ")");
        StringBuilder rows = new StringBuilder();
        String[] words = {"a", "B", "ab", "abc", "x", "10", "-3", "2.5", " a", "zz", ""};
        for (int id = 1; id <= 40; id++) {
            rows.append(id == 1 ? "" : ", ").append('(').append(id).append(", ")
                    .append(maybeNull(random, String.valueOf(random.nextInt(21) - 10))).append(", ")
                    .append(maybeNull(random, (random.nextInt(200) - 100) + "." + random.nextInt(100))).append(", ")
                    .append(maybeNull(random, String.valueOf(random.nextInt(2000) - 1000))).append(", ")
                    .append(maybeNull(random, "'" + words[random.nextInt(words.length)] + "'")).append(", ")
                    .append(maybeNull(random, "'" + words[random.nextInt(words.length)] + "'")).append(", ")
                    .append(maybeNull(random, "'2024-0" + (1 + random.nextInt(6)) + "-" + (10 + random.nextInt(18))
                            + "'"))
                    .append(')');
        }
        statements.add("INSERT INTO t0 VALUES " + rows);
        statements.add("INSERT INTO t1 SELECT * FROM t0");
        return statements;
    }

    private static String maybeNull(Random random, String value) {
        return random.nextInt(6) == 0 ? "NULL" : value;
    }

    private static List<String> ids(Statement statement, String sql) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                ids.add(result.getString(1));
            }
        }
        Collections.sort(ids);
        return ids;
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            return result.next() ? result.getString(1) : null;
        }
    }
}
