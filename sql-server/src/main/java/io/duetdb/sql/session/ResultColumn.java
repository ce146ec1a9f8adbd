package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.types.SqlType;

/** A column of a result set: its label, where it comes from (empty when computed), and its type. */
public record ResultColumn(String label, String database, String table, String originalName, SqlType type,
        boolean notNull) {
    public ResultColumn {
        requireNonNull(label, "label is null");
        requireNonNull(database, "database is null");
        requireNonNull(table, "table is null");
        requireNonNull(originalName, "originalName is null");
        requireNonNull(type, "type is null");
    }

    public static ResultColumn computed(String label, SqlType type) {
        return new ResultColumn(label, "", "", "", type, false);
    }
}
