package io.duetdb.sql.ddl;

import java.util.Locale;

/**
 * tidb_enable_clustered_index: whether a primary key that says neither CLUSTERED nor NONCLUSTERED keys its table's
 * rows. ON clusters every primary key, INT_ONLY only a single integer column, OFF none.
 */
public enum ClusteredIndexDefault {
    ON, OFF, INT_ONLY;

    public static final String VARIABLE = "tidb_enable_clustered_index";

    /** The setting a variable value names; anything unknown is ON, the variable's default. */
    public static ClusteredIndexDefault of(Object value) {
        String text = value == null ? "" : String.valueOf(value).toUpperCase(Locale.ROOT);
        return switch (text) {
            case "OFF", "0" -> OFF;
            case "INT_ONLY" -> INT_ONLY;
            default -> ON;
        };
    }

    /** Whether a primary key (a single integer column or not) is clustered when it does not say. */
    boolean clusters(boolean integerKey) {
        return this == ON || this == INT_ONLY && integerKey;
    }
}
