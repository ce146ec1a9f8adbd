package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.FieldType;

/** Keeps the rows for which every condition is TRUE (not FALSE, not NULL). */
public final class SelectionOperator implements BatchOperator {
    private final BatchOperator input;
    private final List<VectorExpression> conditions;
    private final BufferAllocator allocator;
    private VectorSchemaRoot output;

    public SelectionOperator(BatchOperator input, List<VectorExpression> conditions, BufferAllocator allocator) {
        this.input = requireNonNull(input, "input is null");
        this.conditions = List.copyOf(conditions);
        this.allocator = requireNonNull(allocator, "allocator is null");
        for (VectorExpression condition : this.conditions) {
            if (!VectorExpressions.isBoolean(condition)) {
                throw new UnsupportedExpressionException("a selection condition of type " + condition.type().getType());
            }
        }
    }

    @Override
    public List<FieldType> outputTypes() {
        return input.outputTypes();
    }

    @Override
    public VectorSchemaRoot next() {
        while (true) {
            VectorSchemaRoot batch = input.next();
            if (batch == null) {
                return null;
            }
            int rows = batch.getRowCount();
            boolean[] keep = new boolean[rows];
            java.util.Arrays.fill(keep, true);
            int kept = rows;
            for (VectorExpression condition : conditions) {
                if (kept == 0) {
                    break;
                }
                try (FieldVector result = condition.evaluate(batch, allocator)) {
                    BitVector truth = (BitVector) result;
                    for (int row = 0; row < rows; row++) {
                        if (keep[row] && (truth.isNull(row) || truth.get(row) == 0)) {
                            keep[row] = false;
                            kept--;
                        }
                    }
                }
            }
            if (kept == 0) {
                continue;
            }
            if (kept == rows) {
                return batch;
            }
            if (output == null) {
                output = Batches.empty(outputTypes(), allocator);
                output.allocateNew();
            } else {
                // The previous batch's consumers are done with it: refill the same buffers.
                output.getFieldVectors().forEach(FieldVector::reset);
            }
            int[] keptRows = new int[kept];
            for (int row = 0, target = 0; row < rows; row++) {
                if (keep[row]) {
                    keptRows[target++] = row;
                }
            }
            for (int column = 0; column < outputTypes().size(); column++) {
                Gather.rows(batch.getVector(column), keptRows, kept, output.getVector(column));
            }
            output.setRowCount(kept);
            return output;
        }
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
        }
        input.close();
    }
}
