package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

/**
 * The session's settings a DDL statement follows: tidb_enable_clustered_index for a primary key that says neither
 * CLUSTERED nor NONCLUSTERED, and foreign_key_checks for the checks of foreign keys created, and of tables dropped or
 * truncated while others reference them.
 */
public record DdlSettings(ClusteredIndexDefault clusteredIndexDefault, boolean foreignKeyChecks) {
    public static final DdlSettings DEFAULT = new DdlSettings(ClusteredIndexDefault.ON, true);

    public DdlSettings {
        requireNonNull(clusteredIndexDefault, "clusteredIndexDefault is null");
    }
}
