package io.duetdb.compute.operator;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.expression.VectorExpression;

/** One batch's group-by keys and call arguments (null for COUNT(*)), evaluated and closed together. */
record AggregateInputs(List<FieldVector> keys, List<FieldVector> arguments) implements AutoCloseable {
    static AggregateInputs evaluate(List<VectorExpression> groupBy, List<PartialAggregationOperator.Call> calls,
            VectorSchemaRoot batch, BufferAllocator allocator) {
        AggregateInputs inputs = new AggregateInputs(new ArrayList<>(groupBy.size()), new ArrayList<>(calls.size()));
        try {
            for (VectorExpression expression : groupBy) {
                inputs.keys.add(expression.evaluate(batch, allocator));
            }
            for (PartialAggregationOperator.Call call : calls) {
                inputs.arguments.add(call.argument() == null ? null : call.argument().evaluate(batch, allocator));
            }
            return inputs;
        } catch (RuntimeException e) {
            inputs.close();
            throw e;
        }
    }

    @Override
    public void close() {
        keys.forEach(FieldVector::close);
        arguments.stream().filter(java.util.Objects::nonNull).forEach(FieldVector::close);
    }
}
