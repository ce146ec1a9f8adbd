package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** IS NULL, or IS NOT NULL when {@code negated}: never NULL itself. */
public final class NullTestExpression extends BooleanExpression {
    private final VectorExpression operand;
    private final boolean negated;

    public NullTestExpression(VectorExpression operand, boolean negated) {
        this.operand = requireNonNull(operand, "operand is null");
        this.negated = negated;
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows) {
        try (Operand value = operand.operand(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                out.set(row, value.isNull(row) != negated ? 1 : 0);
            }
        }
    }
}
