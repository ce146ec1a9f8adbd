package io.duetdb.sql.statistics;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.variables.TidbVariables;

/**
 * The statistics this SQL server plans with: every table's, loaded from the catalog at start and refreshed
 * periodically (another server may have analyzed a table) and at once after a local ANALYZE.
 */
public final class StatisticsCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsCache.class);
    private static final java.time.Duration REFRESH_INTERVAL = java.time.Duration.ofSeconds(10);
    private java.util.concurrent.ScheduledExecutorService refresher;

    private final Catalog catalog;
    private final ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private volatile Map<Long, TableStatistics> tables = Map.of();
    private final java.util.concurrent.ConcurrentMap<Long, java.util.concurrent.atomic.LongAdder> modifications =
            new java.util.concurrent.ConcurrentHashMap<>();
    static final double AUTO_ANALYZE_RATIO = 0.5;
    static final long AUTO_ANALYZE_MINIMUM_ROWS = 1000;

    public StatisticsCache(Catalog catalog) {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    /** Loads the statistics now and then every few seconds. */
    public synchronized void start(String serverName, Runnable afterRefresh) {
        if (refresher != null) {
            return;
        }
        refresher = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                new io.duetdb.common.concurrent.NamedThreadFactory("sql", serverName, "statistics"));
        refresher.scheduleWithFixedDelay(() -> {
            try {
                refresh();
                afterRefresh.run();
            } catch (RuntimeException e) {
                LOG.info("could not refresh or update table statistics: {}", e.getMessage());
            }
        }, 0, REFRESH_INTERVAL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }

    public Map<Long, TableStatistics> all() {
        return tables;
    }

    /** Counts rows this server's statements wrote in a table since its last analysis. */
    public void recordModifications(long tableId, long rows) {
        if (rows > 0) {
            modifications.computeIfAbsent(tableId, id -> new java.util.concurrent.atomic.LongAdder()).add(rows);
        }
    }

    public long modifyCount(long tableId) {
        java.util.concurrent.atomic.LongAdder count = modifications.get(tableId);
        return count == null ? 0 : count.sum();
    }

    /**
     * The tables due for automatic analysis: written rows reaching a share of the analyzed row count
     * (tidb_auto_analyze_ratio, half by default), or {@link #AUTO_ANALYZE_MINIMUM_ROWS} rows for a table never analyzed.
     */
    public java.util.List<Long> dueForAnalysis() {
        java.util.List<Long> due = new java.util.ArrayList<>();
        double ratio = autoAnalyzeRatio();
        modifications.forEach((tableId, count) -> {
            TableStatistics analyzed = tables.get(tableId);
            long threshold = analyzed == null ? AUTO_ANALYZE_MINIMUM_ROWS
                    : Math.max(AUTO_ANALYZE_MINIMUM_ROWS, (long) (analyzed.rowCount() * ratio));
            if (count.sum() >= threshold) {
                due.add(tableId);
            }
        });
        return due;
    }

    /** SET GLOBAL tidb_auto_analyze_ratio's value, else TiDB's default. */
    private double autoAnalyzeRatio() {
        String value = catalog.current().globalVariables().get(TidbVariables.AUTO_ANALYZE_RATIO);
        return value == null ? AUTO_ANALYZE_RATIO : Double.parseDouble(value);
    }

    /** Planning's view of these statistics. */
    public io.duetdb.sql.prepare.DuetTable.StatisticsSource estimates() {
        return new StatisticsEstimates(this::table);
    }

    public Optional<TableStatistics> table(long tableId) {
        return Optional.ofNullable(tables.get(tableId));
    }

    public void refresh() {
        Map<Long, TableStatistics> loaded = new HashMap<>();
        for (byte[] value : catalog.statistics()) {
            try {
                TableStatistics statistics = json.readValue(value, TableStatistics.class);
                loaded.put(statistics.tableId(), statistics);
            } catch (IOException e) {
                LOG.info("skipping unreadable table statistics: {}", e.getMessage());
            }
        }
        tables = Map.copyOf(loaded);
    }

    void store(TableStatistics statistics) {
        try {
            catalog.putStatistics(statistics.tableId(), json.writeValueAsBytes(statistics));
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the statistics of table " + statistics.tableId(), e);
        }
        Map<Long, TableStatistics> updated = new HashMap<>(tables);
        updated.put(statistics.tableId(), statistics);
        tables = Map.copyOf(updated);
        modifications.remove(statistics.tableId());
    }
}
