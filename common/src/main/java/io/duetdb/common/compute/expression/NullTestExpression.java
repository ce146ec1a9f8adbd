package io.duetdb.common.compute.expression;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** IS NULL, or IS NOT NULL when {@code negated}: never NULL itself. */
public record NullTestExpression(VectorExpression operand, boolean negated) implements VectorExpression {
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);

    public NullTestExpression {
        requireNonNull(operand, "operand is null");
    }

    @Override
    public FieldType type() {
        return BOOLEAN;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        BitVector out = new BitVector("null_test", allocator);
        out.allocateNew(rows);
        try (Operand value = operand.operand(batch, allocator)) {
            for (int row = 0; row < rows; row++) {
                out.set(row, value.isNull(row) != negated ? 1 : 0);
            }
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        out.setValueCount(rows);
        return out;
    }
}
