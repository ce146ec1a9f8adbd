package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

/**
 * The session's settings a DDL statement follows: tidb_enable_clustered_index for a primary key that says neither
 * CLUSTERED nor NONCLUSTERED, foreign_key_checks for the checks of foreign keys created, and of tables dropped or
 * truncated while others reference them, and the session's row completion for a generated column added to a table
 * with rows.
 */
public record DdlSettings(ClusteredIndexDefault clusteredIndexDefault, boolean foreignKeyChecks,
        RowCompletion rowCompletion) {
    public static final DdlSettings DEFAULT = new DdlSettings(ClusteredIndexDefault.ON, true, RowCompletion.UNAVAILABLE);

    public DdlSettings {
        requireNonNull(clusteredIndexDefault, "clusteredIndexDefault is null");
        requireNonNull(rowCompletion, "rowCompletion is null");
    }
}
