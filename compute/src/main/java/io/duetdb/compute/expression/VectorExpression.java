package io.duetdb.compute.expression;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/** An expression evaluated a batch at a time: one output value per input row, with MySQL's NULL semantics. */
public interface VectorExpression {
    FieldType type();

    /** The values for every row of {@code batch}, in a new vector of {@link #type()} that the caller closes. */
    FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator);

    /** The operand form: constants and columns are read in place, everything else is evaluated first. */
    default Operand operand(VectorSchemaRoot batch, BufferAllocator allocator) {
        return Operand.owning(evaluate(batch, allocator));
    }
}
