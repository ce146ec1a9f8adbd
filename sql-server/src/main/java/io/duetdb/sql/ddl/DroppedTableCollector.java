package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DroppedTable;
import io.duetdb.sql.metrics.SqlMetrics;

/**
 * Destroys the rows and index entries of dropped and truncated tables (TiDB's delete-range worker): once the GC
 * safe point has passed the moment a table's drop was first seen, no snapshot can read it any more, and its
 * whole key range is deleted from every column family, region by region. Every server runs one; they may race
 * on a table harmlessly.
 */
public final class DroppedTableCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DroppedTableCollector.class);

    private final Catalog catalog;
    private final PlacementClient placement;
    private final RawKvClient kv;
    private final SqlMetrics metrics;
    private final ScheduledExecutorService scheduler;
    /** Drops the temporary tables that sessions of servers gone left behind (their data then goes as here). */
    private final Runnable orphanedTemporaryTables;

    public DroppedTableCollector(Catalog catalog, PlacementClient placement, SqlMetrics metrics, Duration interval,
            String node, Runnable orphanedTemporaryTables) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.orphanedTemporaryTables = requireNonNull(orphanedTemporaryTables, "orphanedTemporaryTables is null");
        this.kv = new RawKvClient(placement);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("sql", node, "dropped-tables"));
        long millis = requireNonNull(interval, "interval is null").toMillis();
        scheduler.scheduleWithFixedDelay(this::collectQuietly, millis, millis, TimeUnit.MILLISECONDS);
    }

    private void collectQuietly() {
        try {
            collect();
        } catch (RuntimeException e) {
            LOG.info("dropped table data not collected this round: {}", e.toString());
        }
    }

    /** One round: destroys the data of every dropped table the safe point has passed. */
    public void collect() {
        orphanedTemporaryTables.run();
        long safePoint = placement.getGcSafePoint().getSafePoint();
        for (DroppedTable dropped : catalog.observeDroppedTables()) {
            if (catalog.current().table(dropped.tableId()).isPresent()) {
                // Renamed, not dropped: its data stays.
                catalog.forgetDroppedTable(dropped.tableId());
                continue;
            }
            if (dropped.observedTs() == 0 || dropped.observedTs() >= safePoint) {
                continue;
            }
            kv.destroyTransactionalRange(Keys.tablePrefix(dropped.tableId()), Keys.tableEnd(dropped.tableId()));
            catalog.forgetDroppedTable(dropped.tableId());
            metrics.droppedTablesDestroyed.inc();
            LOG.info("destroyed the data of dropped table {} (GC safe point {} passed its drop)", dropped.tableId(), safePoint);
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        kv.close();
    }
}
