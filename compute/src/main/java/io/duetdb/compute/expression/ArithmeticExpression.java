package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

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
 * +, -, * and unary minus in the result's type: BIGINT exactly (overflow is error 1690 as in MySQL), DECIMAL
 * exactly, DOUBLE approximately. NULL when an operand is NULL.
 */
public final class ArithmeticExpression extends ValueExpression {
    private final ScalarFunction function;
    private final List<VectorExpression> operands;

    public ArithmeticExpression(ScalarFunction function, List<VectorExpression> operands, FieldType type) {
        super("arithmetic", type);
        this.function = requireNonNull(function, "function is null");
        this.operands = List.copyOf(operands);
        int arity = function == ScalarFunction.NEGATE ? 1 : 2;
        if (function != ScalarFunction.PLUS && function != ScalarFunction.MINUS && function != ScalarFunction.MULTIPLY
                && function != ScalarFunction.NEGATE) {
            throw new UnsupportedExpressionException(function + " is not arithmetic");
        }
        if (this.operands.size() != arity) {
            throw new UnsupportedExpressionException(function + " with " + this.operands.size() + " operands");
        }
        ValueType result = type.getType();
        for (VectorExpression operand : this.operands) {
            ValueType operandType = operand.type().getType();
            boolean fits = switch (result) {
                case INT64 -> operandType == ValueType.INT64 || operandType == ValueType.BOOLEAN;
                case DECIMAL -> operandType == ValueType.INT64 || operandType == ValueType.DECIMAL
                        || operandType == ValueType.BOOLEAN;
                case FLOAT64, FLOAT32 -> ValueTypes.isNumeric(operandType);
                default -> false;
            };
            if (!fits) {
                throw new UnsupportedExpressionException(function + " of " + operandType + " giving " + result);
            }
        }
        ValueTypes.arrowType(type);
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows) {
        Operand a = null;
        Operand b = null;
        try {
            a = operands.get(0).operand(batch, allocator);
            b = operands.size() > 1 ? operands.get(1).operand(batch, allocator) : null;
            switch (type().getType()) {
                case INT64 -> longs(a, b, (BigIntVector) out, rows);
                case FLOAT64, FLOAT32 -> doubles(a, b, out, rows);
                default -> decimals(a, b, out, rows);
            }
        } finally {
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
        }
    }

    private void longs(Operand a, Operand b, BigIntVector out, int rows) {
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || (b != null && b.isNull(row))) {
                out.setNull(row);
                continue;
            }
            long x = a.getLong(row);
            try {
                long value = switch (function) {
                    case PLUS -> Math.addExact(x, b.getLong(row));
                    case MINUS -> Math.subtractExact(x, b.getLong(row));
                    case MULTIPLY -> Math.multiplyExact(x, b.getLong(row));
                    default -> Math.negateExact(x);
                };
                out.set(row, value);
            } catch (ArithmeticException e) {
                throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "BIGINT value is out of range in '" + describe(x,
                        b == null ? null : b.getLong(row)) + "'");
            }
        }
    }

    private void doubles(Operand a, Operand b, FieldVector out, int rows) {
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || (b != null && b.isNull(row))) {
                out.setNull(row);
                continue;
            }
            double x = a.getDouble(row);
            double value = switch (function) {
                case PLUS -> x + b.getDouble(row);
                case MINUS -> x - b.getDouble(row);
                case MULTIPLY -> x * b.getDouble(row);
                default -> -x;
            };
            if (out instanceof Float8Vector doubles) {
                doubles.set(row, value);
            } else {
                ((Float4Vector) out).set(row, (float) value);
            }
        }
    }

    private void decimals(Operand a, Operand b, FieldVector out, int rows) {
        int scale = type().getScale();
        int integerDigits = type().getPrecision() - scale;
        boolean exactLongs = (out instanceof DecimalVector || out instanceof Decimal256Vector) && a.scale() != Operand.NO_SCALE
                && (b == null || b.scale() != Operand.NO_SCALE);
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || (b != null && b.isNull(row))) {
                out.setNull(row);
                continue;
            }
            long unscaled = exactLongs ? unscaled(a, b, row, scale) : Operand.NOT_A_LONG;
            if (unscaled != Operand.NOT_A_LONG) {
                if (out instanceof DecimalVector decimals) {
                    decimals.set(row, unscaled);
                } else {
                    ((Decimal256Vector) out).set(row, unscaled);
                }
                continue;
            }
            BigDecimal x = a.getDecimal(row);
            BigDecimal value = switch (function) {
                case PLUS -> x.add(b.getDecimal(row));
                case MINUS -> x.subtract(b.getDecimal(row));
                case MULTIPLY -> x.multiply(b.getDecimal(row));
                default -> x.negate();
            };
            if (value.precision() - value.scale() > integerDigits) {
                throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "DECIMAL value is out of range in '"
                        + value.toPlainString() + "'");
            }
            VectorValues.set(out, row, value.setScale(scale, RoundingMode.HALF_UP));
        }
    }

    /**
     * The row's result in long arithmetic, unscaled at {@code scale}, when every step fits a long and the exact
     * result is within the type's integer digits; else {@link Operand#NOT_A_LONG}, and BigDecimal decides.
     */
    private long unscaled(Operand a, Operand b, int row, int scale) {
        long x = a.unscaled(row);
        long y = b == null ? 0 : b.unscaled(row);
        if (x == Operand.NOT_A_LONG || y == Operand.NOT_A_LONG) {
            return Operand.NOT_A_LONG;
        }
        int xScale = a.scale();
        int yScale = b == null ? 0 : b.scale();
        int exactScale;
        long exact;
        switch (function) {
            case PLUS, MINUS -> {
                exactScale = Math.max(xScale, yScale);
                long left = UnscaledLongs.scaleUp(x, exactScale - xScale);
                long right = UnscaledLongs.scaleUp(y, exactScale - yScale);
                if (left == Operand.NOT_A_LONG || right == Operand.NOT_A_LONG) {
                    return Operand.NOT_A_LONG;
                }
                exact = UnscaledLongs.add(left, function == ScalarFunction.PLUS ? right : -right);
            }
            case MULTIPLY -> {
                exactScale = xScale + yScale;
                exact = UnscaledLongs.multiply(x, y);
            }
            default -> {
                exactScale = xScale;
                exact = -x;
            }
        }
        if (!UnscaledLongs.fitsIntegerDigits(exact, exactScale, type().getPrecision() - scale)) {
            return Operand.NOT_A_LONG;
        }
        long result = UnscaledLongs.rescale(exact, exactScale, scale);
        // Rounding may carry into one more digit than the vector holds: BigDecimal then reports it.
        return UnscaledLongs.fitsIntegerDigits(result, scale, type().getPrecision() - scale) ? result : Operand.NOT_A_LONG;
    }

    private String describe(long x, Long y) {
        String operator = switch (function) {
            case PLUS -> "+";
            case MINUS -> "-";
            case MULTIPLY -> "*";
            default -> "-";
        };
        return y == null ? "-(" + x + ")" : "(" + x + " " + operator + " " + y + ")";
    }
}
