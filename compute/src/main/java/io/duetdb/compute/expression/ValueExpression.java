package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;

/** An expression whose values are of a planned type, written by {@link #fill} into a new vector of that type. */
abstract class ValueExpression implements VectorExpression {
    private final String name;
    private final FieldType type;

    /** {@code name} names the vectors it makes. */
    ValueExpression(String name, FieldType type) {
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
    }

    /** Names the vectors it makes after its class. */
    ValueExpression(FieldType type) {
        this.name = getClass().getSimpleName();
        this.type = requireNonNull(type, "type is null");
    }

    @Override
    public final FieldType type() {
        return type;
    }

    @Override
    public final FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        FieldVector out = ValueTypes.newVector(name, type, allocator);
        out.setInitialCapacity(rows);
        out.allocateNew();
        try {
            fill(batch, allocator, out, rows);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        out.setValueCount(rows);
        return out;
    }

    /** Sets (or nulls) each of the first {@code rows} positions of {@code out}, a vector of {@link #type()}. */
    abstract void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows);
}
