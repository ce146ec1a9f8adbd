package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.VectorBatchAppender;

import io.duetdb.proto.coprocessor.FieldType;

/** Batches appended into one, growing as they come: the rows an operator holds whole (a join's build side, a sort). */
public final class AppendedBatch implements AutoCloseable {
    private VectorSchemaRoot root;

    public AppendedBatch(List<FieldType> types, BufferAllocator allocator) {
        requireNonNull(types, "types is null");
        requireNonNull(allocator, "allocator is null");
        root = Batches.empty(types, allocator);
        root.allocateNew();
        root.setRowCount(0);
    }

    /** Rows already gathered, to grow by appending. */
    public AppendedBatch(VectorSchemaRoot root) {
        this.root = requireNonNull(root, "root is null");
    }

    public int rows() {
        return root.getRowCount();
    }

    public long bytes() {
        return bytes(root);
    }

    public void append(VectorSchemaRoot batch) {
        int rows = root.getRowCount();
        for (int column = 0; column < root.getFieldVectors().size(); column++) {
            VectorBatchAppender.batchAppend(root.getVector(column), batch.getVector(column));
        }
        root.setRowCount(rows + batch.getRowCount());
    }

    /** The rows appended so far, still this object's: valid until the next append (row numbers stay). */
    public VectorSchemaRoot batch() {
        return root;
    }

    /** The rows appended so far, now the caller's. */
    public VectorSchemaRoot take() {
        VectorSchemaRoot taken = root;
        root = null;
        return taken;
    }

    public static long bytes(VectorSchemaRoot batch) {
        long bytes = 0;
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
    }
}
