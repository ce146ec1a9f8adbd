package io.duetdb.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.placement.PlacementConfig;
import io.duetdb.placement.PlacementServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code duet pd}: one placement member as its own process. */
@Command(name = "pd", mixinStandardHelpOptions = true,
        description = "Run one placement driver member (timestamps, ids, region map, scheduling).")
public final class PdCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "TOML config file (see docs/configuration.md)")
    Path config;

    @Option(names = "--name", description = "member name, listed in --initial-cluster")
    String name;

    @Option(names = "--data-dir", paramLabel = "DIR")
    Path dataDir;

    @Option(names = "--client-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class)
    HostAndPort clientAddress;

    @Option(names = "--advertise-client-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class,
            description = "the client address other hosts use, when listening on 0.0.0.0")
    HostAndPort advertiseClientAddress;

    @Option(names = "--peer-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class)
    HostAndPort peerAddress;

    @Option(names = "--status-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class)
    HostAndPort statusAddress;

    @Option(names = "--initial-cluster", split = ",", paramLabel = "NAME=HOST:PORT",
            description = "every member's name and peer address, comma-separated")
    List<String> initialCluster;

    @Option(names = "--print-config", description = "print the effective configuration as TOML and exit")
    boolean printConfig;

    @Mixin
    LogOptions logOptions;

    @Override
    public Integer call() throws InterruptedException {
        PlacementConfig effective = effectiveConfig();
        if (printConfig) {
            System.out.print(ConfigFiles.toToml(effective));
            return 0;
        }
        logOptions.apply();
        PlacementServer server = new PlacementServer(effective);
        return Foreground.run(server, server::start);
    }

    PlacementConfig effectiveConfig() {
        PlacementConfig effective = config == null ? new PlacementConfig() : ConfigFiles.load(config, new PlacementConfig());
        if (name != null) {
            effective.setName(name);
            if (dataDir == null && config == null) {
                effective.setDataDir(Path.of("data", name));
            }
        }
        if (dataDir != null) {
            effective.setDataDir(dataDir);
        }
        if (clientAddress != null) {
            effective.setClientAddress(clientAddress);
        }
        if (advertiseClientAddress != null) {
            effective.setAdvertiseClientAddress(advertiseClientAddress);
        }
        if (peerAddress != null) {
            effective.setPeerAddress(peerAddress);
        }
        if (statusAddress != null) {
            effective.setStatusAddress(statusAddress);
        }
        if (initialCluster != null) {
            effective.setInitialCluster(initialCluster);
        } else if (config == null && (name != null || peerAddress != null)) {
            effective.setInitialCluster(List.of(effective.name() + "=" + effective.peerAddress()));
        }
        return effective.validate();
    }
}
