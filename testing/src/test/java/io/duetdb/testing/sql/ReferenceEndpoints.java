package io.duetdb.testing.sql;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.duetdb.sql.server.SqlServer;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.reference.DataLoader;
import io.duetdb.testing.reference.DuckDbReference;
import io.duetdb.testing.reference.GeneratedData;
import io.duetdb.testing.reference.QueryRunner;
import io.duetdb.testing.reference.QuerySet;
import io.duetdb.testing.reference.QueryTexts;
import io.duetdb.testing.reference.ReferenceComparison;

/**
 * An in-process DuetDB (three stores, one SQL server) and an in-memory DuckDB loaded with the same generated
 * data, and the check that a benchmark's queries return the reference's results on DuetDB.
 */
final class ReferenceEndpoints implements AutoCloseable {
    private final LocalCluster cluster;
    private final SqlServer server;
    private final DuckDbReference reference;
    private final String url;

    private ReferenceEndpoints(LocalCluster cluster, SqlServer server, DuckDbReference reference, String url) {
        this.cluster = requireNonNull(cluster, "cluster");
        this.server = requireNonNull(server, "server");
        this.reference = requireNonNull(reference, "reference");
        this.url = requireNonNull(url, "url");
    }

    /**
     * Starts the cluster under {@code root}, creates {@code database} and loads {@code data} into it (four
     * connections, {@code rowsPerInsert} rows per INSERT) and into DuckDB.
     */
    static ReferenceEndpoints start(Path root, String database, GeneratedData<?> data, int rowsPerInsert)
            throws Exception {
        return start(root, database, data, rowsPerInsert, false);
    }

    /**
     * As above; with {@code learner}, a column learner is started too and every table gets a columnar replica on it,
     * available before this returns.
     */
    static ReferenceEndpoints start(Path root, String database, GeneratedData<?> data, int rowsPerInsert, boolean learner)
            throws Exception {
        LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { });
        SqlServer server = null;
        DuckDbReference reference = null;
        try {
            cluster.start(3);
            server = SqlTesting.startServer(cluster, config -> { });
            String base = "jdbc:mysql://" + server.address() + "/%s?user=root&useSSL=false&allowPublicKeyRetrieval=true";
            try (Connection connection = DriverManager.getConnection(String.format(base, "test"));
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + database);
            }
            String url = String.format(base, database);
            reference = DuckDbReference.load(data, System.out);
            DataLoader.loadMysql(() -> DriverManager.getConnection(url), data, 4, rowsPerInsert, System.out);
            if (learner) {
                cluster.addLearner();
                try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
                    for (var table : data.tables()) {
                        statement.execute("ALTER TABLE " + table.sqlName() + " SET TIFLASH REPLICA 1");
                    }
                    LocalCluster.await("columnar replicas of every table", Duration.ofSeconds(120), () -> {
                        try {
                            return SqlTesting.rows(statement, "SELECT count(*) FROM information_schema.tiflash_replica"
                                    + " WHERE TABLE_SCHEMA = '" + database + "' AND AVAILABLE = 1")
                                    .equals(List.of(String.valueOf(data.tables().size())));
                        } catch (SQLException e) {
                            throw new AssertionError(e);
                        }
                    });
                }
            }
            return new ReferenceEndpoints(cluster, server, reference, url);
        } catch (Exception | Error e) {
            closeAll(reference, server, cluster);
            throw e;
        }
    }

    /** The JDBC URL of the loaded database on DuetDB. */
    String url() {
        return url;
    }

    /**
     * Runs every query of {@code queries} on the reference and on DuetDB through {@code jdbcUrl}, prints the
     * verdicts, and asserts that no query fails on the reference and that at least the queries in
     * {@code expectedToPass} return its results. A query expected to pass gets {@code passingTimeout}, any other
     * {@code otherTimeout}.
     */
    void assertQueriesMatch(String jdbcUrl, QuerySet queries, Set<Integer> expectedToPass, Duration passingTimeout,
            Duration otherTimeout) {
        List<ReferenceComparison.Result> results;
        try (QueryRunner expected = reference.runner();
                QueryRunner duetdb = new QueryRunner("duetdb", () -> DriverManager.getConnection(jdbcUrl))) {
            results = ReferenceComparison.compare(expected, duetdb, queries,
                    QueryTexts.parseSelection("all", queries.count()),
                    query -> expectedToPass.contains(query) ? passingTimeout : otherTimeout, System.out);
        }
        String table = results.stream().map(ReferenceComparison::line).collect(Collectors.joining("\n"));
        Set<Integer> passing = results.stream().filter(ReferenceComparison.Result::ok)
                .map(ReferenceComparison.Result::query).collect(Collectors.toCollection(TreeSet::new));
        Set<Integer> newlyPassing = new TreeSet<>(passing);
        newlyPassing.removeAll(expectedToPass);
        if (!newlyPassing.isEmpty()) {
            System.out.println("passing but not yet expected to: " + newlyPassing);
        }
        assertThat(results).as("no query may fail on the reference engine:\n" + table)
                .noneMatch(r -> r.verdict() == ReferenceComparison.Verdict.REFERENCE_FAILED);
        assertThat(passing).as("queries that match the reference (expected at least %s):\n%s", expectedToPass, table)
                .containsAll(expectedToPass);
    }

    @Override
    public void close() throws Exception {
        closeAll(reference, server, cluster);
    }

    private static void closeAll(AutoCloseable... resources) throws Exception {
        Exception failure = null;
        for (AutoCloseable resource : resources) {
            try {
                if (resource != null) {
                    resource.close();
                }
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
