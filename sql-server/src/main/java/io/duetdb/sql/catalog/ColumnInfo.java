package io.duetdb.sql.catalog;

import static java.util.Objects.requireNonNull;

import io.duetdb.sql.types.SqlType;

/**
 * A column: a stable id (never reused in its table; the row codec keys values by it), its position, type and
 * constraints. The default is kept as text in the column's type ({@code defaultValue} null and
 * {@code hasDefault} true means DEFAULT NULL).
 */
public record ColumnInfo(int id, String name, int position, SqlType type, boolean notNull, boolean hasDefault,
        String defaultValue, boolean defaultCurrentTimestamp, boolean autoIncrement, boolean onUpdateCurrentTimestamp,
        String comment, SchemaState state) {
    public ColumnInfo {
        if (id <= 0) {
            throw new IllegalArgumentException("column id must be positive: " + id);
        }
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(comment, "comment is null");
        requireNonNull(state, "state is null");
    }

    public ColumnInfo withPosition(int newPosition) {
        return new ColumnInfo(id, name, newPosition, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state);
    }

    public ColumnInfo withState(SchemaState newState) {
        return new ColumnInfo(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, newState);
    }
}
