package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
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
 * MySQL's / and %: NULL when an operand is NULL or the divisor is zero. Exact operands divide into a DECIMAL
 * rounded half away from zero at the planned scale (the dividend's scale plus div_precision_increment, which the
 * SQL layer plans); approximate ones into a DOUBLE. The remainder takes the dividend's sign, of integers as BIGINT,
 * of other exact numbers as a DECIMAL at the larger operand scale and of approximate numbers as DOUBLE (fmod).
 */
public final class DivisionExpression extends ValueExpression {
    private final ScalarFunction function;
    private final VectorExpression dividend;
    private final VectorExpression divisor;

    public DivisionExpression(ScalarFunction function, VectorExpression dividend, VectorExpression divisor, FieldType type) {
        super("division", type);
        this.function = requireNonNull(function, "function is null");
        this.dividend = requireNonNull(dividend, "dividend is null");
        this.divisor = requireNonNull(divisor, "divisor is null");
        ValueType result = type.getType();
        boolean exact = isExact(dividend) && isExact(divisor);
        boolean fits = switch (function) {
            case DIVIDE -> exact ? result == ValueType.DECIMAL : result == ValueType.FLOAT64 && isNumeric(dividend, divisor);
            case MOD -> switch (result) {
                case INT64 -> isInteger(dividend) && isInteger(divisor);
                case DECIMAL -> exact;
                case FLOAT64 -> !exact && isNumeric(dividend, divisor);
                default -> false;
            };
            default -> throw new UnsupportedExpressionException(function + " is not a division");
        };
        if (!fits) {
            throw new UnsupportedExpressionException(function + " of " + dividend.type().getType() + " and "
                    + divisor.type().getType() + " giving " + result);
        }
        ValueTypes.arrowType(type);
    }

    private static boolean isExact(VectorExpression operand) {
        ValueType type = operand.type().getType();
        return type == ValueType.INT64 || type == ValueType.DECIMAL || type == ValueType.BOOLEAN;
    }

    private static boolean isInteger(VectorExpression operand) {
        ValueType type = operand.type().getType();
        return type == ValueType.INT64 || type == ValueType.BOOLEAN;
    }

    private static boolean isNumeric(VectorExpression dividend, VectorExpression divisor) {
        return ValueTypes.isNumeric(dividend.type().getType()) && ValueTypes.isNumeric(divisor.type().getType());
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows) {
        try (Operand a = dividend.operand(batch, allocator); Operand b = divisor.operand(batch, allocator)) {
            switch (type().getType()) {
                case INT64 -> remainders(a, b, (BigIntVector) out, rows);
                case FLOAT64, FLOAT32 -> doubles(a, b, out, rows);
                default -> {
                    if (function == ScalarFunction.MOD) {
                        decimalRemainders(a, b, out, rows);
                    } else {
                        quotients(a, b, out, rows);
                    }
                }
            }
        }
    }

    private static void remainders(Operand a, Operand b, BigIntVector out, int rows) {
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || b.isNull(row) || b.getLong(row) == 0) {
                out.setNull(row);
            } else {
                out.set(row, a.getLong(row) % b.getLong(row));
            }
        }
    }

    private void doubles(Operand a, Operand b, FieldVector out, int rows) {
        for (int row = 0; row < rows; row++) {
            double y;
            if (a.isNull(row) || b.isNull(row) || (y = b.getDouble(row)) == 0) {
                out.setNull(row);
                continue;
            }
            double x = a.getDouble(row);
            double value = function == ScalarFunction.DIVIDE ? x / y : x % y;
            if (out instanceof Float8Vector doubles) {
                doubles.set(row, value);
            } else {
                ((Float4Vector) out).set(row, (float) value);
            }
        }
    }

    /**
     * MySQL's remainder of exact numbers: the sign of the dividend, at the result's scale (the larger operand
     * scale), NULL for a zero divisor. On unscaled longs when both operands rescale into one.
     */
    private void decimalRemainders(Operand a, Operand b, FieldVector out, int rows) {
        int scale = type().getScale();
        boolean exactLongs = a.scale() != Operand.NO_SCALE && b.scale() != Operand.NO_SCALE
                && a.scale() <= scale && b.scale() <= scale;
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || b.isNull(row)) {
                out.setNull(row);
                continue;
            }
            long x = exactLongs ? UnscaledLongs.scaleUp(a.unscaled(row), scale - a.scale()) : Operand.NOT_A_LONG;
            long y = exactLongs ? UnscaledLongs.scaleUp(b.unscaled(row), scale - b.scale()) : Operand.NOT_A_LONG;
            if (x != Operand.NOT_A_LONG && y != Operand.NOT_A_LONG) {
                if (y == 0) {
                    out.setNull(row);
                } else if (out instanceof DecimalVector decimals) {
                    decimals.set(row, x % y);
                } else {
                    ((Decimal256Vector) out).set(row, x % y);
                }
                continue;
            }
            BigDecimal divisorValue = b.getDecimal(row);
            if (divisorValue.signum() == 0) {
                out.setNull(row);
                continue;
            }
            VectorValues.set(out, row, a.getDecimal(row).remainder(divisorValue).setScale(scale, RoundingMode.HALF_UP));
        }
    }

    private void quotients(Operand a, Operand b, FieldVector out, int rows) {
        int scale = type().getScale();
        int integerDigits = type().getPrecision() - scale;
        boolean exactLongs = a.scale() != Operand.NO_SCALE && b.scale() != Operand.NO_SCALE;
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || b.isNull(row)) {
                out.setNull(row);
                continue;
            }
            long quotient = exactLongs ? unscaledQuotient(a.unscaled(row), a.scale(), b.unscaled(row), b.scale(), scale)
                    : Operand.NOT_A_LONG;
            if (quotient != Operand.NOT_A_LONG && (quotient == DIVISION_BY_ZERO
                    || UnscaledLongs.fitsIntegerDigits(quotient, scale, integerDigits))) {
                if (quotient == DIVISION_BY_ZERO) {
                    out.setNull(row);
                } else if (out instanceof DecimalVector decimals) {
                    decimals.set(row, quotient);
                } else {
                    ((Decimal256Vector) out).set(row, quotient);
                }
                continue;
            }
            BigDecimal y = b.getDecimal(row);
            if (y.signum() == 0) {
                out.setNull(row);
                continue;
            }
            BigDecimal value = a.getDecimal(row).divide(y, scale, RoundingMode.HALF_UP);
            if (value.precision() - value.scale() > integerDigits) {
                throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "DECIMAL value is out of range in '"
                        + value.toPlainString() + "'");
            }
            VectorValues.set(out, row, value);
        }
    }

    /** What {@link #unscaledQuotient} answers for a zero divisor: a value no quotient of longs at a scale can take. */
    private static final long DIVISION_BY_ZERO = Long.MIN_VALUE + 1;

    /**
     * x / y (unscaled at their scales) unscaled at {@code scale}, rounded half away from zero, when the steps fit a
     * long; {@link Operand#NOT_A_LONG} when they do not, {@link #DIVISION_BY_ZERO} for a zero divisor.
     */
    static long unscaledQuotient(long x, int xScale, long y, int yScale, int scale) {
        if (x == Operand.NOT_A_LONG || y == Operand.NOT_A_LONG) {
            return Operand.NOT_A_LONG;
        }
        if (y == 0) {
            return DIVISION_BY_ZERO;
        }
        // x / 10^xs / (y / 10^ys) * 10^scale = x * 10^(scale - xs + ys) / y
        int shift = scale - xScale + yScale;
        if (shift < 0) {
            return Operand.NOT_A_LONG;
        }
        long numerator = UnscaledLongs.scaleUp(x, shift);
        if (numerator == Operand.NOT_A_LONG || y == Long.MIN_VALUE) {
            return Operand.NOT_A_LONG;
        }
        long quotient = numerator / y;
        long remainder = Math.abs(numerator % y);
        if (remainder >= Math.abs(y) - remainder) {
            quotient += (numerator < 0) == (y < 0) ? 1 : -1;
        }
        return quotient == Operand.NOT_A_LONG || quotient == DIVISION_BY_ZERO ? Operand.NOT_A_LONG : quotient;
    }
}
