package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.types.SqlType;

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

    /**
     * The stored value rows written before this column existed read as: its default, or for a NOT NULL column
     * without one the type's zero value (as MySQL fills an added column).
     */
    public Object originDefault() {
        if (defaultValue == null) {
            if (!notNull || defaultCurrentTimestamp) {
                return null;
            }
            return switch (type.storageType()) {
                case INT64, UINT64 -> 0L;
                case FLOAT32 -> 0f;
                case FLOAT64 -> 0d;
                case DECIMAL -> java.math.BigDecimal.ZERO.setScale(type.scale());
                case STRING -> "";
                case BYTES -> new byte[0];
                case DATE -> java.time.LocalDate.of(1970, 1, 1);
                case DATETIME, TIMESTAMP -> java.time.LocalDateTime.of(1970, 1, 1, 0, 0);
                case TIME -> java.time.Duration.ZERO;
            };
        }
        return switch (type.storageType()) {
            case INT64 -> Long.parseLong(defaultValue);
            case UINT64 -> Long.parseUnsignedLong(defaultValue);
            case FLOAT32 -> Float.parseFloat(defaultValue);
            case FLOAT64 -> Double.parseDouble(defaultValue);
            case DECIMAL -> new java.math.BigDecimal(defaultValue);
            case STRING -> defaultValue;
            case BYTES -> defaultValue.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case DATE -> java.time.LocalDate.parse(defaultValue);
            case DATETIME, TIMESTAMP -> java.time.LocalDateTime.parse(defaultValue.replace(' ', 'T'));
            case TIME -> null;
        };
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
