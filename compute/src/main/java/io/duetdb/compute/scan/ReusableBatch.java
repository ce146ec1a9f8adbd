package io.duetdb.compute.scan;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.operator.Batches;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * A scan's output batch, allocated once and refilled: the operators above are done with a batch when they ask for
 * the next one, so its buffers are reused instead of allocated per batch.
 */
public final class ReusableBatch implements AutoCloseable {
    private final List<FieldType> types;
    private final BufferAllocator allocator;
    private VectorSchemaRoot root;
    private FieldVector[] vectors;

    public ReusableBatch(List<FieldType> types, BufferAllocator allocator) {
        this.types = List.copyOf(requireNonNull(types, "types is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The batch's vectors, emptied, to fill from row 0. */
    public FieldVector[] start() {
        if (root == null) {
            root = Batches.empty(types, allocator);
            root.allocateNew();
            vectors = root.getFieldVectors().toArray(new FieldVector[0]);
        } else {
            for (FieldVector vector : vectors) {
                vector.reset();
            }
        }
        return vectors;
    }

    /** The batch with the {@code rows} rows just filled, or null when there are none (the scan's end). */
    public VectorSchemaRoot finish(int rows) {
        if (rows == 0) {
            return null;
        }
        root.setRowCount(rows);
        return root;
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
    }
}
