package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
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
    private final OrderedGroups groups;
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
        this.groups = new OrderedGroups(this.groupBy, this.calls, allocator);
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
                output = Batches.ofRows(types, groups.of(batch), allocator);
                return output;
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
        }
        input.close();
    }
}
