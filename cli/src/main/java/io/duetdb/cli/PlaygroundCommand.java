package io.duetdb.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.duetdb.cli.logging.LogSetup;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.learner.LearnerConfig;
import io.duetdb.learner.LearnerServer;
import io.duetdb.placement.PlacementConfig;
import io.duetdb.placement.PlacementServer;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.store.StoreConfig;
import io.duetdb.store.StoreServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code duet playground}: every component in one JVM on the default ports, data under ./data: three placement
 * members, three storage nodes and a SQL server. The console shows where each component listens and one ready
 * line; the full log goes to {@code <data dir>/logs/duet.log}, and only warnings and errors reach the console.
 */
@Command(name = "playground", mixinStandardHelpOptions = true,
        description = "Start a whole DuetDB cluster in this process, on the default ports.")
public final class PlaygroundCommand implements Callable<Integer> {
    /** Member i listens on client, peer and status ports BASE + 3i, +1, +2: 2379/2380/2381, 2382/2383/2384, ... */
    static final int PLACEMENT_BASE_PORT = PlacementConfig.DEFAULT_CLIENT_PORT;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "data", description = "default: ${DEFAULT-VALUE}")
    Path dataDir;

    @Option(names = "--clean", description = "delete the data directory first")
    boolean clean;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--pd", defaultValue = "3", paramLabel = "N", description = "placement members, 1 or 3 (default: ${DEFAULT-VALUE})")
    int placementMembers;

    @Option(names = "--stores", defaultValue = "3", paramLabel = "N", description = "storage nodes, 0 to 10 (default: ${DEFAULT-VALUE})")
    int storeCount;

    @Option(names = "--learners", defaultValue = "1", paramLabel = "N",
            description = "column learners, 0 to 5 (default: ${DEFAULT-VALUE})")
    int learnerCount;

    @Option(names = "--port-offset", defaultValue = "0", hidden = true,
            description = "added to every default port (for tests that run beside a playground)")
    int portOffset;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final List<AutoCloseable> running = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        if (placementMembers != 1 && placementMembers != 3) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pd must be 1 or 3");
        }
        if (storeCount < 0 || storeCount > 10) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--stores must be between 0 and 10");
        }
        if (learnerCount < 0 || learnerCount > 5) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--learners must be between 0 and 5");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (clean) {
            deleteRecursively(dataDir);
        }
        Path logFile = LogFiles.inDataDirectory(dataDir);
        LogSetup.bridgeJulToSlf4j();
        LogSetup.toFile(logFile);
        out.println("DuetDB " + BuildInfo.version() + " playground: data in " + dataDir.toAbsolutePath().normalize()
                + ", log in " + logFile.toAbsolutePath().normalize());
        out.flush();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            stopAll();
            out.println("DuetDB playground stopped.");
            out.flush();
            stopped.countDown();
        }, "shutdown"));
        try {
            start(out);
        } catch (RuntimeException e) {
            if (stopping) {
                return 0;
            }
            throw e;
        }
        stopped.await();
        return 0;
    }

    /** Starts every component; each waits for what it needs, so this returns once the whole cluster serves. */
    private void start(PrintWriter out) throws InterruptedException {
        List<PlacementServer> placement = startPlacement(out);
        List<HostAndPort> placementAddresses = placement.stream().map(PlacementServer::clientAddress).toList();
        startStores(placementAddresses, out);
        startLearners(placementAddresses, out);
        String inspect = "  inspect the cluster with: bin/duet ctl --pd " + placement.get(0).clientAddress()
                + " members; Ctrl-C stops it, the data stays for the next start";
        if (storeCount == 0) {
            while (placement.stream().noneMatch(PlacementServer::isServing)) {
                Thread.sleep(100);
            }
            out.println(inspect);
            out.println("DuetDB is ready (placement only, no stores, so no SQL server)");
            out.flush();
            return;
        }
        SqlServer sql = new SqlServer(new SqlServerConfig()
                .setPd(placementAddresses)
                .setAddress(new HostAndPort(host, SqlServerConfig.DEFAULT_PORT + portOffset))
                .setStatusAddress(new HostAndPort(host, SqlServerConfig.DEFAULT_STATUS_PORT + portOffset)));
        running.add(sql);
        sql.start();
        out.printf("  sql    %-8s mysql %s  status http://%s/%n", "sql-1", sql.address(), sql.statusAddress());
        out.println(inspect);
        out.println("DuetDB is ready: mysql -h " + connectHost(sql.address()) + " -P " + sql.address().port()
                + " -u root");
        out.flush();
    }

    private static String connectHost(HostAndPort address) {
        return address.host().equals("0.0.0.0") || address.host().equals("::") ? "127.0.0.1" : address.host();
    }

    private List<PlacementServer> startPlacement(PrintWriter out) {
        List<String> initialCluster = new ArrayList<>();
        for (int i = 0; i < placementMembers; i++) {
            initialCluster.add("pd-" + (i + 1) + "=" + host + ":" + (port(i, 1)));
        }
        List<PlacementServer> servers = new ArrayList<>();
        for (int i = 0; i < placementMembers; i++) {
            String name = "pd-" + (i + 1);
            PlacementConfig config = new PlacementConfig()
                    .setName(name)
                    .setDataDir(dataDir.resolve(name))
                    .setClientAddress(new HostAndPort(host, port(i, 0)))
                    .setPeerAddress(new HostAndPort(host, port(i, 1)))
                    .setStatusAddress(new HostAndPort(host, port(i, 2)))
                    .setInitialCluster(initialCluster);
            PlacementServer server = new PlacementServer(config);
            running.add(server);
            server.start();
            servers.add(server);
            out.printf("  placement %-6s client %s  peer %s  status http://%s/%n", name, server.clientAddress(),
                    config.peerAddress(), server.statusAddress());
            out.flush();
        }
        return servers;
    }

    /** Each store waits for a placement leader before it registers. */
    private void startStores(List<HostAndPort> placementAddresses, PrintWriter out) {
        for (int i = 0; i < storeCount; i++) {
            StoreConfig config = new StoreConfig()
                    .setDataDir(dataDir.resolve("store-" + (i + 1)))
                    .setPd(placementAddresses)
                    .setAddress(new HostAndPort(host, StoreConfig.DEFAULT_PORT + portOffset + i))
                    .setRaftAddress(new HostAndPort(host, StoreConfig.DEFAULT_RAFT_PORT + portOffset + i))
                    .setStatusAddress(new HostAndPort(host, StoreConfig.DEFAULT_STATUS_PORT + portOffset + i))
                    .setBlockCacheSize(DataSize.ofMebibytes(64));
            if (host.equals("0.0.0.0") || host.equals("::")) {
                // Every component runs in this process, so they reach each other over loopback.
                config.setAdvertiseAddress(new HostAndPort("127.0.0.1", config.address().port()));
            }
            StoreServer store = new StoreServer(config);
            running.add(store);
            store.start();
            out.printf("  store %-8s address %s  raft %s  status http://%s/%n", "store-" + store.storeId(),
                    store.address(), config.raftAddress(), store.statusAddress());
            out.flush();
        }
    }

    /** Column learners register as stores that take learner replicas only. */
    private void startLearners(List<HostAndPort> placementAddresses, PrintWriter out) {
        for (int i = 0; i < learnerCount; i++) {
            LearnerConfig config = new LearnerConfig()
                    .setDataDir(dataDir.resolve("learner-" + (i + 1)))
                    .setPd(placementAddresses)
                    .setAddress(new HostAndPort(host, LearnerConfig.DEFAULT_PORT + portOffset + 2 * i))
                    .setRaftAddress(new HostAndPort(host, LearnerConfig.DEFAULT_RAFT_PORT + portOffset + 2 * i))
                    .setStatusAddress(new HostAndPort(host, LearnerConfig.DEFAULT_STATUS_PORT + portOffset + i));
            if (host.equals("0.0.0.0") || host.equals("::")) {
                config.setAdvertiseAddress(new HostAndPort("127.0.0.1", config.address().port()));
            }
            LearnerServer learner = new LearnerServer(config);
            running.add(learner);
            learner.start();
            out.printf("  learner %-6s address %s  raft %s  status http://%s/%n", "store-" + learner.storeId(),
                    learner.address(), config.raftAddress(), learner.statusAddress());
            out.flush();
        }
    }

    private int port(int member, int which) {
        return PLACEMENT_BASE_PORT + portOffset + 3 * member + which;
    }

    private void stopAll() {
        List<AutoCloseable> reversed = new ArrayList<>(running);
        Collections.reverse(reversed);
        running.clear();
        for (AutoCloseable component : reversed) {
            try {
                component.close();
            } catch (Exception e) {
                // Keep stopping the rest; each component logs its own failures.
            }
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException error) throws IOException {
                Files.delete(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
