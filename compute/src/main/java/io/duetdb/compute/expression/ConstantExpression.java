package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/** A constant, given as a {@link VectorValues} Java value (null for NULL). */
public record ConstantExpression(Object value, FieldType type) implements VectorExpression {
    public ConstantExpression {
        requireNonNull(type, "type is null");
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        FieldVector vector = ValueTypes.newVector("constant", type, allocator);
        int rows = batch.getRowCount();
        vector.setInitialCapacity(rows);
        vector.allocateNew();
        for (int row = 0; row < rows; row++) {
            VectorValues.set(vector, row, value);
        }
        vector.setValueCount(rows);
        return vector;
    }

    @Override
    public Operand operand(VectorSchemaRoot batch, BufferAllocator allocator) {
        Object constant = value;
        byte[] bytes = constant instanceof String text ? text.getBytes(StandardCharsets.UTF_8)
                : constant instanceof byte[] raw ? raw : null;
        BigDecimal exact = exactForm(constant);
        int scale = exact == null ? Operand.NO_SCALE : exact.scale();
        long unscaled = exact == null ? Operand.NOT_A_LONG : exact.unscaledValue().longValue();
        return new Operand() {
            @Override
            public int scale() {
                return scale;
            }

            @Override
            public long unscaled(int row) {
                return unscaled;
            }

            @Override
            public boolean isNull(int row) {
                return constant == null;
            }

            @Override
            public long getLong(int row) {
                if (constant instanceof Boolean bool) {
                    return bool ? 1 : 0;
                }
                return ((Number) constant).longValue();
            }

            @Override
            public double getDouble(int row) {
                if (constant instanceof Boolean bool) {
                    return bool ? 1 : 0;
                }
                if (constant instanceof Float number) {
                    return number;
                }
                return ((Number) constant).doubleValue();
            }

            @Override
            public BigDecimal getDecimal(int row) {
                if (constant instanceof BigDecimal decimal) {
                    return decimal;
                }
                if (constant instanceof Long number) {
                    return BigDecimal.valueOf(number);
                }
                if (constant instanceof Float number) {
                    return new BigDecimal(Float.toString(number));
                }
                if (constant instanceof Boolean bool) {
                    return bool ? BigDecimal.ONE : BigDecimal.ZERO;
                }
                return BigDecimal.valueOf(((Number) constant).doubleValue());
            }

            @Override
            public byte[] getBytes(int row) {
                return bytes;
            }
        };
    }

    /** The constant as a decimal of non-negative scale whose unscaled value fits a long, or null. */
    private static BigDecimal exactForm(Object constant) {
        BigDecimal exact;
        if (constant instanceof BigDecimal decimal) {
            exact = decimal.scale() < 0 ? decimal.setScale(0) : decimal;
        } else if (constant instanceof Long number) {
            exact = BigDecimal.valueOf(number);
        } else if (constant instanceof Boolean bool) {
            exact = bool ? BigDecimal.ONE : BigDecimal.ZERO;
        } else {
            return null;
        }
        return exact.unscaledValue().bitLength() < Long.SIZE && exact.unscaledValue().longValue() != Operand.NOT_A_LONG ? exact : null;
    }
}
