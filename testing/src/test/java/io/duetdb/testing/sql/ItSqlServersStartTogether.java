package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.LoopbackPorts;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.server.SqlServer;
import io.duetdb.sql.server.SqlServerConfig;
import io.duetdb.testing.LocalCluster;
import io.duetdb.testing.StatusPorts;

/**
 * Three SQL servers started together on a cluster that has no store yet: they wait, say what for on their
 * status ports, and once stores come exactly one of them bootstraps the catalog; all three then serve it.
 */
class ItSqlServersStartTogether {
    private static final LoopbackPorts PORTS = new LoopbackPorts();

    @TempDir
    Path root;

    @Test
    void serversStartedBeforeAnyStoreWaitAndExactlyOneBootstrapsTheCatalog() throws Exception {
        Logger catalogLog = (Logger) LoggerFactory.getLogger(Catalog.class);
        ListAppender<ILoggingEvent> catalogLines = new ListAppender<>();
        catalogLines.start();
        catalogLog.addAppender(catalogLines);
        List<SqlServer> servers = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(3);
        try (LocalCluster cluster = new LocalCluster(root, 1, config -> { }, config -> { }).start(0)) {
            List<CompletableFuture<SqlServer>> starting = new ArrayList<>();
            List<Integer> statusPorts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int statusPort = PORTS.allocate();
                statusPorts.add(statusPort);
                SqlServer server = new SqlServer(new SqlServerConfig()
                        .setPd(cluster.placement().clientAddresses())
                        .setAddress(new HostAndPort("127.0.0.1", PORTS.allocate()))
                        .setStatusAddress(new HostAndPort("127.0.0.1", statusPort))
                        .setSchemaLease(Duration.ofMillis(200)));
                servers.add(server);
                starting.add(CompletableFuture.supplyAsync(server::start, starters));
            }
            for (int statusPort : statusPorts) {
                LocalCluster.await("a status port saying the server waits for the cluster bootstrap",
                        Duration.ofSeconds(120), () -> StatusPorts.state(new HostAndPort("127.0.0.1", statusPort))
                                .filter("waiting: cluster bootstrap"::equals).isPresent());
            }
            assertThat(servers).noneMatch(SqlServer::isServing);

            for (int i = 0; i < 3; i++) {
                cluster.addStore();
            }
            for (CompletableFuture<SqlServer> server : starting) {
                server.get(120, TimeUnit.SECONDS);
            }
            assertThat(StatusPorts.state(new HostAndPort("127.0.0.1", statusPorts.get(0)))).hasValue("serving");
            for (SqlServer server : servers) {
                try (Connection connection = DriverManager.getConnection("jdbc:mysql://" + server.address()
                        + "/test?user=root&useSSL=false"); Statement statement = connection.createStatement()) {
                    assertThat(SqlTesting.rows(statement, "SHOW DATABASES")).containsOnlyOnce("test");
                }
            }
            assertThat(catalogLines.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(line -> line.startsWith("Catalog bootstrapped")))
                    .containsExactlyInAnyOrder("Catalog bootstrapped: account 'root'@'%' created without a password",
                            "Catalog bootstrapped: database test created");
            servers.forEach(SqlServer::close);
        } finally {
            servers.forEach(SqlServer::close);
            starters.shutdownNow();
            catalogLog.detachAppender(catalogLines);
        }
    }
}
