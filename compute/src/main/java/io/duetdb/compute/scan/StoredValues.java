package io.duetdb.compute.scan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.duetdb.common.types.ColumnType;
import io.duetdb.common.types.SqlType;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Between the codecs' stored values (rows and index keys) and the forms the coprocessor's vectors hold. */
public final class StoredValues {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private StoredValues() {
    }

    /** The coprocessor type of a column of {@code type}, or null when its values do not travel there (unsigned). */
    public static FieldType columnType(SqlType type) {
        return switch (type.storageType()) {
            case INT64 -> ValueTypes.of(ValueType.INT64);
            case FLOAT32 -> ValueTypes.of(ValueType.FLOAT32);
            case FLOAT64 -> ValueTypes.of(ValueType.FLOAT64);
            case DECIMAL -> ValueTypes.decimal(type.precision(), type.scale());
            case STRING -> ValueTypes.of(ValueType.STRING);
            case BYTES -> ValueTypes.of(ValueType.BYTES);
            case DATE -> ValueTypes.of(ValueType.DATE);
            case DATETIME -> ValueTypes.of(ValueType.DATETIME);
            case TIMESTAMP -> ValueTypes.of(ValueType.TIMESTAMP);
            case TIME -> ValueTypes.of(ValueType.TIME);
            case UINT64 -> null;
        };
    }

    /** How a column of the coprocessor's type is stored. */
    public static ColumnType storageType(FieldType type) {
        return switch (type.getType()) {
            case INT64 -> ColumnType.INT64;
            case UINT64 -> ColumnType.UINT64;
            case FLOAT32 -> ColumnType.FLOAT32;
            case FLOAT64 -> ColumnType.FLOAT64;
            case DECIMAL -> ColumnType.DECIMAL;
            case STRING -> ColumnType.STRING;
            case BYTES -> ColumnType.BYTES;
            case DATE -> ColumnType.DATE;
            case DATETIME -> ColumnType.DATETIME;
            case TIMESTAMP -> ColumnType.TIMESTAMP;
            case TIME -> ColumnType.TIME;
            default -> throw new UnsupportedExpressionException("a stored column cannot be " + type.getType());
        };
    }

    /** A stored value in the form the vectors hold. */
    public static Object toCompute(Object stored, FieldType type) {
        if (stored == null) {
            return null;
        }
        return switch (type.getType()) {
            case DECIMAL -> ((BigDecimal) stored).scale() == type.getScale() ? stored
                    : ((BigDecimal) stored).setScale(type.getScale(), RoundingMode.HALF_UP);
            case DATE -> ((LocalDate) stored).toEpochDay();
            case DATETIME, TIMESTAMP -> {
                LocalDateTime dateTime = (LocalDateTime) stored;
                yield dateTime.toEpochSecond(ZoneOffset.UTC) * MICROS_PER_SECOND + dateTime.getNano() / 1000;
            }
            case TIME -> {
                Duration duration = (Duration) stored;
                yield duration.getSeconds() * MICROS_PER_SECOND + duration.getNano() / 1000;
            }
            case STRING -> stored instanceof String ? stored : new String((byte[]) stored, StandardCharsets.UTF_8);
            default -> stored;
        };
    }
}
