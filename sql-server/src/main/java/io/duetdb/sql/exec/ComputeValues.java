package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Values between the executor's Java forms and the coprocessor's (days, microseconds, Arrow types). */
public final class ComputeValues {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private ComputeValues() {
    }

    /** The coprocessor type of a stored column, or null when its values do not travel there (unsigned). */
    public static FieldType columnType(ColumnInfo column) {
        return StoredValues.columnType(column.type());
    }

    /** A coprocessor value in the executor's form (the form TableAccess.fromStorage gives). */
    public static Object toSql(Object value, FieldType type) {
        if (value == null) {
            return null;
        }
        return switch (type.getType()) {
            case FLOAT32 -> Double.valueOf(Float.toString((Float) value));
            case DATE -> LocalDate.ofEpochDay((Long) value);
            case DATETIME, TIMESTAMP -> {
                long micros = (Long) value;
                yield LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
                        (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000, ZoneOffset.UTC);
            }
            case TIME -> {
                long micros = (Long) value;
                yield Duration.ofSeconds(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
            }
            case BOOLEAN -> value;
            default -> value;
        };
    }

    /** An executor value in the coprocessor's form, or null when it has none. */
    public static Object toCompute(Object value, FieldType type) {
        if (value == null) {
            return null;
        }
        return switch (type.getType()) {
            case INT64 -> value instanceof Long ? value : value instanceof Boolean bool ? (bool ? 1L : 0L) : null;
            case FLOAT32, FLOAT64 -> value instanceof Number number ? (Object) number.doubleValue() : null;
            case DECIMAL -> value instanceof BigDecimal decimal ? decimal : value instanceof Long number
                    ? BigDecimal.valueOf(number) : null;
            case STRING -> value instanceof String ? value : null;
            case BYTES -> value instanceof byte[] ? value : null;
            case DATE -> value instanceof LocalDate date ? date.toEpochDay() : null;
            case DATETIME, TIMESTAMP -> value instanceof LocalDateTime dateTime
                    ? dateTime.toEpochSecond(ZoneOffset.UTC) * MICROS_PER_SECOND + dateTime.getNano() / 1000 : null;
            case TIME -> value instanceof Duration duration
                    ? duration.getSeconds() * MICROS_PER_SECOND + duration.getNano() / 1000 : null;
            case BOOLEAN -> value instanceof Boolean ? value : null;
            default -> null;
        };
    }
}
