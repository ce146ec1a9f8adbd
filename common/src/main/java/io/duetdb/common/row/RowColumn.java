package io.duetdb.common.row;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.types.ColumnType;

/**
 * One column as the row codec sees it: a stable id, never reused within a table, its type, and the value
 * rows written before the column existed read as.
 */
public record RowColumn(int id, ColumnType type, Object defaultValue) {
    public RowColumn {
        if (id <= 0) {
            throw new IllegalArgumentException("column id must be positive: " + id);
        }
        requireNonNull(type, "type is null");
        type.check(defaultValue);
    }

    public static RowColumn of(int id, ColumnType type) {
        return new RowColumn(id, type, null);
    }
}
