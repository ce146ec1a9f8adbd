package io.duetdb.testing;

import java.time.Duration;
import java.util.function.Consumer;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;

/** SQL servers for tests: on free loopback ports, talking to an in-process cluster, with a short schema lease. */
public final class LocalSqlServers {
    private static final LoopbackPorts PORTS = new LoopbackPorts();

    private LocalSqlServers() {
    }

    /** Starts a SQL server on {@code cluster}; {@code customise} changes its configuration first. */
    public static SqlServer start(LocalCluster cluster, Consumer<SqlServerConfig> customise) {
        SqlServerConfig config = new SqlServerConfig()
                .setPd(cluster.placement().clientAddresses())
                .setAddress(new HostAndPort("127.0.0.1", PORTS.allocate()))
                .setStatusAddress(new HostAndPort("127.0.0.1", PORTS.allocate()))
                .setSchemaLease(Duration.ofMillis(200));
        customise.accept(config);
        return new SqlServer(config).start();
    }
}
