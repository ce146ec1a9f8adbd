package io.duetdb.common.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.compute.UnsupportedExpressionException;
import io.duetdb.common.compute.VectorValues;
import io.duetdb.common.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * A partial aggregation over input that arrives ordered by its group-by keys (an index scan grouped by the index's
 * leading columns): a row starts a new group when its key differs from the row before, so no hash table is built
 * and each input batch's groups go out with it. A group cut by a batch boundary goes out as two partial rows,
 * which the SQL layer's merge adds up as it does any partial result; input that is not ordered only makes more
 * partial rows, never a wrong answer.
 */
public final class StreamAggregationOperator implements BatchOperator {
    private final BatchOperator input;
    private final List<VectorExpression> groupBy;
    private final List<PartialAggregationOperator.Call> calls;
    private final BufferAllocator allocator;
    private final List<FieldType> types;
    private final KeyEncoder encoder = new KeyEncoder();
    private byte[] previous = new byte[64];
    private VectorSchemaRoot output;

    public StreamAggregationOperator(BatchOperator input, List<VectorExpression> groupBy,
            List<PartialAggregationOperator.Call> calls, BufferAllocator allocator) {
        this.input = requireNonNull(input, "input is null");
        this.groupBy = List.copyOf(groupBy);
        this.calls = List.copyOf(calls);
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (this.groupBy.isEmpty()) {
            // A global aggregate gives one row even for no input: that is the hash aggregation's job.
            throw new UnsupportedExpressionException("a stream aggregation needs group-by keys");
        }
        this.types = PartialAggregationOperator.outputTypes(this.groupBy, this.calls);
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        if (output != null) {
            output.close();
            output = null;
        }
        VectorSchemaRoot batch;
        while ((batch = input.next()) != null) {
            if (batch.getRowCount() > 0) {
                output = Batches.ofRows(types, aggregate(batch), allocator);
                return output;
            }
        }
        return null;
    }

    private List<Object[]> aggregate(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        int keyCount = groupBy.size();
        try (AggregateInputs inputs = AggregateInputs.evaluate(groupBy, calls, batch, allocator)) {
            List<FieldVector> keys = inputs.keys();
            List<FieldVector> arguments = inputs.arguments();
            int[] groupOfRow = new int[rows];
            List<Object[]> keyValues = new ArrayList<>();
            int previousLength = -1;
            for (int row = 0; row < rows; row++) {
                int length = encoder.encode(keys, row);
                byte[] key = encoder.bytes();
                if (previousLength < 0 || !Arrays.equals(previous, 0, previousLength, key, 0, length)) {
                    Object[] values = new Object[keyCount];
                    for (int k = 0; k < keyCount; k++) {
                        values[k] = VectorValues.get(keys.get(k), row);
                    }
                    keyValues.add(values);
                    if (previous.length < length) {
                        previous = new byte[Math.max(length, previous.length * 2)];
                    }
                    System.arraycopy(key, 0, previous, 0, length);
                    previousLength = length;
                }
                groupOfRow[row] = keyValues.size() - 1;
            }
            int groupCount = keyValues.size();
            List<Object[]> results = new ArrayList<>(groupCount);
            for (Object[] values : keyValues) {
                Object[] row = Arrays.copyOf(values, keyCount + calls.size());
                results.add(row);
            }
            for (int c = 0; c < calls.size(); c++) {
                Accumulator accumulator = Accumulator.of(calls.get(c));
                accumulator.ensureGroups(groupCount);
                accumulator.add(arguments.get(c), groupOfRow, rows);
                for (int group = 0; group < groupCount; group++) {
                    results.get(group)[keyCount + c] = accumulator.result(group);
                }
            }
            return results;
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
