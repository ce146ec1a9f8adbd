package io.duetdb.sql.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.ServiceSafePoint;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.variables.GoDurations;
import io.duetdb.sql.variables.TidbVariables;

/**
 * Makes SET GLOBAL tidb_gc_life_time hold back garbage collection, as tools that read old snapshots (dumps,
 * backups) expect: while the global value is set, a service safe point trails the oracle's time by it, so the GC
 * safe point (placement's min of now minus its own gc-life-time and the service safe points) stays at least that far
 * behind (versions already collected stay collected). A shorter value than placement's gc-life-time cannot
 * shorten it. Every SQL server keeps the same safe point; it expires a minute after the last server stopped
 * refreshing it.
 */
final class GcLifeTimeKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GcLifeTimeKeeper.class);
    static final String SERVICE_ID = "duet-sql-" + TidbVariables.GC_LIFE_TIME;
    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final long TTL_SECONDS = 60;

    private final Catalog catalog;
    private final PlacementClient placement;
    private final ScheduledExecutorService scheduler;
    private volatile long heldLifeTimeMillis = -1;

    GcLifeTimeKeeper(Catalog catalog, PlacementClient placement, String node) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.placement = requireNonNull(placement, "placement is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("sql", node, "gc-life-time"));
        scheduler.scheduleWithFixedDelay(this::refreshQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.info("tidb_gc_life_time's safe point not refreshed this round: {}", e.toString());
        }
    }

    /** One round: holds the service safe point at now minus the global value, or drops it when none is set. */
    void refresh() {
        String value = catalog.current().globalVariables().get(TidbVariables.GC_LIFE_TIME);
        OptionalLong lifeTime = value == null ? OptionalLong.empty() : GoDurations.parseMillis(value);
        if (lifeTime.isEmpty()) {
            if (heldLifeTimeMillis >= 0) {
                placement.updateServiceSafePoint(SERVICE_ID, 0, 0);
                LOG.info("tidb_gc_life_time unset: garbage collection follows placement's gc-life-time again");
                heldLifeTimeMillis = -1;
            }
            return;
        }
        long now = placement.getTimestamp().physical();
        GetGcSafePointResponse gc = placement.getGcSafePoint();
        // Versions already collected stay collected, and a point held stays held (servers refresh it in turn):
        // the safe point never goes below placement's or the one in place.
        long held = gc.getServiceSafePointsList().stream().filter(point -> point.getServiceId().equals(SERVICE_ID))
                .mapToLong(ServiceSafePoint::getSafePoint).max().orElse(0);
        long safePoint = Math.max(Math.max(gc.getSafePoint(), held),
                new Timestamp(Math.max(0, now - lifeTime.getAsLong()), 0).packed());
        placement.updateServiceSafePoint(SERVICE_ID, safePoint, TTL_SECONDS);
        if (heldLifeTimeMillis != lifeTime.getAsLong()) {
            LOG.info("tidb_gc_life_time {}: garbage collection keeps versions at least that long", value);
            heldLifeTimeMillis = lifeTime.getAsLong();
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
