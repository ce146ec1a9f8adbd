package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.VectorValues;
import io.duetdb.compute.expression.VectorExpression;

/**
 * The groups of a batch whose rows arrive ordered by their group-by keys: a row starts a new group when its keys'
 * bytes differ from the row before, so no hash table is built. Each batch is grouped on its own; a group that a
 * batch boundary cuts comes out of both batches, for the caller to combine. Not thread-safe.
 */
public final class OrderedGroups {
    private final List<VectorExpression> groupBy;
    private final List<PartialAggregationOperator.Call> calls;
    private final BufferAllocator allocator;
    private final KeyEncoder encoder = new KeyEncoder();
    private byte[] previous = new byte[64];

    public OrderedGroups(List<VectorExpression> groupBy, List<PartialAggregationOperator.Call> calls,
            BufferAllocator allocator) {
        this.groupBy = List.copyOf(groupBy);
        this.calls = List.copyOf(calls);
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The batch's groups in order: each the key values, then each call's result, as {@link VectorValues} give them. */
    public List<Object[]> of(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        int keyCount = groupBy.size();
        try (AggregateInputs inputs = AggregateInputs.evaluate(groupBy, calls, batch, allocator)) {
            List<FieldVector> keys = inputs.keys();
            List<FieldVector> arguments = inputs.arguments();
            int[] groupOfRow = new int[rows];
            List<Object[]> results = new ArrayList<>();
            int previousLength = -1;
            for (int row = 0; row < rows; row++) {
                int length = encoder.encode(keys, row);
                byte[] key = encoder.bytes();
                if (previousLength < 0 || !Arrays.equals(previous, 0, previousLength, key, 0, length)) {
                    Object[] values = new Object[keyCount + calls.size()];
                    for (int k = 0; k < keyCount; k++) {
                        values[k] = VectorValues.get(keys.get(k), row);
                    }
                    results.add(values);
                    if (previous.length < length) {
                        previous = new byte[Math.max(length, previous.length * 2)];
                    }
                    System.arraycopy(key, 0, previous, 0, length);
                    previousLength = length;
                }
                groupOfRow[row] = results.size() - 1;
            }
            int groupCount = results.size();
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
}
