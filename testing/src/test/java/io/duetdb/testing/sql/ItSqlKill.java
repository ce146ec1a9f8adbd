package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KILL QUERY and KILL CONNECTION through MySQL Connector/J: a sleeping statement, a long join and a statement
 * waiting for a row lock stop promptly with 1317 (SLEEP alone returns 1, as in MySQL) and their connections stay
 * usable; only the same user or SUPER may kill (1095).
 */
class ItSqlKill {
    /** Far below every statement's natural length: a kill that works ends it well within this. */
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(3);
    static ExecutorService background = Executors.newCachedThreadPool();

    @BeforeAll
    static void start() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE numbers (id INT PRIMARY KEY, v INT NOT NULL)");
            StringBuilder insert = new StringBuilder("INSERT INTO numbers VALUES ");
            for (int i = 1; i <= 400; i++) {
                insert.append(i > 1 ? ", " : "").append("(").append(i).append(", ").append(i).append(")");
            }
            statement.executeUpdate(insert.toString());
        }
    }

    @AfterAll
    static void stop() {
        background.shutdownNow();
    }

    static Connection connect() throws SQLException {
        return connect("root", "");
    }

    static Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + sqlCluster.server().address() + "/test?useSSL=false", user, password);
    }

    static long connectionId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return Long.parseLong(SqlTesting.rows(statement, "SELECT CONNECTION_ID()").get(0));
        }
    }

    /** Waits until the connection's row in SHOW PROCESSLIST (statement, state) contains {@code text}. */
    static void awaitRunning(Statement observer, long id, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (String row : SqlTesting.rows(observer, "SHOW PROCESSLIST")) {
                if (row.startsWith(id + "|") && row.contains("|Query|") && row.contains(text)) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("connection " + id + " never ran " + text);
    }

    /** The statement's outcome: its first row, or "error <code>" when it failed. */
    static Future<String> runInBackground(Connection connection, String sql) {
        return background.submit(() -> {
            try (Statement statement = connection.createStatement()) {
                List<String> rows = SqlTesting.rows(statement, sql);
                return rows.isEmpty() ? "no rows" : rows.get(0);
            } catch (SQLException e) {
                return "error " + e.getErrorCode() + " " + e.getSQLState();
            }
        });
    }

    static String outcomeWithin(Future<String> outcome, Duration limit) throws Exception {
        try {
            return outcome.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    @Test
    void killQueryEndsSleepAsMySqlDoes() throws Exception {
        try (Connection sleeper = connect(); Connection killer = connect();
                Statement observer = killer.createStatement()) {
            long id = connectionId(sleeper);
            // SLEEP alone: cut short, it returns 1 and the statement succeeds.
            Future<String> alone = runInBackground(sleeper, "SELECT SLEEP(60)");
            awaitRunning(observer, id, "User sleep");
            long started = System.nanoTime();
            observer.execute("KILL QUERY " + id);
            assertThat(outcomeWithin(alone, PROMPTLY)).isEqualTo("1");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY);

            // SLEEP as part of a statement over rows: the statement fails with 1317.
            Future<String> partOf = runInBackground(sleeper, "SELECT id, SLEEP(60) FROM numbers WHERE id <= 3");
            awaitRunning(observer, id, "User sleep");
            observer.execute("KILL QUERY " + id);
            assertThat(outcomeWithin(partOf, PROMPTLY)).isEqualTo("error 1317 70100");

            // The connection goes on.
            try (Statement statement = sleeper.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT SLEEP(0), COUNT(*) FROM numbers")).containsExactly("0|400");
            }
        }
    }

    @Test
    void killQueryStopsALongJoin() throws Exception {
        try (Connection worker = connect(); Connection killer = connect(); Statement observer = killer.createStatement()) {
            long id = connectionId(worker);
            // 160,000 x 400 join conditions to evaluate: far longer than it takes to kill it.
            Future<String> join = runInBackground(worker, "SELECT COUNT(*) FROM numbers a JOIN numbers b ON a.v >= 0"
                    + " JOIN numbers c ON a.v + b.v + c.v < 0");
            awaitRunning(observer, id, "JOIN numbers c");
            long started = System.nanoTime();
            observer.execute("KILL QUERY " + id);
            assertThat(outcomeWithin(join, PROMPTLY)).isEqualTo("error 1317 70100");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY);
            try (Statement statement = worker.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT v FROM numbers WHERE id = 7")).containsExactly("7");
            }
        }
    }

    @Test
    void killQueryWakesAStatementWaitingForARowLock() throws Exception {
        try (Connection holder = connect(); Connection waiter = connect(); Connection killer = connect();
                Statement holding = holder.createStatement(); Statement observer = killer.createStatement()) {
            holder.setAutoCommit(false);
            waiter.setAutoCommit(false);
            assertThat(SqlTesting.rows(holding, "SELECT v FROM numbers WHERE id = 100 FOR UPDATE"))
                    .containsExactly("100");
            long id = connectionId(waiter);
            Future<String> blocked = runInBackground(waiter, "SELECT v FROM numbers WHERE id = 100 FOR UPDATE");
            awaitRunning(observer, id, "FOR UPDATE");
            Thread.sleep(200);
            assertThat(blocked).isNotDone();
            long started = System.nanoTime();
            observer.execute("KILL QUERY " + id);
            assertThat(outcomeWithin(blocked, PROMPTLY)).isEqualTo("error 1317 70100");
            // Far below innodb_lock_wait_timeout (50 s): the kill, not a timeout, ended the wait.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY);

            // The waiter's transaction and connection go on; the holder's lock is untouched.
            try (Statement statement = waiter.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT v FROM numbers WHERE id = 101 FOR UPDATE"))
                        .containsExactly("101");
                waiter.rollback();
            }
            holding.executeUpdate("UPDATE numbers SET v = 1000 WHERE id = 100");
            holder.commit();
            try (Statement statement = waiter.createStatement()) {
                waiter.setAutoCommit(true);
                assertThat(SqlTesting.rows(statement, "SELECT v FROM numbers WHERE id = 100")).containsExactly("1000");
            }
            holding.executeUpdate("UPDATE numbers SET v = 100 WHERE id = 100");
            holder.commit();
        }
    }

    @Test
    void onlyTheSameUserOrSuperMayKill() throws Exception {
        try (Connection admin = connect(); Statement statement = admin.createStatement()) {
            statement.execute("CREATE USER 'worker'@'%' IDENTIFIED BY 'w'");
            statement.execute("GRANT SELECT ON test.* TO 'worker'@'%'");
            statement.execute("CREATE USER 'boss'@'%' IDENTIFIED BY 'b'");
            statement.execute("GRANT SUPER, PROCESS ON *.* TO 'boss'@'%'");
            assertThat(ItSqlBasics.errorOf(() -> statement.execute("KILL QUERY 999999"))).isEqualTo(1094);

            try (Connection worker = connect("worker", "w"); Connection sameUser = connect("worker", "w");
                    Connection boss = connect("boss", "b"); Statement workerStatement = worker.createStatement();
                    Statement sameUserStatement = sameUser.createStatement();
                    Statement bossStatement = boss.createStatement()) {
                long rootId = connectionId(admin);
                long workerId = connectionId(worker);
                assertThat(ItSqlBasics.errorOf(() -> workerStatement.execute("KILL QUERY " + rootId))).isEqualTo(1095);
                assertThat(ItSqlBasics.errorOf(() -> workerStatement.execute("KILL " + rootId))).isEqualTo(1095);
                // Without PROCESS a user sees only its own connections.
                assertThat(SqlTesting.rows(workerStatement, "SHOW PROCESSLIST"))
                        .allSatisfy(row -> assertThat(row).contains("|worker|"));
                assertThat(SqlTesting.rows(bossStatement, "SHOW PROCESSLIST")).anySatisfy(
                        row -> assertThat(row).startsWith(rootId + "|root|"));

                Future<String> sleeping = runInBackground(worker, "SELECT SLEEP(60)");
                awaitRunning(sameUserStatement, workerId, "User sleep");
                sameUserStatement.execute("KILL QUERY " + workerId);
                assertThat(outcomeWithin(sleeping, PROMPTLY)).isEqualTo("1");

                // KILL CONNECTION by SUPER: the statement stops and the connection closes.
                Future<String> killed = runInBackground(worker, "SELECT SLEEP(60)");
                awaitRunning(bossStatement, workerId, "User sleep");
                bossStatement.execute("KILL CONNECTION " + workerId);
                assertThat(outcomeWithin(killed, PROMPTLY)).startsWith("error");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (SqlTesting.rows(bossStatement, "SHOW PROCESSLIST").stream()
                        .anyMatch(row -> row.startsWith(workerId + "|")) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(SqlTesting.rows(bossStatement, "SHOW PROCESSLIST"))
                        .noneMatch(row -> row.startsWith(workerId + "|"));
                assertThat(worker.isValid(2)).isFalse();
            }
        }
    }
}
