package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/**
 * The input's distinct rows, each the first time it comes, as they stream by: a row goes out when its encoded
 * values are new to a group table. NULLs equal each other, as DISTINCT and UNION have them. Equal values must
 * have equal bytes, which floating point ones do not (0.0 and -0.0): the caller keeps those on rows. The table's
 * keys count against {@code memory} as they grow.
 */
public final class DistinctOperator implements BatchOperator {
    private final BatchOperator input;
    private final BufferAllocator allocator;
    private final LongConsumer memory;
    private final GroupTable table = new GroupTable(false);
    private long held;
    private VectorSchemaRoot output;

    public DistinctOperator(BatchOperator input, BufferAllocator allocator, LongConsumer memory) {
        this.input = requireNonNull(input, "input is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.memory = requireNonNull(memory, "memory is null");
    }

    @Override
    public List<FieldType> outputTypes() {
        return input.outputTypes();
    }

    @Override
    public VectorSchemaRoot next() {
        for (VectorSchemaRoot batch = input.next(); batch != null; batch = input.next()) {
            int rows = batch.getRowCount();
            List<FieldVector> vectors = batch.getFieldVectors();
            int[] kept = new int[rows];
            int count = 0;
            for (int row = 0; row < rows; row++) {
                int groups = table.groupCount();
                if (table.groupOf(vectors, row) == groups) {
                    kept[count++] = row;
                }
            }
            // Key bytes, their offsets and hashes, and the slots that index them.
            long bytes = table.keyBytes() + 16L * table.groupCount();
            memory.accept(bytes - held);
            held = bytes;
            if (count == 0) {
                continue;
            }
            if (count == rows) {
                return batch;
            }
            if (output == null) {
                output = Batches.empty(outputTypes(), allocator);
                output.allocateNew();
            } else {
                output.getFieldVectors().forEach(FieldVector::reset);
            }
            for (int column = 0; column < vectors.size(); column++) {
                Gather.rows(batch.getVector(column), kept, count, output.getVector(column));
            }
            output.setRowCount(count);
            return output;
        }
        return null;
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
            output = null;
        }
        try {
            input.close();
        } finally {
            memory.accept(-held);
            held = 0;
        }
    }
}
