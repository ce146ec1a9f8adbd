package io.duetdb.common.compute.expression;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** A predicate: one TRUE, FALSE or NULL per row, written by {@link #fill} into a bit vector. */
abstract class BooleanExpression implements VectorExpression {
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);

    @Override
    public final FieldType type() {
        return BOOLEAN;
    }

    @Override
    public final FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        BitVector out = new BitVector(getClass().getSimpleName(), allocator);
        out.allocateNew(rows);
        try {
            fill(batch, allocator, out, rows);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        out.setValueCount(rows);
        return out;
    }

    /** Sets (or nulls) each of the first {@code rows} positions of {@code out}. */
    abstract void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows);
}
