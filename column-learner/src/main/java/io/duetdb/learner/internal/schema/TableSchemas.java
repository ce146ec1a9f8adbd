package io.duetdb.learner.internal.schema;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table schemas a learner decodes rows with (TiFlash's schema syncer): kept from the catalog, brought up to
 * date regularly (when the catalog's schema version moved) and compulsively (at once, when a row names a table or
 * column the copy does not know: a schema change the regular check has not seen yet).
 */
public final class TableSchemas {
    private static final Logger LOG = LoggerFactory.getLogger(TableSchemas.class);

    private final SchemaSource source;
    private volatile long version = -1;
    private volatile Map<Long, TableSchema> tables = Map.of();
    private volatile long loads;

    public TableSchemas(SchemaSource source) {
        this.source = requireNonNull(source, "source is null");
    }

    /** The known schema of a table, without asking the catalog. */
    public Optional<TableSchema> cached(long tableId) {
        return Optional.ofNullable(tables.get(tableId));
    }

    /** The schema of a table, loading the catalog first when it has never been loaded. */
    public Optional<TableSchema> table(long tableId) {
        if (version < 0) {
            reload("first use");
        }
        return cached(tableId);
    }

    /** Regular sync: reloads when the catalog's schema version differs from the copy's. */
    public synchronized void sync() {
        long current = source.schemaVersion();
        if (current != version) {
            reload("schema version " + version + " -> " + current);
        }
    }

    /** Compulsive sync: a row did not decode with the copy; reloads unless the catalog has not changed since. */
    public synchronized Optional<TableSchema> refresh(long tableId, String why) {
        long current = source.schemaVersion();
        if (current != version || version < 0) {
            reload(why);
        }
        return cached(tableId);
    }

    public long version() {
        return version;
    }

    public long loads() {
        return loads;
    }

    private synchronized void reload(String why) {
        long before = source.schemaVersion();
        Map<Long, TableSchema> loaded = Map.copyOf(source.tables());
        tables = loaded;
        version = before;
        loads++;
        LOG.info("loaded {} table schemas at schema version {} ({})", loaded.size(), before, why);
    }
}
