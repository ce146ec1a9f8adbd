package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * {@code value IN (constant, ...)}: TRUE on a match; otherwise NULL if the value or any constant is NULL, else
 * FALSE. The constants must share the value's comparison domain.
 */
public final class InListExpression extends BooleanExpression {
    private final VectorExpression value;
    private final ComparisonDomain domain;
    private final Set<Object> constants = new HashSet<>();
    private final boolean listHasNull;

    public InListExpression(VectorExpression value, List<ConstantExpression> list) {
        this.value = requireNonNull(value, "value is null");
        ValueType valueType = value.type().getType();
        boolean sawNull = false;
        ComparisonDomain common = null;
        for (ConstantExpression constant : list) {
            if (constant.value() == null) {
                sawNull = true;
                continue;
            }
            ComparisonDomain domain = ComparisonDomain.of(valueType, constant.type().getType());
            if (common != null && common != domain) {
                throw new UnsupportedExpressionException("IN list mixes " + common + " and " + domain + " comparisons");
            }
            if (valueType != constant.type().getType() && domain != ComparisonDomain.DECIMAL) {
                throw new UnsupportedExpressionException("IN list of " + constant.type().getType() + " for a "
                        + valueType + " value");
            }
            common = domain;
        }
        if (common == ComparisonDomain.DOUBLE) {
            throw new UnsupportedExpressionException("IN list over approximate numbers");
        }
        this.domain = common == null ? ComparisonDomain.SIGNED : common;
        this.listHasNull = sawNull;
        for (ConstantExpression constant : list) {
            if (constant.value() != null) {
                constants.add(key(constant.operand(null, null), 0));
            }
        }
    }

    private Object key(Operand operand, int row) {
        return switch (domain) {
            case SIGNED, UNSIGNED -> operand.getLong(row);
            case DECIMAL -> {
                BigDecimal decimal = operand.getDecimal(row);
                yield decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
            }
            case BYTES -> ByteBuffer.wrap(operand.getBytes(row));
            case DOUBLE -> operand.getDouble(row);
        };
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows) {
        try (Operand operand = value.operand(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                if (operand.isNull(row)) {
                    out.setNull(row);
                } else if (constants.contains(key(operand, row))) {
                    out.set(row, 1);
                } else if (listHasNull) {
                    out.setNull(row);
                } else {
                    out.set(row, 0);
                }
            }
        }
    }
}
