package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * AND, OR and NOT in three-valued logic: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, NOT NULL is NULL.
 * Integer operands count as true when non-zero, as in MySQL.
 */
public final class LogicalExpression extends BooleanExpression {
    private final ScalarFunction function;
    private final List<VectorExpression> operands;

    public LogicalExpression(ScalarFunction function, List<VectorExpression> operands) {
        this.function = requireNonNull(function, "function is null");
        this.operands = List.copyOf(operands);
        int expected = function == ScalarFunction.NOT ? 1 : -1;
        if (function != ScalarFunction.AND && function != ScalarFunction.OR && function != ScalarFunction.NOT) {
            throw new UnsupportedExpressionException(function + " is not a logical operator");
        }
        if (expected == 1 ? this.operands.size() != 1 : this.operands.size() < 2) {
            throw new UnsupportedExpressionException(function + " with " + this.operands.size() + " operands");
        }
        for (VectorExpression operand : this.operands) {
            if (!ValueTypes.isIntegral(operand.type().getType())) {
                throw new UnsupportedExpressionException(function + " of a " + operand.type().getType() + " value");
            }
        }
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows) {
        if (function == ScalarFunction.NOT) {
            try (Operand operand = operands.get(0).operand(batch, allocator)) {
                for (int row = 0; row < rows; row++) {
                    if (operand.isNull(row)) {
                        out.setNull(row);
                    } else {
                        out.set(row, operand.getLong(row) == 0 ? 1 : 0);
                    }
                }
            }
        } else {
            boolean and = function == ScalarFunction.AND;
            // 1 true, 0 false, -1 unknown; start from the identity of the operator.
            byte[] state = new byte[rows];
            java.util.Arrays.fill(state, (byte) (and ? 1 : 0));
            for (VectorExpression expression : operands) {
                try (Operand operand = expression.operand(batch, allocator)) {
                    for (int row = 0; row < rows; row++) {
                        byte current = state[row];
                        if (and ? current == 0 : current == 1) {
                            continue;
                        }
                        if (operand.isNull(row)) {
                            state[row] = -1;
                        } else if ((operand.getLong(row) != 0) != and) {
                            state[row] = (byte) (and ? 0 : 1);
                        }
                    }
                }
            }
            for (int row = 0; row < rows; row++) {
                if (state[row] < 0) {
                    out.setNull(row);
                } else {
                    out.set(row, state[row]);
                }
            }
        }
    }
}
