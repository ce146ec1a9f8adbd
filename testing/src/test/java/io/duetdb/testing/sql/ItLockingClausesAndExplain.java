package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MySQL 8.0's locking clauses (FOR UPDATE, FOR SHARE, OF, NOWAIT, SKIP LOCKED, LOCK IN SHARE MODE) through
 * Connector/J, and EXPLAIN / EXPLAIN ANALYZE of any query that runs, locking ones included: their plan is the
 * query's own with TiDB's SelectLock line above where the rows are read.
 */
class ItLockingClausesAndExplain {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    /** Queries of every shape; each runs, and EXPLAIN and EXPLAIN ANALYZE accept it. */
    private static final List<String> QUERIES = List.of(
            "SELECT * FROM orders",
            "SELECT id, amount FROM orders WHERE id = 3",
            "SELECT id FROM orders WHERE customer IN (1, 2) AND amount > 10 ORDER BY id DESC LIMIT 2",
            "SELECT customer, COUNT(*), SUM(amount) FROM orders GROUP BY customer HAVING COUNT(*) > 1",
            "SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer = c.id WHERE c.name <> 'z'",
            "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer = c.id WHERE o.id IS NULL",
            "SELECT id FROM orders WHERE customer IN (SELECT id FROM customers WHERE name LIKE 'a%')",
            "SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id)",
            "SELECT t.customer, t.total FROM (SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer) t"
                    + " WHERE t.total > 5",
            "WITH big AS (SELECT * FROM orders WHERE amount > 20) SELECT COUNT(*) FROM big",
            "SELECT id FROM orders UNION SELECT id FROM customers",
            "SELECT id, RANK() OVER (ORDER BY amount DESC) FROM orders",
            "SELECT 1 + 1",
            "SELECT 1 FROM DUAL");

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20))");
            statement.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer INT, amount DECIMAL(10,2),"
                    + " KEY by_customer (customer))");
            statement.execute("INSERT INTO customers VALUES (1, 'ann'), (2, 'bob'), (3, 'al')");
            statement.execute("INSERT INTO orders VALUES (1, 1, 10.00), (2, 1, 25.50), (3, 2, 7.25), (4, 2, 30.00)");
        }
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(sqlCluster.url());
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        return SqlTesting.rows(statement, sql);
    }

    @Test
    void everyLockingClauseOfMySql80RunsAsALockingRead() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String clause : List.of("FOR UPDATE", "FOR SHARE", "LOCK IN SHARE MODE", "FOR UPDATE NOWAIT",
                    "FOR UPDATE SKIP LOCKED", "FOR SHARE NOWAIT", "FOR SHARE SKIP LOCKED", "FOR UPDATE OF orders",
                    "FOR SHARE OF orders NOWAIT")) {
                // Without a WHERE clause the locking clause follows the table name directly.
                assertThat(rows(statement, "SELECT id FROM orders " + clause)).as(clause).containsExactly("1", "2", "3", "4");
                assertThat(rows(statement, "SELECT amount FROM orders WHERE id = 2 " + clause)).as(clause)
                        .containsExactly("25.50");
            }
            assertThat(rows(statement, "SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer = c.id"
                    + " WHERE o.id < 3 ORDER BY o.id FOR UPDATE OF o, c SKIP LOCKED")).containsExactly("1|ann", "2|ann");
            connection.setAutoCommit(false);
            assertThat(rows(statement, "SELECT id FROM orders WHERE customer = 2 ORDER BY id FOR UPDATE NOWAIT"))
                    .containsExactly("3", "4");
            statement.execute("UPDATE orders SET amount = amount + 1 WHERE customer = 2");
            connection.rollback();
            try (PreparedStatement prepared = connection.prepareStatement(
                    "SELECT amount FROM orders WHERE id = ? FOR SHARE SKIP LOCKED")) {
                prepared.setInt(1, 3);
                try (ResultSet result = prepared.executeQuery()) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getString(1)).isEqualTo("7.25");
                }
            }
            connection.commit();
        }
    }

    @Test
    void lockingClausesOutOfPlaceAreSyntaxErrors() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : List.of("SELECT id FROM orders FOR UPDATE WAIT", "SELECT id FROM orders FOR SKIP LOCKED",
                    "SELECT id FROM orders FOR UPDATE OF", "SELECT id FROM orders LOCK IN SHARE")) {
                assertThatThrownBy(() -> statement.executeQuery(sql)).as(sql).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1064));
            }
        }
    }

    @Test
    void explainAndExplainAnalyzeAcceptEveryQueryThatRuns() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String query : QUERIES) {
                rows(statement, query);
                assertThat(explain(statement, "EXPLAIN " + query)).as(query).isNotEmpty();
                assertThat(explain(statement, "DESCRIBE " + query)).as(query).isEqualTo(explain(statement, "EXPLAIN " + query));
                assertThat(explain(statement, "EXPLAIN FORMAT = 'brief' " + query)).as(query)
                        .isEqualTo(explain(statement, "EXPLAIN " + query));
                try (ResultSet result = statement.executeQuery("EXPLAIN ANALYZE " + query)) {
                    assertThat(result.getMetaData().getColumnLabel(3)).isEqualTo("actRows");
                    assertThat(result.next()).as(query).isTrue();
                }
            }
        }
    }

    @Test
    void explainShowsThePlanThatExplainAnalyzeRan() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // Lookup joins choose at run time whether lookups serve: without them, every decision is made up front.
            statement.execute("SET duet_index_join_max_outer_rows = 0");
            List<String> queries = new ArrayList<>(QUERIES);
            queries.add("SELECT id, amount FROM orders WHERE id = 3 FOR UPDATE");
            queries.add("SELECT id FROM orders WHERE amount > 8 ORDER BY id LIMIT 2 FOR SHARE");
            for (String query : queries) {
                List<String> planned = operators(statement, "EXPLAIN " + query, 1, 3, 4);
                List<String> ran = operators(statement, "EXPLAIN ANALYZE " + query, 1, 4, 5);
                assertThat(ran).as(query).isEqualTo(planned);
            }
            statement.execute("SET duet_index_join_max_outer_rows = DEFAULT");
        }
    }

    /** The tree of operators: each line's id, task and access object (the given columns). */
    private static List<String> operators(Statement statement, String sql, int id, int task, int access)
            throws SQLException {
        List<String> lines = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                lines.add(result.getString(id) + "|" + result.getString(task) + "|" + result.getString(access));
            }
        }
        return lines;
    }

    @Test
    void aLockingQuerysPlanIsItsOwnWithSelectLockAboveTheReader() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String clause : List.of("FOR UPDATE", "FOR SHARE", "LOCK IN SHARE MODE", "FOR UPDATE NOWAIT",
                    "FOR UPDATE SKIP LOCKED", "FOR SHARE OF o NOWAIT")) {
                for (String query : List.of("SELECT id, amount FROM orders o WHERE id = 3",
                        "SELECT id FROM orders o WHERE amount > 8 ORDER BY id LIMIT 2",
                        "SELECT customer, COUNT(*) FROM orders o GROUP BY customer",
                        "SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer = c.id")) {
                    List<String> plain = explain(statement, "EXPLAIN " + query);
                    List<String> locking = explain(statement, "EXPLAIN " + query + " " + clause);
                    String expected = clause.toLowerCase().replace("lock in share mode", "for share");
                    int lock = indexOf(locking, "SelectLock");
                    assertThat(lock).as(query + " " + clause).isGreaterThanOrEqualTo(0);
                    assertThat(locking.get(lock)).endsWith("|root||" + expected);
                    // The same root operator; below SelectLock, what runs: the SQL layer reads and locks the rows
                    // itself, so nothing of a locking read goes to the coprocessors.
                    if (lock > 0) {
                        assertThat(operatorName(locking.get(0))).isEqualTo(operatorName(plain.get(0)));
                    }
                    assertThat(locking).as(query + " " + clause).noneMatch(line -> line.contains("|cop["));
                    assertThat(locking.subList(lock + 1, locking.size()))
                            .anyMatch(line -> line.contains("TableReader") || line.contains("Point_Get")
                                    || line.contains("Join"));
                    assertThat(locking.subList(0, lock)).noneMatch(line -> line.contains("TableReader")
                            || line.contains("Point_Get"));
                }
            }
            List<String[]> analyzed = new ArrayList<>();
            try (ResultSet result = statement.executeQuery(
                    "EXPLAIN ANALYZE SELECT id FROM orders WHERE customer = 1 FOR UPDATE")) {
                while (result.next()) {
                    analyzed.add(new String[] {result.getString(1), result.getString(3), result.getString(7)});
                }
            }
            assertThat(analyzed).anyMatch(line -> line[0].contains("SelectLock") && line[2].equals("for update"))
                    .anyMatch(line -> !line[0].contains("SelectLock") && line[1].equals("2"));
            try (PreparedStatement prepared = connection.prepareStatement(
                    "EXPLAIN SELECT amount FROM orders WHERE id = ? FOR UPDATE")) {
                prepared.setInt(1, 2);
                List<String> lines = new ArrayList<>();
                try (ResultSet result = prepared.executeQuery()) {
                    while (result.next()) {
                        lines.add(result.getString(1));
                    }
                }
                assertThat(lines).anyMatch(line -> line.contains("SelectLock"));
            }
        }
    }

    private static int indexOf(List<String> lines, String operator) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(operator)) {
                return i;
            }
        }
        return -1;
    }

    /** An EXPLAIN line without its tree drawing. */
    private static String operatorName(String line) {
        return operator(line).split("\\|")[0];
    }

    private static String operator(String line) {
        return line.replaceFirst("^[│├└─ ]*", "");
    }

    /** EXPLAIN's lines as "id|task|access object|operator info". */
    private static List<String> explain(Statement statement, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                lines.add(result.getString(1) + "|" + result.getString(3) + "|" + result.getString(4) + "|"
                        + result.getString(5));
            }
        }
        return lines;
    }
}
