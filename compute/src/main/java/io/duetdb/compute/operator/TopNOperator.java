package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueOrdering;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.FieldType;

/** The first {@code limit} rows by the sort keys, NULLs first ascending and last descending. */
public final class TopNOperator implements BatchOperator {
    public record SortKey(VectorExpression expression, boolean descending) {
        public SortKey {
            requireNonNull(expression, "expression is null");
        }
    }

    private final BatchOperator input;
    private final List<SortKey> keys;
    private final long limit;
    private final BufferAllocator allocator;
    private final int batchRows;
    private List<Object[]> sorted;
    private int emitted;
    private VectorSchemaRoot output;

    public TopNOperator(BatchOperator input, List<SortKey> keys, long limit, BufferAllocator allocator, int batchRows) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(keys);
        this.limit = limit;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchRows = batchRows;
    }

    @Override
    public List<FieldType> outputTypes() {
        return input.outputTypes();
    }

    /** Compares rows that carry their sort key values after the output columns. */
    private Comparator<Object[]> order(int width) {
        return (a, b) -> {
            for (int k = 0; k < keys.size(); k++) {
                Object x = a[width + k];
                Object y = b[width + k];
                int result = x == null || y == null ? (x == y ? 0 : x == null ? -1 : 1)
                        : ValueOrdering.compare(x, y, keys.get(k).expression().type().getType());
                if (keys.get(k).descending()) {
                    result = -result;
                }
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    @Override
    public VectorSchemaRoot next() {
        if (sorted == null) {
            sorted = collect();
        }
        if (output != null) {
            output.close();
            output = null;
        }
        if (emitted >= sorted.size()) {
            return null;
        }
        int end = Math.min(sorted.size(), emitted + batchRows);
        output = Batches.ofRows(outputTypes(), sorted.subList(emitted, end), allocator);
        emitted = end;
        return output;
    }

    private List<Object[]> collect() {
        int width = outputTypes().size();
        Comparator<Object[]> order = order(width);
        // A max-heap of the best rows so far: its head is the worst one kept.
        PriorityQueue<Object[]> best = new PriorityQueue<>(order.reversed());
        if (limit > 0) {
            VectorSchemaRoot batch;
            while ((batch = input.next()) != null) {
                List<FieldVector> values = new ArrayList<>(keys.size());
                try {
                    for (SortKey key : keys) {
                        values.add(key.expression().evaluate(batch, allocator));
                    }
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        Object[] candidate = new Object[width + keys.size()];
                        for (int k = 0; k < keys.size(); k++) {
                            candidate[width + k] = VectorValues.get(values.get(k), row);
                        }
                        if (best.size() >= limit && order.compare(candidate, best.peek()) >= 0) {
                            continue;
                        }
                        for (int column = 0; column < width; column++) {
                            candidate[column] = VectorValues.get(batch.getVector(column), row);
                        }
                        best.add(candidate);
                        if (best.size() > limit) {
                            best.poll();
                        }
                    }
                } finally {
                    values.forEach(FieldVector::close);
                }
            }
        }
        List<Object[]> rows = new ArrayList<>(best);
        rows.sort(order);
        return rows;
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
        }
        input.close();
    }
}
