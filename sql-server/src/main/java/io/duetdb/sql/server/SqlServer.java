package io.duetdb.sql.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.build.BuildInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.net.ListenAddresses;
import io.duetdb.common.status.Readiness;
import io.duetdb.common.status.StatusServer;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.metrics.SqlMetrics;
import io.duetdb.sql.protocol.MySqlProtocolServer;
import io.duetdb.sql.protocol.TlsContexts;
import io.duetdb.sql.session.ServerSettings;
import io.duetdb.sql.session.SessionManager;
import io.netty.handler.ssl.SslContext;

/**
 * A stateless SQL server: MySQL clients on one port, Prometheus metrics and JSON status on another. It keeps no
 * data of its own; several can serve one cluster at once. Started before the rest of the cluster, it waits
 * (status port up, MySQL port not yet) until the cluster and its catalog are there.
 */
public final class SqlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqlServer.class);
    /** What clients read as the server version: MySQL 8.0 for their feature checks, then DuetDB's own. */
    public static final String SERVER_VERSION = "8.0.11-DuetDB-" + BuildInfo.version();
    private static final String COMPONENT = "sql";
    private static final Duration READINESS_CHECK = Duration.ofMillis(500);

    private final SqlServerConfig config;
    private final Readiness readiness = new Readiness(LOG);
    private GrpcPlacementClient placement;
    private TxnClient client;
    private ExecutorService statementExecutor;
    private volatile MySqlProtocolServer protocolServer;
    private StatusServer statusServer;
    private SessionManager sessions;
    private Catalog catalog;
    private io.duetdb.sql.ddl.DroppedTableCollector droppedTables;
    private GcLifeTimeKeeper gcLifeTime;

    public SqlServer(SqlServerConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    /** Returns once the server serves; a bad configuration throws at once, a cluster not there yet is waited for. */
    public SqlServer start() {
        MDC.put(NamedThreadFactory.MDC_COMPONENT, COMPONENT);
        MDC.put(NamedThreadFactory.MDC_NODE, config.address().toString());
        try {
            SslContext tls = config.tls() ? TlsContexts.forServer(config.tlsCertificate(), config.tlsKey()) : null;
            ListenAddresses.requireFree(config.address(), "MySQL protocol address");
            SqlMetrics metrics = new SqlMetrics();
            statusServer = new StatusServer(COMPONENT, config.address().toString(), config.statusAddress(),
                    metrics.registry(), this::status);
            statusServer.start();
            placement = new GrpcPlacementClient(PlacementClientConfig.of(config.pd()), "sql-server");
            client = new TxnClient(placement);
            catalog = new Catalog(client, config.schemaLease(), config.address().toString(),
                    (commit, sync, result) -> {
                        metrics.ddlStepSeconds.labelValues("commit").observe(commit.toNanos() / 1e9);
                        metrics.ddlStepSeconds.labelValues("sync").observe(sync.toNanos() / 1e9);
                        metrics.ddlSchemaSyncs.labelValues(result.confirmed() ? "confirmed" : "lease").inc();
                    });
            readiness.await(new ClusterReadiness(config.pd(), placement, catalog, readiness), READINESS_CHECK);
            sessions = new SessionManager(client, catalog, SERVER_VERSION, metrics,
                    new ServerSettings(config.maxAllowedPacket(), config.defaultAuthenticationPlugin(),
                            config.backfillBatchSize()));
            statementExecutor = new ThreadPoolExecutor(0, 4096, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                    new NamedThreadFactory("sql", config.address().toString(), "statement"));
            protocolServer = new MySqlProtocolServer(config.address(), sessions, statementExecutor,
                    config.maxAllowedPacket(), SERVER_VERSION, tls);
            protocolServer.start();
            sessions.statistics().start(protocolServer.boundAddress().toString(), sessions::analyzeModifiedTables);
            droppedTables = new io.duetdb.sql.ddl.DroppedTableCollector(catalog, placement, metrics,
                    config.droppedTableCheckInterval(), protocolServer.boundAddress().toString(),
                    sessions::dropOrphanedTemporaryTables);
            gcLifeTime = new GcLifeTimeKeeper(catalog, placement, protocolServer.boundAddress().toString());
            readiness.serving();
            LOG.info("SQL server started: MySQL protocol on {}, status on {}", protocolServer.boundAddress(),
                    statusServer.boundAddress());
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        } finally {
            MDC.remove(NamedThreadFactory.MDC_COMPONENT);
            MDC.remove(NamedThreadFactory.MDC_NODE);
        }
    }

    public HostAndPort address() {
        return protocolServer.boundAddress();
    }

    public HostAndPort statusAddress() {
        return statusServer.boundAddress();
    }

    private Object status() {
        Map<String, Object> status = new LinkedHashMap<>(readiness.status());
        status.put("component", COMPONENT);
        status.put("version", SERVER_VERSION);
        MySqlProtocolServer listening = protocolServer;
        status.put("address", (listening != null ? listening.boundAddress() : config.address()).toString());
        return status;
    }

    /** Whether the server serves MySQL clients (it has stopped waiting for the cluster). */
    public boolean isServing() {
        return readiness.isServing();
    }

    /** Stops the server, also while it still waits for the cluster. */
    @Override
    public void close() {
        readiness.stop();
        synchronized (this) {
            closeResources();
        }
    }

    private void closeResources() {
        if (sessions != null) {
            sessions.statistics().close();
        }
        if (droppedTables != null) {
            droppedTables.close();
            droppedTables = null;
        }
        if (gcLifeTime != null) {
            gcLifeTime.close();
            gcLifeTime = null;
        }
        if (statusServer != null) {
            statusServer.close();
            statusServer = null;
        }
        if (protocolServer != null) {
            protocolServer.close();
            protocolServer = null;
        }
        if (statementExecutor != null) {
            statementExecutor.shutdownNow();
            statementExecutor = null;
        }
        if (catalog != null) {
            catalog.close();
            catalog = null;
        }
        if (client != null) {
            client.close();
            client = null;
        }
        if (placement != null) {
            placement.close();
            placement = null;
        }
        LOG.info("SQL server stopped");
    }
}
