package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

import io.duetdb.proto.coprocessor.FieldType;

/** A column of the input batch, read in place. */
public record ColumnReference(int index, FieldType type) implements VectorExpression {
    public ColumnReference {
        requireNonNull(type, "type is null");
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        FieldVector column = batch.getVector(index);
        TransferPair copy = column.getTransferPair(allocator);
        copy.splitAndTransfer(0, batch.getRowCount());
        return (FieldVector) copy.getTo();
    }

    @Override
    public Operand operand(VectorSchemaRoot batch, BufferAllocator allocator) {
        return Operand.of(batch.getVector(index));
    }
}
