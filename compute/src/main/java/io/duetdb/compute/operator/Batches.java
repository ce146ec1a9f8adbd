package io.duetdb.compute.operator;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/** Building batches from vectors and from rows of {@link VectorValues} Java values. */
public final class Batches {
    private Batches() {
    }

    public static VectorSchemaRoot empty(List<FieldType> types, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            vectors.add(ValueTypes.newVector("c" + i, types.get(i), allocator));
        }
        return new VectorSchemaRoot(vectors);
    }

    /** A batch of the given rows (each an array of one value per type). */
    public static VectorSchemaRoot ofRows(List<FieldType> types, List<Object[]> rows, BufferAllocator allocator) {
        VectorSchemaRoot root = empty(types, allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < types.size(); column++) {
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < rows.size(); row++) {
                    VectorValues.set(vector, row, rows.get(row)[column]);
                }
            }
            root.setRowCount(rows.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** The row {@code index} of {@code batch} as Java values. */
    public static Object[] row(VectorSchemaRoot batch, int index) {
        Object[] row = new Object[batch.getFieldVectors().size()];
        for (int column = 0; column < row.length; column++) {
            row[column] = VectorValues.get(batch.getVector(column), index);
        }
        return row;
    }
}
