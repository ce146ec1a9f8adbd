package io.duetdb.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code duet sql}: one stateless SQL server as its own process. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Run one SQL server (MySQL protocol) for the cluster that placement serves.")
public final class SqlCommand implements Callable<Integer> {
    @Option(names = "--pd", split = ",", paramLabel = "HOST:PORT", converter = HostAndPortConverter.class,
            description = "placement members' client addresses (default 127.0.0.1:2379)")
    List<HostAndPort> pd;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "4000", description = "MySQL protocol port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--status-port", defaultValue = "10080", description = "status port (default: ${DEFAULT-VALUE})")
    int statusPort;

    @Option(names = "--tls-certificate", paramLabel = "PEM", description = "certificate chain for TLS"
            + " (default: a generated self-signed certificate)")
    Path tlsCertificate;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "PKCS#8 private key of --tls-certificate")
    Path tlsKey;

    @Option(names = "--no-tls", description = "do not offer TLS to clients")
    boolean noTls;

    @Option(names = "--default-authentication-plugin", defaultValue = "mysql_native_password",
            description = "plugin of accounts created without IDENTIFIED WITH, and the one the greeting proposes:"
                    + " mysql_native_password or caching_sha2_password (default: ${DEFAULT-VALUE})")
    String defaultAuthenticationPlugin;

    @Option(names = "--max-allowed-packet", defaultValue = "64MiB", paramLabel = "SIZE",
            description = "largest packet a client may send, also @@max_allowed_packet (default: ${DEFAULT-VALUE})")
    String maxAllowedPacket;

    @Option(names = "--schema-lease", defaultValue = "500ms", converter = DurationConverter.class,
            description = "how long a loaded schema stays valid (default: ${DEFAULT-VALUE})")
    java.time.Duration schemaLease;

    @Mixin
    LogOptions logOptions;

    @Option(names = "--log-dir", paramLabel = "DIR", hidden = true, description = "older spelling of --log-file DIR/sql.log")
    Path logDir;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        SqlServerConfig config;
        try {
            config = new SqlServerConfig()
                    .setAddress(new HostAndPort(host, port))
                    .setStatusAddress(new HostAndPort(host, statusPort))
                    .setTls(!noTls)
                    .setTlsCertificate(tlsCertificate, tlsKey)
                    .setSchemaLease(schemaLease)
                    .setMaxAllowedPacket(DataSize.parse(maxAllowedPacket).bytes())
                    .setDefaultAuthenticationPlugin(AuthenticationPlugin.fromName(defaultAuthenticationPlugin)
                            .orElseThrow(() -> new IllegalArgumentException("unknown authentication plugin "
                                    + defaultAuthenticationPlugin)));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (pd != null) {
            config.setPd(pd);
        }
        if (logDir != null && logOptions.logFile == null) {
            logOptions.logFile = logDir.resolve("sql.log");
        }
        logOptions.apply();
        SqlServer server = new SqlServer(config);
        return Foreground.run(server, () -> {
            server.start();
            spec.commandLine().getOut().println("SQL server ready: mysql -h " + server.address().host() + " -P "
                    + server.address().port() + " -u root");
            spec.commandLine().getOut().flush();
        });
    }
}
