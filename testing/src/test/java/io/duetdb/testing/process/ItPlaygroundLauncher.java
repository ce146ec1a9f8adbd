package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.time.Timestamp;

/** The README's first command: `bin/duet playground`, stopped with SIGTERM and started again on its data. */
class ItPlaygroundLauncher {
    private static final Path PROJECT_ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path root;

    private static final class Playground implements AutoCloseable {
        final Process process;
        final Path outputFile;
        final Path errorFile;

        /** Starts the playground and waits for its ready line, which names the MySQL port. */
        Playground(Path dataDir, int portOffset, Path outputFile) throws Exception {
            this.outputFile = outputFile;
            this.errorFile = outputFile.resolveSibling(outputFile.getFileName() + ".err");
            ProcessBuilder builder = new ProcessBuilder(PROJECT_ROOT.resolve("bin/duet").toString(), "playground",
                    "--data-dir", dataDir.toString(), "--port-offset", Integer.toString(portOffset))
                    .redirectOutput(outputFile.toFile()).redirectError(errorFile.toFile());
            builder.environment().put("DUET_NO_BUILD", "1");
            builder.environment().put("DUET_HEAP", "512m");
            process = builder.start();
            String ready = "DuetDB is ready: mysql -h 127.0.0.1 -P " + (4000 + portOffset) + " -u root";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!output().contains(ready) && process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(output()).as("playground output; its errors:%n%s", errors()).contains(ready);
        }

        /** What the playground printed on stdout: its own progress lines. */
        String output() throws IOException {
            return Files.exists(outputFile) ? Files.readString(outputFile) : "";
        }

        /** What it printed on stderr: components' warnings and errors, one line each. */
        String errors() throws IOException {
            return Files.exists(errorFile) ? Files.readString(errorFile) : "";
        }

        int terminate() throws InterruptedException {
            process.destroy(); // SIGTERM, like Ctrl-C's SIGINT: shutdown hooks run
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /**
     * An offset whose shifted default ports are all free and all below Linux's ephemeral range (32768 and up),
     * where an outgoing connection could take one between this check and the playground's bind.
     */
    private static int freePortOffset() {
        int[] defaults = {2379, 2380, 2381, 2382, 2383, 2384, 2385, 2386, 2387, 4000, 10080,
                20160, 20161, 20162, 20170, 20171, 20172, 20180, 20181, 20182};
        Random random = new Random();
        for (int attempt = 0; attempt < 100; attempt++) {
            int offset = 1_000 + random.nextInt(10_000);
            if (Arrays.stream(defaults).allMatch(port -> bindable(port + offset))) {
                return offset;
            }
        }
        throw new IllegalStateException("no port offset with all playground ports free");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void startsPrintsWhereItListensStopsCleanlyAndRestartsOnItsData() throws Exception {
        int offset = freePortOffset();
        HostAndPort pd1 = new HostAndPort("127.0.0.1", 2379 + offset);
        Path data = root.resolve("data");
        Timestamp before;
        long clusterId;
        try (Playground playground = new Playground(data, offset, root.resolve("first.out"))) {
            assertThat(playground.output()).contains("placement pd-1   client " + pd1)
                    .contains("placement pd-3   client 127.0.0.1:" + (2385 + offset))
                    .contains("address 127.0.0.1:" + (20160 + offset) + "  raft 127.0.0.1:" + (20170 + offset))
                    .contains("mysql 127.0.0.1:" + (4000 + offset) + "  status http://127.0.0.1:" + (10080 + offset) + "/")
                    .contains("log in " + data.resolve("logs/duet.log").toAbsolutePath().normalize());
            // The console holds the playground's own lines; the components' INFO lines are in the log file.
            assertThat(playground.output().lines()).allMatch(line -> line.startsWith("DuetDB ") || line.startsWith("  "))
                    .noneMatch(line -> line.contains(" INFO "));
            assertThat(playground.errors().lines()).noneMatch(line -> line.contains(" INFO "));
            try (PlacementClient client = new GrpcPlacementClient(PlacementClientConfig.of(List.of(pd1)), "it")) {
                before = client.getTimestamp();
                clusterId = client.clusterId();
                assertThat(client.getMembers().getMembersList()).hasSize(3);
            }
            String url = "jdbc:mysql://127.0.0.1:" + (4000 + offset) + "/test?user=root&useSSL=false";
            try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
                    java.sql.Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE kept (id INT PRIMARY KEY, note VARCHAR(20))");
                assertThat(statement.executeUpdate("INSERT INTO kept VALUES (1, 'survives restarts')")).isEqualTo(1);
            }
            int exitCode = playground.terminate();
            assertThat(playground.output()).as("exit code %d", exitCode).contains("DuetDB playground stopped.");
        }
        String log = Files.readString(data.resolve("logs/duet.log"));
        assertThat(log).contains("INFO  [placement/pd-1]").contains("INFO  [placement/pd-2]")
                .contains("INFO  [placement/pd-3]").contains("INFO  [storage/store-").contains("INFO  [sql/")
                .contains("SQL server started: MySQL protocol on 127.0.0.1:" + (4000 + offset));

        try (Playground again = new Playground(data, offset, root.resolve("second.out"));
                PlacementClient client = new GrpcPlacementClient(PlacementClientConfig.of(List.of(pd1))
                        .withRequestTimeout(Duration.ofSeconds(30)), "it")) {
            assertThat(client.getTimestamp()).isGreaterThan(before);
            assertThat(client.clusterId()).isEqualTo(clusterId);
            String url = "jdbc:mysql://127.0.0.1:" + (4000 + offset) + "/test?user=root&useSSL=false";
            try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
                    java.sql.Statement statement = connection.createStatement();
                    java.sql.ResultSet result = statement.executeQuery("SELECT note FROM kept WHERE id = 1")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo("survives restarts");
            }
            again.terminate();
        }
    }
}
