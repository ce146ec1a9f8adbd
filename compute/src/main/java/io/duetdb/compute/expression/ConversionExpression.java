package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Conversions and extractions that keep each row's NULL: CAST between numbers (to DECIMAL rounding half up, as
 * MySQL does; to FLOAT64) and from DATE to DATETIME; EXTRACT of a date's year, month or day.
 */
public final class ConversionExpression extends ValueExpression {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private final ScalarFunction function;
    private final VectorExpression argument;

    public ConversionExpression(ScalarFunction function, VectorExpression argument, FieldType type) {
        super("conversion", type);
        this.function = requireNonNull(function, "function is null");
        this.argument = requireNonNull(argument, "argument is null");
        ValueType from = argument.type().getType();
        ValueType to = type.getType();
        boolean supported = switch (function) {
            case CAST -> to == ValueType.DECIMAL && (from == ValueType.INT64 || from == ValueType.DECIMAL)
                    || to == ValueType.FLOAT64 && ValueTypes.isNumeric(from)
                    || to == ValueType.DATETIME && from == ValueType.DATE
                    // Casts to a string or bytes type cut to its length: not here.
                    || to == from && (to == ValueType.INT64 || to == ValueType.FLOAT64 || ValueTypes.isTemporal(to));
            case EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY -> to == ValueType.INT64 && ValueTypes.isTemporal(from);
            default -> false;
        };
        if (!supported) {
            throw new UnsupportedExpressionException(function + " from " + from + " to " + to);
        }
        ValueTypes.arrowType(type);
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows) {
        try (FieldVector input = argument.evaluate(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                Object value = VectorValues.get(input, row);
                VectorValues.set(out, row, value == null ? null : convert(value));
            }
        }
    }

    private Object convert(Object value) {
        ValueType from = argument.type().getType();
        return switch (function) {
            case EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY -> {
                LocalDate date = from == ValueType.DATE ? LocalDate.ofEpochDay((Long) value)
                        : LocalDateTime.ofEpochSecond(Math.floorDiv((Long) value, MICROS_PER_SECOND), 0, ZoneOffset.UTC)
                                .toLocalDate();
                yield (long) (function == ScalarFunction.EXTRACT_YEAR ? date.getYear()
                        : function == ScalarFunction.EXTRACT_MONTH ? date.getMonthValue() : date.getDayOfMonth());
            }
            default -> switch (type().getType()) {
                case DECIMAL -> {
                    BigDecimal decimal = value instanceof BigDecimal exact ? exact : BigDecimal.valueOf((Long) value);
                    BigDecimal rounded = decimal.setScale(type().getScale(), RoundingMode.HALF_UP);
                    if (rounded.precision() - rounded.scale() > type().getPrecision() - type().getScale()) {
                        throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "DECIMAL value is out of range in '"
                                + decimal.toPlainString() + "'");
                    }
                    yield rounded;
                }
                case FLOAT64 -> value instanceof BigDecimal exact ? exact.doubleValue() : ((Number) value).doubleValue();
                case DATETIME -> from == ValueType.DATE ? (Long) value * 86_400L * MICROS_PER_SECOND : value;
                default -> value;
            };
        };
    }
}
