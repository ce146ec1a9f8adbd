package io.duetdb.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.store.StoreConfig;
import io.duetdb.store.StoreServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code duet store}: one storage node as its own process. */
@Command(name = "store", mixinStandardHelpOptions = true,
        description = "Run one storage node (a multi-Raft row store) that joins the cluster through placement.")
public final class StoreCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "TOML config file (see docs/configuration.md)")
    Path config;

    @Option(names = "--pd", split = ",", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class,
            description = "placement members' client addresses")
    List<HostAndPort> pd;

    @Option(names = "--data-dir", paramLabel = "DIR")
    Path dataDir;

    @Option(names = "--host", description = "address to listen on (default 127.0.0.1)")
    String host;

    @Option(names = "--port", description = "gRPC port (default 20160); the Raft port defaults to it + 10, status to + 20")
    Integer port;

    @Option(names = "--raft-port")
    Integer raftPort;

    @Option(names = "--status-port")
    Integer statusPort;

    @Option(names = "--advertise-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class)
    HostAndPort advertiseAddress;

    @Option(names = "--labels", split = ",", paramLabel = "KEY=VALUE", description = "store labels, e.g. zone=z1")
    Map<String, String> labels;

    @Option(names = "--print-config", description = "print the effective configuration as TOML and exit")
    boolean printConfig;

    @Mixin
    LogOptions logOptions;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        StoreConfig effective = effectiveConfig();
        if (printConfig) {
            System.out.print(ConfigFiles.toToml(effective));
            return 0;
        }
        logOptions.apply();
        StoreServer server = new StoreServer(effective);
        return Foreground.run(server, server::start);
    }

    StoreConfig effectiveConfig() {
        StoreConfig effective = config == null ? new StoreConfig() : ConfigFiles.load(config, new StoreConfig());
        if (pd != null) {
            effective.setPd(pd);
        }
        if (dataDir != null) {
            effective.setDataDir(dataDir);
        }
        String bindHost = host != null ? host : effective.address().host();
        if (port != null) {
            effective.setAddress(new HostAndPort(bindHost, port));
            effective.setRaftAddress(new HostAndPort(bindHost, raftPort != null ? raftPort : port + 10));
            effective.setStatusAddress(new HostAndPort(bindHost, statusPort != null ? statusPort : port + 20));
        } else if (host != null) {
            effective.setAddress(new HostAndPort(host, effective.address().port()));
            effective.setRaftAddress(new HostAndPort(host, effective.raftAddress().port()));
            effective.setStatusAddress(new HostAndPort(host, effective.statusAddress().port()));
        }
        if (raftPort != null) {
            effective.setRaftAddress(new HostAndPort(bindHost, raftPort));
        }
        if (statusPort != null) {
            effective.setStatusAddress(new HostAndPort(bindHost, statusPort));
        }
        if (advertiseAddress != null) {
            effective.setAdvertiseAddress(advertiseAddress);
        }
        if (labels != null) {
            effective.setLabels(new LinkedHashMap<>(labels));
        }
        return effective.validate();
    }
}
