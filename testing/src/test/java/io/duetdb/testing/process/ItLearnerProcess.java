package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.JavaProcess;
import io.duetdb.testing.LocalCluster;

/**
 * {@code duet learner} as its own process: killed with kill -9 while writes go on, started again on its data, it
 * catches up, and reads from it at later timestamps see every acknowledged write.
 */
class ItLearnerProcess {
    @TempDir
    Path root;

    @Test
    void aLearnerKilledUnderWritesCatchesUpAndMissesNoAcknowledgedWrite() throws Exception {
        LoopbackPorts ports = new LoopbackPorts();
        try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), 1, config -> { }, config -> { }).start(1);
                SqlServer server = new SqlServer(new SqlServerConfig().setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", ports.allocate()))
                        .setSchemaLease(Duration.ofMillis(200))).start()) {
            String pd = cluster.placement().clientAddresses().get(0).toString();
            String url = "jdbc:mysql://" + server.address() + "/test?user=root&useSSL=false";
            int port = ports.allocate();
            int raftPort = ports.allocate();
            int statusPort = ports.allocate();
            Path dataDir = root.resolve("learner");
            JavaProcess learner = start(pd, port, raftPort, statusPort, dataDir, root.resolve("first.out"));
            try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE ledger (id INT PRIMARY KEY, amount INT)");
                awaitLearnerStore(statement, learner);
                statement.execute("ALTER TABLE ledger SET TIFLASH REPLICA 1");
                awaitAvailable(statement);

                AtomicBoolean writing = new AtomicBoolean(true);
                AtomicInteger acknowledged = new AtomicInteger();
                List<Throwable> failures = new ArrayList<>();
                Thread writer = new Thread(() -> {
                    try (Connection writes = DriverManager.getConnection(url); Statement insert = writes.createStatement()) {
                        for (int id = 1; writing.get(); id++) {
                            insert.execute("INSERT INTO ledger VALUES (" + id + ", " + (id % 97) + ")");
                            acknowledged.set(id);
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "ledger-writer");
                writer.start();
                LocalCluster.await("writes before the kill", Duration.ofSeconds(30), () -> acknowledged.get() >= 200);
                learner.kill();
                int atKill = acknowledged.get();
                LocalCluster.await("writes while the learner is down", Duration.ofSeconds(30),
                        () -> acknowledged.get() >= atKill + 200);
                learner = start(pd, port, raftPort, statusPort, dataDir, root.resolve("second.out"));
                JavaProcess restarted = learner;
                LocalCluster.await("the restarted learner to serve", Duration.ofSeconds(60), () -> serving(statusPort, restarted));
                LocalCluster.await("writes after the restart", Duration.ofSeconds(60),
                        () -> acknowledged.get() >= atKill + 400);
                writing.set(false);
                writer.join(30_000);
                assertThat(failures).isEmpty();
                int last = acknowledged.get();
                awaitAvailable(statement);
                // The restarted learner recovered its replica from its own file and log, not from a new snapshot.
                assertThat(metric(statusPort, "duet_learner_snapshots_installed_total")).isZero();
                assertThat(metric(statusPort, "duet_learner_regions")).isGreaterThanOrEqualTo(1);
                // A learner that lost log entries it had acknowledged is restarted by the region's leader (see
                // RegionOperations): its reads fail as busy meanwhile, never with a stale answer.
                long[] fromLearner = new long[3];
                LocalCluster.await("a learner read", Duration.ofSeconds(90), () -> {
                    try {
                        statement.execute("SET tidb_isolation_read_engines = 'tiflash'");
                        try (ResultSet result = statement.executeQuery("SELECT count(*), sum(amount), max(id) FROM ledger")) {
                            assertThat(result.next()).isTrue();
                            fromLearner[0] = result.getLong(1);
                            fromLearner[1] = result.getLong(2);
                            fromLearner[2] = result.getLong(3);
                        }
                        return true;
                    } catch (SQLException e) {
                        return false;
                    }
                });
                assertThat(fromLearner[0]).isGreaterThanOrEqualTo(last);
                assertThat(fromLearner[2]).isGreaterThanOrEqualTo(last);
                statement.execute("SET tidb_isolation_read_engines = 'tikv'");
                try (ResultSet rowStore = statement.executeQuery("SELECT count(*), sum(amount) FROM ledger")) {
                    assertThat(rowStore.next()).isTrue();
                    assertThat(fromLearner[0]).isEqualTo(rowStore.getLong(1));
                    assertThat(fromLearner[1]).isEqualTo(rowStore.getLong(2));
                }
            } finally {
                learner.close();
            }
        }
    }

    private static JavaProcess start(String pd, int port, int raftPort, int statusPort, Path dataDir, Path output)
            throws Exception {
        return JavaProcess.startDuet(output, List.of("learner", "--pd", pd, "--data-dir", dataDir.toString(),
                "--port", Integer.toString(port), "--raft-port", Integer.toString(raftPort), "--status-port",
                Integer.toString(statusPort), "--log-file",
                output.resolveSibling(output.getFileName() + ".log").toString()));
    }

    private static void awaitLearnerStore(Statement statement, JavaProcess learner) {
        LocalCluster.await("the learner process to register", Duration.ofSeconds(60), () -> {
            if (!learner.isAlive()) {
                throw new AssertionError("the learner exited: " + output(learner));
            }
            try {
                statement.execute("ALTER TABLE ledger SET TIFLASH REPLICA 1");
                statement.execute("ALTER TABLE ledger SET TIFLASH REPLICA 0");
                return true;
            } catch (SQLException e) {
                return false;
            }
        });
    }

    private static double metric(int statusPort, String name) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + statusPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        for (String line : response.body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError("no metric " + name + " in:\n" + response.body());
    }

    private static boolean serving(int statusPort, JavaProcess process) {
        if (!process.isAlive()) {
            throw new AssertionError("the learner exited: " + output(process));
        }
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + statusPort + "/status")).build(), HttpResponse.BodyHandlers.ofString());
            return response.body().contains("\"serving\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String output(JavaProcess process) {
        try {
            return process.output();
        } catch (IOException e) {
            return "(its output cannot be read: " + e + ")";
        }
    }

    private static void awaitAvailable(Statement statement) {
        LocalCluster.await("the learner replica of ledger", Duration.ofSeconds(90), () -> {
            try (ResultSet result = statement.executeQuery("SELECT AVAILABLE FROM information_schema.tiflash_replica"
                    + " WHERE TABLE_NAME = 'ledger'")) {
                return result.next() && result.getLong(1) == 1;
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
    }
}
