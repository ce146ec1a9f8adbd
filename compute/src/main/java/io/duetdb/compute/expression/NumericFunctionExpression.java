package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * MySQL's ABS, FLOOR and CEIL of a BIGINT (unchanged by FLOOR and CEIL), a DECIMAL (exactly) or a DOUBLE, in the
 * declared result type of the same kind. NULL in, NULL out.
 */
public final class NumericFunctionExpression implements VectorExpression {
    private final ScalarFunction function;
    private final VectorExpression argument;
    private final FieldType type;

    public NumericFunctionExpression(ScalarFunction function, VectorExpression argument, FieldType type) {
        this.function = requireNonNull(function, "function is null");
        this.argument = requireNonNull(argument, "argument is null");
        this.type = requireNonNull(type, "type is null");
        if (function != ScalarFunction.ABS && function != ScalarFunction.FLOOR && function != ScalarFunction.CEIL) {
            throw new UnsupportedExpressionException(function + " is not a numeric function");
        }
        ValueType argumentType = argument.type().getType();
        boolean supported = argumentType == ValueType.INT64 || argumentType == ValueType.DECIMAL
                || argumentType == ValueType.FLOAT64;
        if (!supported || type.getType() != argumentType) {
            throw new UnsupportedExpressionException(function + " of a " + argumentType + " giving " + type.getType());
        }
    }

    @Override
    public FieldType type() {
        return type;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        FieldVector out = ValueTypes.newVector(function.name(), type, allocator);
        try (Operand input = argument.operand(batch, allocator)) {
            out.allocateNew();
            for (int row = 0; row < rows; row++) {
                VectorValues.set(out, row, input.isNull(row) ? null : value(input, row));
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private Object value(Operand input, int row) {
        return switch (type.getType()) {
            case INT64 -> function == ScalarFunction.ABS ? Math.abs(input.getLong(row)) : input.getLong(row);
            case FLOAT64 -> {
                double value = input.getDouble(row);
                yield switch (function) {
                    case ABS -> Math.abs(value);
                    case FLOOR -> Math.floor(value);
                    default -> Math.ceil(value);
                };
            }
            default -> {
                BigDecimal value = input.getDecimal(row);
                yield switch (function) {
                    case ABS -> value.abs();
                    case FLOOR -> value.setScale(0, RoundingMode.FLOOR);
                    default -> value.setScale(0, RoundingMode.CEILING);
                };
            }
        };
    }
}
