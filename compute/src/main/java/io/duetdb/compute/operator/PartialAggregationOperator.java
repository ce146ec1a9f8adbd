package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * A hash aggregation that outputs partial results for the SQL layer to merge: per group, the group-by values,
 * then per call a COUNT, a SUM (NULL when it summed nothing) or a MIN / MAX. Without group-by it outputs one row
 * even for an empty input, as SQL's global aggregates do.
 */
public final class PartialAggregationOperator implements BatchOperator {
    /** One aggregate call: its function, its argument (null for COUNT(*)) and its partial result's type. */
    public record Call(AggregateFunction function, VectorExpression argument, FieldType type) {
        public Call {
            requireNonNull(function, "function is null");
            requireNonNull(type, "type is null");
            if (argument == null && function != AggregateFunction.COUNT) {
                throw new UnsupportedExpressionException(function + " without an argument");
            }
            switch (function) {
                case COUNT -> expect(type.getType() == ValueType.INT64, "COUNT gives INT64");
                case SUM -> expect(type.getType() == ValueType.DECIMAL && ValueTypes.isNumeric(argument.type().getType())
                        && argument.type().getType() != ValueType.FLOAT32 && argument.type().getType() != ValueType.FLOAT64
                        || type.getType() == ValueType.FLOAT64 && ValueTypes.isNumeric(argument.type().getType()),
                        "SUM gives DECIMAL for exact numbers and FLOAT64 for any number");
                case MIN, MAX -> expect(type.getType() == argument.type().getType(), function + " keeps its argument's type");
                default -> throw new UnsupportedExpressionException("aggregate " + function + " is not supported");
            }
        }

        private static void expect(boolean condition, String rule) {
            if (!condition) {
                throw new UnsupportedExpressionException("invalid aggregate call: " + rule);
            }
        }
    }

    private final BatchOperator input;
    private final List<VectorExpression> groupBy;
    private final List<Call> calls;
    private final BufferAllocator allocator;
    private final int batchRows;
    private final List<FieldType> types;
    private List<Object[]> results;
    private int emitted;
    private VectorSchemaRoot output;

    public PartialAggregationOperator(BatchOperator input, List<VectorExpression> groupBy, List<Call> calls,
            BufferAllocator allocator, int batchRows) {
        this.input = requireNonNull(input, "input is null");
        this.groupBy = List.copyOf(groupBy);
        this.calls = List.copyOf(calls);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchRows = batchRows;
        this.types = outputTypes(this.groupBy, this.calls);
    }

    /** A partial aggregation's output: the group-by values, then one partial result per call. */
    static List<FieldType> outputTypes(List<VectorExpression> groupBy, List<Call> calls) {
        List<FieldType> types = new ArrayList<>();
        groupBy.forEach(expression -> types.add(expression.type()));
        calls.forEach(call -> types.add(call.type()));
        return List.copyOf(types);
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        if (results == null) {
            results = aggregate();
        }
        if (output != null) {
            output.close();
            output = null;
        }
        if (emitted >= results.size()) {
            return null;
        }
        int end = Math.min(results.size(), emitted + batchRows);
        output = Batches.ofRows(types, results.subList(emitted, end), allocator);
        emitted = end;
        return output;
    }

    private List<Object[]> aggregate() {
        HashAggregation aggregation = new HashAggregation(groupBy, calls);
        VectorSchemaRoot batch;
        while ((batch = input.next()) != null) {
            aggregation.add(batch, allocator);
        }
        return aggregation.results();
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
        }
        input.close();
    }
}
