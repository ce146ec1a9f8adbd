package io.duetdb.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.learner.LearnerConfig;
import io.duetdb.learner.LearnerServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code duet learner}: one column learner as its own process. */
@Command(name = "learner", mixinStandardHelpOptions = true,
        description = "Run one column learner: a store of non-voting replicas that replay regions' Raft logs for analytics.")
public final class LearnerCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "TOML config file (see docs/configuration.md)")
    Path config;

    @Option(names = "--pd", split = ",", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class,
            description = "placement members' client addresses")
    List<HostAndPort> pd;

    @Option(names = "--data-dir", paramLabel = "DIR")
    Path dataDir;

    @Option(names = "--host", description = "address to listen on (default 127.0.0.1)")
    String host;

    @Option(names = "--port", description = "service port (default 3930); the Raft port defaults to it + 1")
    Integer port;

    @Option(names = "--raft-port")
    Integer raftPort;

    @Option(names = "--status-port", description = "status port (default 20292)")
    Integer statusPort;

    @Option(names = "--advertise-address", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class)
    HostAndPort advertiseAddress;

    @Option(names = "--labels", split = ",", paramLabel = "KEY=VALUE", description = "store labels, e.g. zone=z1")
    Map<String, String> labels;

    @Option(names = "--print-config", description = "print the effective configuration as TOML and exit")
    boolean printConfig;

    @Mixin
    LogOptions logOptions;

    @Override
    public Integer call() throws InterruptedException {
        LearnerConfig effective = effectiveConfig();
        if (printConfig) {
            System.out.print(ConfigFiles.toToml(effective));
            return 0;
        }
        logOptions.apply();
        LearnerServer server = new LearnerServer(effective);
        return Foreground.run(server, server::start);
    }

    LearnerConfig effectiveConfig() {
        LearnerConfig effective = config == null ? new LearnerConfig() : ConfigFiles.load(config, new LearnerConfig());
        if (pd != null) {
            effective.setPd(pd);
        }
        if (dataDir != null) {
            effective.setDataDir(dataDir);
        }
        String bindHost = host != null ? host : effective.address().host();
        if (port != null || host != null) {
            int servicePort = port != null ? port : effective.address().port();
            effective.setAddress(new HostAndPort(bindHost, servicePort));
            effective.setRaftAddress(new HostAndPort(bindHost, port != null ? servicePort + 1 : effective.raftAddress().port()));
            effective.setStatusAddress(new HostAndPort(bindHost, effective.statusAddress().port()));
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
