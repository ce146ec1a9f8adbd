package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/** The first {@code limit} rows; stops pulling its input once they are out. */
public final class LimitOperator implements BatchOperator {
    private final BatchOperator input;
    private long remaining;

    public LimitOperator(BatchOperator input, long limit) {
        this.input = requireNonNull(input, "input is null");
        this.remaining = limit;
    }

    @Override
    public List<FieldType> outputTypes() {
        return input.outputTypes();
    }

    @Override
    public VectorSchemaRoot next() {
        if (remaining <= 0) {
            return null;
        }
        VectorSchemaRoot batch = input.next();
        if (batch == null) {
            return null;
        }
        if (batch.getRowCount() > remaining) {
            batch.setRowCount((int) remaining);
        }
        remaining -= batch.getRowCount();
        return batch;
    }

    @Override
    public void close() {
        input.close();
    }
}
