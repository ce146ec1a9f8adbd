package io.duetdb.sql.metrics;

import java.util.function.DoubleSupplier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** A SQL server's metrics, in its own registry (tests run several servers in one JVM). */
public final class SqlMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    /** Protocol commands received, by command (query, stmt_execute, stmt_prepare, ...). */
    public final Counter commands;
    /** Statements run, by kind (select, insert, update, delete, ddl, other) and outcome (ok, error). */
    public final Counter statements;
    public final Histogram statementSeconds;
    public final Counter connections;
    /** Logins, by plugin, method (native, fast, full, empty) and outcome (ok, denied). */
    public final Counter authentications;
    public final Counter droppedTablesDestroyed;
    /** COM_STMT_PREPARE answered from the session's plan cache (hit) or planned afresh (miss). */
    public final Counter planCache;
    /**
     * Prepared point gets read without a statement thread: answered so, or run on a statement thread after all
     * (the read met a lock, a region error or a failed call).
     */
    public final Counter pointGetsWithoutBlocking;
    /** A DDL step's phases: commit (with this server's reload) and sync (the wait for every other server). */
    public final Histogram ddlStepSeconds;
    /** Index backfill transactions and the rows they indexed. */
    public final Counter backfillBatches;
    public final Counter backfillRows;
    /** DDL steps whose new schema every live server confirmed (confirmed), or that waited two leases (lease). */
    public final Counter ddlSchemaSyncs;

    public SqlMetrics() {
        JvmMetrics.builder().register(registry);
        commands = Counter.builder().name("duet_sql_commands_total").help("MySQL protocol commands received")
                .labelNames("command").register(registry);
        statements = Counter.builder().name("duet_sql_statements_total").help("Statements run, by kind and outcome")
                .labelNames("kind", "outcome").register(registry);
        statementSeconds = Histogram.builder().name("duet_sql_statement_seconds").help("Statement run time")
                .labelNames("kind")
                .classicUpperBounds(0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 5, 30)
                .register(registry);
        connections = Counter.builder().name("duet_sql_connections_total").help("Client connections accepted")
                .register(registry);
        droppedTablesDestroyed = Counter.builder().name("duet_sql_dropped_tables_destroyed_total")
                .help("Dropped or truncated tables whose data was destroyed after the GC safe point").register(registry);
        planCache = Counter.builder().name("duet_sql_plan_cache_total")
                .help("Prepared statements whose plan came from the session's plan cache (hit) or was made (miss)")
                .labelNames("outcome").register(registry);
        pointGetsWithoutBlocking = Counter.builder().name("duet_sql_point_gets_without_blocking_total")
                .help("Prepared point gets read from the protocol's event loop without a statement thread: answered"
                        + " so, or run on a statement thread after all (a lock, a region error, a failed call)")
                .labelNames("outcome").register(registry);
        ddlStepSeconds = Histogram.builder().name("duet_sql_ddl_step_seconds")
                .help("DDL step time by phase: commit (with this server's schema reload) and sync (until every live"
                        + " SQL server has loaded the new schema)")
                .labelNames("phase")
                .classicUpperBounds(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)
                .register(registry);
        ddlSchemaSyncs = Counter.builder().name("duet_sql_ddl_schema_syncs_total")
                .help("DDL steps by how their wait for the other SQL servers ended: confirmed by every live server,"
                        + " or the full two leases")
                .labelNames("outcome").register(registry);
        backfillBatches = Counter.builder().name("duet_sql_ddl_backfill_batches_total")
                .help("Index backfill transactions (tidb_ddl_reorg_batch_size rows each)").register(registry);
        backfillRows = Counter.builder().name("duet_sql_ddl_backfill_rows_total")
                .help("Rows indexed by index backfills").register(registry);
        authentications = Counter.builder().name("duet_sql_authentications_total")
                .help("Client logins, by authentication plugin, method and outcome")
                .labelNames("plugin", "method", "outcome").register(registry);
    }

    public void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(callback -> callback.call(value.getAsDouble())).register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
