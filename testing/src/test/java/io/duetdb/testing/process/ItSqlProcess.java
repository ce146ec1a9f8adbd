package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.testing.JavaProcess;
import io.duetdb.testing.LocalCluster;

/** {@code duet sql} as its own process serves the cluster it is pointed at; kill -9 of it loses nothing committed. */
class ItSqlProcess {
    @TempDir
    Path root;

    @Test
    void aSqlServerProcessServesTheClusterAndAnotherTakesOverAfterKill9() throws Exception {
        LoopbackPorts ports = new LoopbackPorts();
        try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), 1, config -> { }, config -> { }).start(3)) {
            String pd = cluster.placement().clientAddresses().get(0).toString();
            int port = ports.allocate();
            JavaProcess first = start(pd, port, ports.allocate(), root.resolve("first.out"));
            try (Connection connection = connect(port, first); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE survivors (id INT PRIMARY KEY, name VARCHAR(10))");
                assertThat(statement.executeUpdate("INSERT INTO survivors VALUES (1, 'kept')")).isEqualTo(1);
            }
            first.kill();
            int second = ports.allocate();
            try (JavaProcess process = start(pd, second, ports.allocate(), root.resolve("second.out"));
                    Connection connection = connect(second, process); Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT name FROM survivors WHERE id = 1")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("kept");
            }
        }
    }

    private static JavaProcess start(String pd, int port, int statusPort, Path output) throws Exception {
        return JavaProcess.startDuet(output, List.of("sql", "--pd", pd, "--port", Integer.toString(port),
                "--status-port", Integer.toString(statusPort), "--log-file", output.getParent().resolve("logs-" + port)
                        .resolve("sql.log").toString()));
    }

    private static Connection connect(int port, JavaProcess process) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/test?user=root&useSSL=false");
            } catch (SQLException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new AssertionError("sql-server did not come up: " + process.output(), e);
                }
                Thread.sleep(200);
            }
        }
    }
}
