package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MySQL drivers and tools other than Connector/J against a SQL server, each as its users run it: PyMySQL and
 * MySQL Connector/Python (pure Python and C extension) scripts, a small SQLAlchemy ORM application (declarative models,
 * reflection, sessions, joins, cascading deletes), a Go program on database/sql with
 * github.com/go-sql-driver/mysql, and sysbench's oltp_read_write. The scripts (test resources under
 * {@code clients/}) check types, errors, transactions, prepared statements, TLS and both authentication plugins
 * themselves and end with "ALL CHECKS PASSED"; a test fails on any other ending, a non-zero exit or a timeout.
 * Missing programs are installed by bin/setup-test-tools (Debian packages; Connector/Python from PyPI); a test
 * fails, never skips, when that cannot install them.
 */
class ItClientDrivers {
    private static final Path PROJECT_ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path OUTPUT = Path.of("target", "client-drivers").toAbsolutePath();
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final String PASSED = "ALL CHECKS PASSED";

    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @BeforeAll
    static void start() throws IOException {
        Files.createDirectories(OUTPUT);
    }

    @Test
    void pyMySql() throws Exception {
        requireTools("pymysql");
        Result result = run("pymysql", List.of("/usr/bin/python3", resource("pymysql_check.py").toString(), host(),
                port()), Map.of());
        assertThat(result.output()).as("PyMySQL script output (also in %s)", result.log())
                .contains("full authentication over TLS", "fast authentication over TLS", PASSED);
        assertThat(result.exitCode()).as("exit status; output:%n%s", result.output()).isZero();
    }

    @Test
    void sqlAlchemyOrmApplication() throws Exception {
        requireTools("sqlalchemy");
        Result result = run("sqlalchemy", List.of("/usr/bin/python3", resource("sqlalchemy_check.py").toString(),
                host(), port()), Map.of());
        assertThat(result.output()).as("SQLAlchemy script output (also in %s)", result.log())
                .contains("reflect the schema", "query with joins, aggregates and pagination", "delete with cascade",
                        PASSED);
        assertThat(result.exitCode()).as("exit status; output:%n%s", result.output()).isZero();
    }

    @Test
    void mysqlConnectorPython() throws Exception {
        requireTools("connector");
        double executions = SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"stmt_execute\"");
        Result result = run("mysql-connector-python", List.of(connectorPython().toString(),
                resource("mysql_connector_check.py").toString(), host(), port()), Map.of());
        assertThat(result.output()).as("Connector/Python script output (also in %s)", result.log())
                .contains("pure Python: prepared statements", "C extension: prepared statements", PASSED);
        assertThat(result.exitCode()).as("exit status; output:%n%s", result.output()).isZero();
        // cursor(prepared=True) went through COM_STMT_PREPARE / EXECUTE (the binary protocol): 8 executions each.
        assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"stmt_execute\""))
                .isGreaterThanOrEqualTo(executions + 16);
    }

    @Test
    void goSqlDriver() throws Exception {
        requireTools("go");
        Path work = Files.createDirectories(OUTPUT.resolve("go"));
        Path program = work.resolve("go_mysql_check");
        Files.deleteIfExists(program);
        // Debian's driver package is a GOPATH tree, so the program is built in GOPATH mode without a module.
        Path go = Files.isExecutable(Path.of("/usr/bin/go")) ? Path.of("/usr/bin/go") : Path.of("go");
        Map<String, String> environment = Map.of("GO111MODULE", "off",
                "GOPATH", work.resolve("gopath") + ":/usr/share/gocode",
                "GOCACHE", work.resolve("cache").toString(), "GOFLAGS", "-buildvcs=false");
        Result build = run("go-build", List.of(go.toString(), "build", "-o", program.toString(),
                resource("go/go_mysql_check.go").toString()), environment);
        assertThat(build.exitCode()).as("go build failed:%n%s", build.output()).isZero();

        double executions = SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"stmt_execute\"");
        Result result = run("go-mysql", List.of(program.toString(), sqlCluster.server().address().toString()), Map.of());
        assertThat(result.output()).as("Go program output (also in %s)", result.log())
                .contains("server-side prepared statements: transactions", "interpolated parameters: transactions",
                        PASSED);
        assertThat(result.exitCode()).as("exit status; output:%n%s", result.output()).isZero();
        // interpolateParams=false: parameters travel in COM_STMT_EXECUTE (17 executions, and 5 of db.Prepare's
        // statements with interpolateParams=true).
        assertThat(SqlTesting.metric(sqlCluster.server(), "duet_sql_commands_total", "command=\"stmt_execute\""))
                .isGreaterThanOrEqualTo(executions + 20);
    }

    @Test
    void sysbenchOltpReadWrite() throws Exception {
        requireTools("sysbench");
        List<String> sysbench = List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=" + host(), "--mysql-port=" + port(), "--mysql-user=root", "--mysql-db=test",
                "--tables=2", "--table-size=1000");

        // Two threads create and fill the tables side by side: concurrent CREATE TABLE and CREATE INDEX.
        Result prepare = run("sysbench-prepare", concat(sysbench, "--threads=2", "prepare"), Map.of());
        assertThat(prepare.exitCode()).as("sysbench prepare failed:%n%s", prepare.output()).isZero();
        assertThat(prepare.output()).contains("Creating a secondary index on 'sbtest1'",
                "Creating a secondary index on 'sbtest2'").doesNotContain("FATAL");
        try (Connection connection = DriverManager.getConnection("jdbc:mysql://" + sqlCluster.server().address()
                + "/test?user=root&useSSL=false"); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM sbtest1")).containsExactly("1000");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM sbtest2")).containsExactly("1000");
        }

        Result benchmark = run("sysbench-run", concat(sysbench, "--threads=4", "--time=10", "run"), Map.of());
        String output = benchmark.output();
        assertThat(benchmark.exitCode()).as("sysbench run failed:%n%s", output).isZero();
        assertThat(output).as("sysbench run output").doesNotContain("FATAL").doesNotContain("error:");
        long transactions = count(output, "transactions");
        assertThat(transactions).as("transactions; output:%n%s", output).isPositive();
        // sysbench ignores and retries deadlocks (1213) and lock wait timeouts (1205, 1020), and counts them.
        // Its default key distribution ("special": 1% of the ids take 75% of the accesses) makes four threads
        // deadlock now and then, on MySQL too, so a few are the workload's; any other error stops sysbench.
        assertThat(count(output, "ignored errors")).as("ignored errors; output:%n%s", output)
                .isLessThanOrEqualTo(Math.max(2, transactions / 20));
        assertThat(count(output, "reconnects")).as("reconnects; output:%n%s", output).isZero();

        Result cleanup = run("sysbench-cleanup", concat(sysbench, "cleanup"), Map.of());
        assertThat(cleanup.exitCode()).as("sysbench cleanup failed:%n%s", cleanup.output()).isZero();
        assertThat(cleanup.output()).contains("Dropping table 'sbtest2'").doesNotContain("FATAL");
    }

    /** A number from sysbench's summary, e.g. "    transactions:    184    (18.27 per sec.)". */
    private static long count(String output, String label) {
        Matcher matcher = Pattern.compile("(?m)^\\s*" + Pattern.quote(label) + ":\\s+(\\d+)").matcher(output);
        assertThat(matcher.find()).as("'%s' in sysbench's output:%n%s", label, output).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    private static List<String> concat(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all;
    }

    private static String host() {
        return sqlCluster.server().address().host();
    }

    private static String port() {
        return String.valueOf(sqlCluster.server().address().port());
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(ItClientDrivers.class.getResource("/clients/" + name).toURI());
    }

    /** Connector/Python's interpreter: the virtual environment bin/setup-test-tools makes. */
    private static Path connectorPython() {
        String directory = System.getenv("DUET_TEST_TOOLS_DIR");
        Path tools = directory != null && !directory.isEmpty() ? Path.of(directory)
                : Path.of(System.getProperty("user.home"), ".cache", "duetdb", "test-tools");
        return tools.resolve("connector-python").resolve("bin").resolve("python");
    }

    /** Runs bin/setup-test-tools for the tools; it installs what is missing and fails if it cannot. */
    private static void requireTools(String... tools) throws Exception {
        Result setup = run("setup-test-tools-" + String.join("-", tools),
                concat(List.of(PROJECT_ROOT.resolve("bin/setup-test-tools").toString()), tools), Map.of(),
                Duration.ofMinutes(10));
        assertThat(setup.exitCode()).as("bin/setup-test-tools %s failed:%n%s", String.join(" ", tools),
                setup.output()).isZero();
    }

    private record Result(int exitCode, String output, Path log) {
    }

    private static Result run(String name, List<String> command, Map<String, String> environment) throws Exception {
        return run(name, command, environment, TIMEOUT);
    }

    /** Runs a program with its output (standard error included) in target/client-drivers/NAME.out. */
    private static Result run(String name, List<String> command, Map<String, String> environment, Duration timeout)
            throws Exception {
        Path log = OUTPUT.resolve(name + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("PYTHONUNBUFFERED", "1");
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(name + " did not finish within " + timeout + ": " + command + "\nits output:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.printf("%s finished in %.1f s with status %d%n", name, (System.nanoTime() - started) / 1e9,
                process.exitValue());
        return new Result(process.exitValue(), output, log);
    }
}
