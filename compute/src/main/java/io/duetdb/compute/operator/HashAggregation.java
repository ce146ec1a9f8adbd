package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.expression.VectorExpression;

/**
 * Hash aggregation over Arrow batches: rows are grouped on their encoded key bytes and each call accumulates into
 * primitive arrays indexed by group. The stores' partial aggregation and the SQL layer's final merge of partial
 * results both run on it. Not thread-safe.
 */
public final class HashAggregation {
    private final List<VectorExpression> groupBy;
    private final List<PartialAggregationOperator.Call> calls;
    private final GroupTable groups = new GroupTable();
    private final List<Accumulator> accumulators;
    private int[] groupOfRow = new int[0];

    public HashAggregation(List<VectorExpression> groupBy, List<PartialAggregationOperator.Call> calls) {
        this.groupBy = List.copyOf(groupBy);
        this.calls = List.copyOf(calls);
        this.accumulators = this.calls.stream().map(Accumulator::of).toList();
    }

    /** Adds a batch's rows to their groups. */
    public void add(VectorSchemaRoot batch, BufferAllocator allocator) {
        requireNonNull(batch, "batch is null");
        int rows = batch.getRowCount();
        if (groupOfRow.length < rows) {
            groupOfRow = new int[rows];
        }
        try (AggregateInputs inputs = AggregateInputs.evaluate(groupBy, calls, batch, allocator)) {
            int groupCount = 1;
            if (!groupBy.isEmpty()) {
                groups.assign(inputs.keys(), rows, groupOfRow);
                groupCount = groups.groupCount();
            }
            for (int c = 0; c < calls.size(); c++) {
                accumulators.get(c).ensureGroups(groupCount);
                accumulators.get(c).add(inputs.arguments().get(c), groupOfRow, rows);
            }
        }
    }

    /** Groups so far; without group-by there is always the one group. */
    public int groupCount() {
        return groupBy.isEmpty() ? 1 : groups.groupCount();
    }

    /** An estimate of the heap the groups hold: their key bytes and values, and each call's slot. */
    public long estimatedBytes() {
        return 2L * groups.keyBytes() + (long) groupCount() * (64 + 24L * groupBy.size() + 16L * calls.size());
    }

    /**
     * Per group, in the order groups first appeared: the group-by values, then each call's result, as
     * {@link io.duetdb.compute.VectorValues} Java values. Without group-by, one row even for no input, as
     * SQL's global aggregates give.
     */
    public List<Object[]> results() {
        int keyCount = groupBy.size();
        int groupCount = groupCount();
        List<Object[]> rows = new ArrayList<>(groupCount);
        for (int group = 0; group < groupCount; group++) {
            Object[] row = new Object[keyCount + calls.size()];
            if (keyCount > 0) {
                System.arraycopy(groups.keyValues(group), 0, row, 0, keyCount);
            }
            for (int c = 0; c < calls.size(); c++) {
                accumulators.get(c).ensureGroups(groupCount);
                row[keyCount + c] = accumulators.get(c).result(group);
            }
            rows.add(row);
        }
        return rows;
    }
}
