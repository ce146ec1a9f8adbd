package io.duetdb.compute.expression;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** A predicate: one TRUE, FALSE or NULL per row, written by {@link #fill} into a bit vector. */
abstract class BooleanExpression extends ValueExpression {
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);

    BooleanExpression() {
        super(BOOLEAN);
    }

    @Override
    final void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows) {
        fill(batch, allocator, (BitVector) out, rows);
    }

    /** Sets (or nulls) each of the first {@code rows} positions of {@code out}. */
    abstract void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows);
}
