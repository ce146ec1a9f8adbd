package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.FieldType;

/** Outputs one column per expression. */
public final class ProjectionOperator implements BatchOperator {
    private final BatchOperator input;
    private final List<VectorExpression> expressions;
    private final BufferAllocator allocator;
    private final List<FieldType> types;
    private VectorSchemaRoot output;

    public ProjectionOperator(BatchOperator input, List<VectorExpression> expressions, BufferAllocator allocator) {
        this.input = requireNonNull(input, "input is null");
        this.expressions = List.copyOf(expressions);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.types = this.expressions.stream().map(VectorExpression::type).toList();
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        VectorSchemaRoot batch = input.next();
        closeOutput();
        if (batch == null) {
            return null;
        }
        List<FieldVector> vectors = new ArrayList<>(expressions.size());
        try {
            for (VectorExpression expression : expressions) {
                vectors.add(expression.evaluate(batch, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        output = new VectorSchemaRoot(vectors);
        output.setRowCount(batch.getRowCount());
        return output;
    }

    private void closeOutput() {
        if (output != null) {
            output.close();
            output = null;
        }
    }

    @Override
    public void close() {
        closeOutput();
        input.close();
    }
}
