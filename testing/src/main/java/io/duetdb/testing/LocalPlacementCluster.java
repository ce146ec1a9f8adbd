package io.duetdb.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.placement.PlacementConfig;
import io.duetdb.placement.PlacementServer;

/**
 * Placement members in this JVM on free loopback ports, each with its own data directory under a root:
 * real Ratis, real gRPC. Members can be stopped and started again on the same data.
 */
public final class LocalPlacementCluster implements AutoCloseable {
    private static final LoopbackPorts PORTS = new LoopbackPorts();

    private final List<PlacementConfig> configs = new ArrayList<>();
    private final List<PlacementServer> servers = new ArrayList<>();

    public LocalPlacementCluster(Path root, int size, Consumer<PlacementConfig> customise) {
        List<String> initialCluster = new ArrayList<>();
        List<int[]> ports = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            int[] memberPorts = {freePort(), freePort(), freePort()};
            ports.add(memberPorts);
            initialCluster.add("pd-" + i + "=127.0.0.1:" + memberPorts[1]);
        }
        for (int i = 1; i <= size; i++) {
            int[] memberPorts = ports.get(i - 1);
            PlacementConfig config = new PlacementConfig()
                    .setName("pd-" + i)
                    .setDataDir(root.resolve("pd-" + i))
                    .setClientAddress(new HostAndPort("127.0.0.1", memberPorts[0]))
                    .setPeerAddress(new HostAndPort("127.0.0.1", memberPorts[1]))
                    .setStatusAddress(new HostAndPort("127.0.0.1", memberPorts[2]))
                    .setInitialCluster(initialCluster)
                    .setElectionTimeout(Duration.ofMillis(500));
            customise.accept(config);
            configs.add(config);
            servers.add(null);
        }
    }

    public LocalPlacementCluster start() {
        for (int i = 0; i < configs.size(); i++) {
            start(i);
        }
        return this;
    }

    public PlacementServer start(int index) {
        PlacementServer server = new PlacementServer(configs.get(index)).start();
        servers.set(index, server);
        return server;
    }

    public void stop(int index) {
        PlacementServer server = servers.get(index);
        if (server != null) {
            server.close();
            servers.set(index, null);
        }
    }

    /** Waits until one member is the ready leader and serves timestamps. */
    public int awaitLeader(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Integer> leader = leaderIndex();
            if (leader.isPresent()) {
                return leader.get();
            }
            sleep(20);
        }
        throw new AssertionError("no placement leader within " + timeout);
    }

    public Optional<Integer> leaderIndex() {
        for (int i = 0; i < servers.size(); i++) {
            PlacementServer server = servers.get(i);
            if (server != null && server.isLeader()) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    public List<HostAndPort> clientAddresses() {
        return configs.stream().map(PlacementConfig::clientAddress).toList();
    }

    public PlacementConfig config(int index) {
        return configs.get(index);
    }

    public int size() {
        return configs.size();
    }

    public PlacementClient newClient() {
        return new GrpcPlacementClient(PlacementClientConfig.of(clientAddresses()), "test-client");
    }

    @Override
    public void close() {
        for (int i = 0; i < servers.size(); i++) {
            stop(i);
        }
    }

    public static int freePort() {
        return PORTS.allocate();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
