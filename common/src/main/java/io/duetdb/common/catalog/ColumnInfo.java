package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.types.SqlType;

/**
 * A column: a stable id (never reused in its table; the row codec keys values by it), its position, type and
 * constraints. The default is kept as text in the column's type ({@code defaultValue} null and
 * {@code hasDefault} true means DEFAULT NULL).
 * <p>
 * Rows written before the column was added lack it and read its origin default: the default it was added with.
 * That is derived from the definition until the definition changes (SET DEFAULT, MODIFY); from then on it is
 * kept as it was ({@code originFrozen}, {@code originValue} its text or null), so that old rows keep their values.
 */
public record ColumnInfo(int id, String name, int position, SqlType type, boolean notNull, boolean hasDefault,
        String defaultValue, boolean defaultCurrentTimestamp, boolean autoIncrement, boolean onUpdateCurrentTimestamp,
        String comment, SchemaState state, boolean originFrozen, String originValue, ColumnExpression expression) {
    public ColumnInfo(int id, String name, int position, SqlType type, boolean notNull, boolean hasDefault,
            String defaultValue, boolean defaultCurrentTimestamp, boolean autoIncrement,
            boolean onUpdateCurrentTimestamp, String comment, SchemaState state, boolean originFrozen,
            String originValue) {
        this(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp, autoIncrement,
                onUpdateCurrentTimestamp, comment, state, originFrozen, originValue, null);
    }

    public ColumnInfo(int id, String name, int position, SqlType type, boolean notNull, boolean hasDefault,
            String defaultValue, boolean defaultCurrentTimestamp, boolean autoIncrement,
            boolean onUpdateCurrentTimestamp, String comment, SchemaState state) {
        this(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp, autoIncrement,
                onUpdateCurrentTimestamp, comment, state, false, null);
    }

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
        if (originFrozen) {
            return originValue == null ? null : parse(originValue);
        }
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
        return parse(defaultValue);
    }

    /** A stored value of this column's type from its text (a default as the catalog keeps it). */
    private Object parse(String text) {
        return switch (type.storageType()) {
            case INT64 -> Long.parseLong(text);
            case UINT64 -> Long.parseUnsignedLong(text);
            case FLOAT32 -> Float.parseFloat(text);
            case FLOAT64 -> Double.parseDouble(text);
            case DECIMAL -> new java.math.BigDecimal(text);
            case STRING -> text;
            case BYTES -> text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case DATE -> java.time.LocalDate.parse(text);
            case DATETIME, TIMESTAMP -> java.time.LocalDateTime.parse(text.replace(' ', 'T'));
            case TIME -> null;
        };
    }

    /**
     * This column with {@code origin}'s origin default kept (the column it replaces): a changed default or
     * nullability must not change what rows that lack the column read.
     */
    public ColumnInfo withOriginOf(ColumnInfo origin) {
        Object value = origin.originDefault();
        String text;
        if (value == null) {
            text = null;
        } else if (value instanceof byte[] bytes) {
            text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        } else if (value instanceof java.math.BigDecimal decimal) {
            text = decimal.toPlainString();
        } else if (value instanceof Long number && type.storageType() == io.duetdb.common.types.ColumnType.UINT64) {
            text = Long.toUnsignedString(number);
        } else {
            text = value.toString();
        }
        return new ColumnInfo(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state, true, text, expression);
    }

    /** Whether the column is GENERATED ALWAYS AS an expression (VIRTUAL or STORED). */
    public boolean generated() {
        return expression != null && expression.generated();
    }

    /** The column's DEFAULT (expression), or null when its default is none, a literal or the clock. */
    public ColumnExpression defaultExpression() {
        return expression != null && !expression.generated() ? expression : null;
    }

    public ColumnInfo withExpression(ColumnExpression newExpression) {
        return new ColumnInfo(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state, originFrozen, originValue, newExpression);
    }

    public ColumnInfo withPosition(int newPosition) {
        return new ColumnInfo(id, name, newPosition, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state, originFrozen, originValue, expression);
    }

    public ColumnInfo withState(SchemaState newState) {
        return new ColumnInfo(id, name, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, newState, originFrozen, originValue, expression);
    }

    public ColumnInfo withName(String newName) {
        return new ColumnInfo(id, newName, position, type, notNull, hasDefault, defaultValue, defaultCurrentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state, originFrozen, originValue, expression);
    }

    /** This column with another default: {@code hasDefault} false drops it, {@code value} null is DEFAULT NULL. */
    public ColumnInfo withDefault(boolean newHasDefault, String value, boolean currentTimestamp) {
        return new ColumnInfo(id, name, position, type, notNull, newHasDefault, value, currentTimestamp,
                autoIncrement, onUpdateCurrentTimestamp, comment, state, originFrozen, originValue,
                expression != null && expression.generated() ? expression : null);
    }
}
