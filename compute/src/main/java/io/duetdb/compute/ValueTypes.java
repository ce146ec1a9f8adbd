package io.duetdb.compute;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import io.duetdb.proto.coprocessor.ValueType;

/**
 * How each coprocessor value type is held in Arrow: INT64 as BigInt, UINT64 as UInt8, FLOAT32 and FLOAT64 as
 * floating point, DECIMAL as Decimal128 (Decimal256 beyond 38 digits), STRING as Utf8, BYTES as Binary, DATE as
 * DateDay, DATETIME and TIMESTAMP as microsecond timestamps without zone, TIME as microseconds of a 64-bit Time,
 * BOOLEAN as Bit.
 */
public final class ValueTypes {
    public static final int MAX_DECIMAL128_PRECISION = 38;
    public static final int MAX_DECIMAL_PRECISION = 65;

    private ValueTypes() {
    }

    public static io.duetdb.proto.coprocessor.FieldType of(ValueType type) {
        return io.duetdb.proto.coprocessor.FieldType.newBuilder().setType(type).build();
    }

    public static io.duetdb.proto.coprocessor.FieldType decimal(int precision, int scale) {
        return io.duetdb.proto.coprocessor.FieldType.newBuilder().setType(ValueType.DECIMAL)
                .setPrecision(precision).setScale(scale).build();
    }

    public static ArrowType arrowType(io.duetdb.proto.coprocessor.FieldType type) {
        requireNonNull(type, "type is null");
        return switch (type.getType()) {
            case INT64 -> new ArrowType.Int(64, true);
            case UINT64 -> new ArrowType.Int(64, false);
            case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> {
                int precision = Math.max(1, Math.max(type.getPrecision(), type.getScale()));
                if (precision > MAX_DECIMAL_PRECISION) {
                    throw new UnsupportedExpressionException("DECIMAL precision " + precision + " exceeds "
                            + MAX_DECIMAL_PRECISION);
                }
                yield new ArrowType.Decimal(precision, type.getScale(), precision > MAX_DECIMAL128_PRECISION ? 256 : 128);
            }
            case STRING -> ArrowType.Utf8.INSTANCE;
            case BYTES -> ArrowType.Binary.INSTANCE;
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case DATETIME, TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            case TIME -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            default -> throw new UnsupportedExpressionException("value type " + type.getType() + " has no Arrow form");
        };
    }

    public static Field field(String name, io.duetdb.proto.coprocessor.FieldType type) {
        return new Field(name, FieldType.nullable(arrowType(type)), null);
    }

    public static FieldVector newVector(String name, io.duetdb.proto.coprocessor.FieldType type, BufferAllocator allocator) {
        return field(name, type).createVector(allocator);
    }

    /** Types whose values are held as a signed or unsigned 64-bit integer. */
    public static boolean isIntegral(ValueType type) {
        return type == ValueType.INT64 || type == ValueType.UINT64 || type == ValueType.BOOLEAN;
    }

    public static boolean isNumeric(ValueType type) {
        return isIntegral(type) || type == ValueType.FLOAT32 || type == ValueType.FLOAT64 || type == ValueType.DECIMAL;
    }

    public static boolean isTemporal(ValueType type) {
        return type == ValueType.DATE || type == ValueType.DATETIME || type == ValueType.TIMESTAMP;
    }
}
