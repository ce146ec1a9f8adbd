package io.duetdb.testing.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.testing.JavaProcess;
import io.duetdb.testing.LocalPlacementCluster;
import io.duetdb.testing.StatusPorts;

/** Three `duet pd` processes from config files; the leader is killed with SIGKILL. */
class ItPlacementProcesses {
    @TempDir
    Path root;
    private final Map<String, JavaProcess> processes = new HashMap<>();
    private final Map<String, Path> configs = new HashMap<>();

    @AfterEach
    void stopAll() throws InterruptedException {
        for (JavaProcess process : processes.values()) {
            process.close();
        }
    }

    private JavaProcess start(String name) throws Exception {
        JavaProcess process = JavaProcess.startDuet(root.resolve(name + "-" + System.nanoTime() + ".out"),
                List.of("pd", "--config", configs.get(name).toString()));
        processes.put(name, process);
        return process;
    }

    @Test
    void timestampsExceedEverythingHandedOutAfterTheLeaderIsKilled() throws Exception {
        List<String> initialCluster = new ArrayList<>();
        List<HostAndPort> clientAddresses = new ArrayList<>();
        List<HostAndPort> statusAddresses = new ArrayList<>();
        Map<String, int[]> ports = new HashMap<>();
        for (int i = 1; i <= 3; i++) {
            int[] memberPorts = {LocalPlacementCluster.freePort(), LocalPlacementCluster.freePort(),
                    LocalPlacementCluster.freePort()};
            ports.put("pd-" + i, memberPorts);
            initialCluster.add("\"pd-" + i + "=127.0.0.1:" + memberPorts[1] + "\"");
            clientAddresses.add(new HostAndPort("127.0.0.1", memberPorts[0]));
            statusAddresses.add(new HostAndPort("127.0.0.1", memberPorts[2]));
        }
        for (int i = 1; i <= 3; i++) {
            String name = "pd-" + i;
            int[] memberPorts = ports.get(name);
            Path config = root.resolve(name + ".toml");
            Files.writeString(config, """
                    name = "%s"
                    data-dir = "%s"
                    client-address = "127.0.0.1:%d"
                    peer-address = "127.0.0.1:%d"
                    status-address = "127.0.0.1:%d"
                    initial-cluster = [%s]
                    election-timeout = "500ms"
                    """.formatted(name, root.resolve(name), memberPorts[0], memberPorts[1], memberPorts[2],
                    String.join(", ", initialCluster)));
            configs.put(name, config);
            start(name);
        }
        // Three JVMs start on a loaded machine in their own time; the members say when a leader is there.
        StatusPorts.awaitAnyServing("a member serving with a placement leader", Duration.ofSeconds(120), statusAddresses);

        try (PlacementClient client = new GrpcPlacementClient(
                PlacementClientConfig.of(clientAddresses).withRequestTimeout(Duration.ofSeconds(30)), "it")) {
            long highest = 0;
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < end) {
                long ts = client.getTimestamp().packed();
                assertThat(ts).isGreaterThan(highest);
                highest = ts;
            }
            String leader = client.getMembers().getLeaderName();
            assertThat(leader).isNotEmpty();
            processes.get(leader).kill();

            long first = client.getTimestamp().packed();
            assertThat(first).as("first timestamp after kill -9 of leader %s", leader).isGreaterThan(highest);
            String newLeader = client.getMembers().getLeaderName();
            assertThat(newLeader).isNotEqualTo(leader);

            // The killed member restarts on its data and rejoins.
            start(leader);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            boolean rejoined = false;
            while (!rejoined && System.nanoTime() < deadline) {
                rejoined = io.duetdb.client.placement.MemberProbe.probe(
                        new HostAndPort("127.0.0.1", ports.get(leader)[0]), Duration.ofSeconds(1))
                        .map(members -> members.getRaftAppliedIndex() > 0).orElse(false);
                Thread.sleep(200);
            }
            assertThat(rejoined).as("restarted member answers: %s", processes.get(leader).output()).isTrue();
            assertThat(client.getTimestamp().packed()).isGreaterThan(first);
        }
    }
}
