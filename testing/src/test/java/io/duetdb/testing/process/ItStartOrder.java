package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.testing.JavaProcess;
import io.duetdb.testing.StatusPorts;

/**
 * Three `duet pd`, three `duet store` and one `duet sql` started at the same moment, in reverse order (SQL
 * first), as compose files and orchestrators start them: each waits for what it needs, says so once, and the
 * SQL server serves. A bad configuration still ends a component at once.
 */
class ItStartOrder {
    /** Seven JVMs starting together on two cores: C1 alone warms them up with far less CPU. */
    private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1");
    private static final Duration DEADLINE = Duration.ofSeconds(180);

    @TempDir
    Path root;
    private final LoopbackPorts ports = new LoopbackPorts();
    private final Map<String, JavaProcess> processes = new LinkedHashMap<>();

    @AfterEach
    void stopAll() throws InterruptedException {
        for (JavaProcess process : processes.values()) {
            process.close();
        }
    }

    private JavaProcess start(String name, List<String> arguments) throws IOException {
        JavaProcess process = JavaProcess.startDuet(root.resolve(name + ".out"), arguments, JVM_FLAGS);
        processes.put(name, process);
        return process;
    }

    @Test
    void componentsStartedTogetherInReverseOrderWaitForEachOtherAndServeSql() throws Exception {
        List<String> clientAddresses = new ArrayList<>();
        List<String> initialCluster = new ArrayList<>();
        List<List<String>> pdArguments = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            String client = "127.0.0.1:" + ports.allocate();
            String peer = "127.0.0.1:" + ports.allocate();
            clientAddresses.add(client);
            initialCluster.add("pd-" + i + "=" + peer);
            pdArguments.add(List.of("pd", "--name", "pd-" + i, "--data-dir", root.resolve("pd-" + i).toString(),
                    "--client-address", client, "--peer-address", peer,
                    "--status-address", "127.0.0.1:" + ports.allocate()));
        }
        String pd = String.join(",", clientAddresses);
        int sqlPort = ports.allocate();
        int sqlStatusPort = ports.allocate();

        long started = System.nanoTime();
        JavaProcess sql = start("sql", List.of("sql", "--pd", pd, "--port", Integer.toString(sqlPort),
                "--status-port", Integer.toString(sqlStatusPort)));
        for (int i = 3; i >= 1; i--) {
            start("store-" + i, List.of("store", "--pd", pd, "--data-dir", root.resolve("store-" + i).toString(),
                    "--port", Integer.toString(ports.allocate()), "--raft-port", Integer.toString(ports.allocate()),
                    "--status-port", Integer.toString(ports.allocate())));
        }
        for (int i = 3; i >= 1; i--) {
            List<String> arguments = new ArrayList<>(pdArguments.get(i - 1));
            arguments.addAll(List.of("--initial-cluster", String.join(",", initialCluster)));
            start("pd-" + i, arguments);
        }

        // The status port answers while the SQL server waits, and tells what it waits for.
        Set<String> sqlStates = new LinkedHashSet<>();
        long deadline = started + DEADLINE.toNanos();
        while (!sqlStates.contains("serving")) {
            assertThat(System.nanoTime()).as("SQL server serving within %s; states so far %s; output:%n%s", DEADLINE,
                    sqlStates, sql.output()).isLessThan(deadline);
            assertThat(sql.isAlive()).as("the SQL server keeps waiting instead of exiting: %s", sql.output()).isTrue();
            StatusPorts.state(new HostAndPort("127.0.0.1", sqlStatusPort)).ifPresent(sqlStates::add);
            Thread.sleep(100);
        }
        assertThat(sqlStates).anyMatch(state -> state.startsWith("waiting: "));

        try (Connection connection = connect(sqlPort, sql); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE started_together (id INT PRIMARY KEY, name VARCHAR(20))");
            assertThat(statement.executeUpdate("INSERT INTO started_together VALUES (1, 'sql'), (2, 'store')"))
                    .isEqualTo(2);
            List<String> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("SELECT id, name FROM started_together ORDER BY id")) {
                while (result.next()) {
                    rows.add(result.getInt(1) + " " + result.getString(2));
                }
            }
            assertThat(rows).containsExactly("1 sql", "2 store");
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        System.out.println("seven processes started together served SQL after " + seconds + " s; SQL states " + sqlStates);

        assertWaited("sql", "SqlServer - waiting for ", seconds);
        for (int i = 1; i <= 3; i++) {
            assertWaited("store-" + i, "StoreServer - waiting for placement ", seconds);
            assertWaited("pd-" + i, "PlacementServer - waiting for placement leader: ", seconds);
        }
    }

    /** The process logged what it waited for, once per wait plus a reminder at most every 10 s, not per poll. */
    private void assertWaited(String name, String waitingLine, long seconds) throws IOException {
        String output = processes.get(name).output();
        assertThat(output).as("%s's output", name).contains(waitingLine);
        long waits = output.lines().filter(line -> line.contains(" - waiting for ")).count();
        long reminders = output.lines().filter(line -> line.contains(" - still waiting for ")).count();
        assertThat(waits).as("%s's waiting lines", name).isBetween(1L, 5L);
        assertThat(reminders).as("%s's reminders", name).isLessThanOrEqualTo(seconds / 10 + 1);
    }

    @Test
    void aBadConfigurationEndsAComponentAtOnceEvenWithNoClusterToWaitFor() throws Exception {
        Path config = root.resolve("pd.toml");
        Files.writeString(config, "name = \"pd-1\ninitial-cluster = [\n");
        String nowhere = "127.0.0.1:" + ports.allocate();
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", ports.allocate()));
            String takenPort = Integer.toString(taken.getLocalPort());
            JavaProcess pd = start("pd", List.of("pd", "--config", config.toString()));
            JavaProcess sql = start("sql", List.of("sql", "--pd", nowhere, "--port", takenPort,
                    "--status-port", Integer.toString(ports.allocate())));
            JavaProcess store = start("store", List.of("store", "--pd", nowhere, "--data-dir",
                    root.resolve("store").toString(), "--port", takenPort,
                    "--raft-port", Integer.toString(ports.allocate()), "--status-port", Integer.toString(ports.allocate())));

            assertExitsWithError(pd, "error: ");
            assertExitsWithError(sql, "MySQL protocol address 127.0.0.1:" + takenPort + " is already in use");
            assertExitsWithError(store, "store address 127.0.0.1:" + takenPort + " is already in use");
            assertThat(sql.output()).doesNotContain("waiting for");
            assertThat(store.output()).doesNotContain("waiting for");
        }
    }

    private static void assertExitsWithError(JavaProcess process, String message) throws Exception {
        OptionalInt exit = process.awaitExit(Duration.ofSeconds(60));
        assertThat(exit).as("exit code; output:%n%s", process.output()).isPresent();
        assertThat(exit.getAsInt()).isNotZero();
        assertThat(process.output()).contains(message);
    }

    private static Connection connect(int port, JavaProcess process) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/test?user=root&useSSL=false");
            } catch (SQLException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new AssertionError("the SQL server serves but takes no connection: " + process.output(), e);
                }
                Thread.sleep(200);
            }
        }
    }
}
