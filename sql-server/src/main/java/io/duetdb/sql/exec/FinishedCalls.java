package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.rel.core.AggregateCall;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * Columns of an input taken as they are, or finished from partial aggregate states where the SQL value is not the
 * state itself (an AVG from its sum and count, a $SUM0's zero for no rows), row by row as the final merge does.
 */
final class FinishedCalls implements BatchOperator {
    /** An output column: the input's column at {@code positions[0]}, or a call finished from its state columns. */
    record Column(int[] positions, AggregateCall call, FieldType type) {
        Column {
            requireNonNull(positions, "positions is null");
            requireNonNull(type, "type is null");
        }

        static Column taken(int position, FieldType type) {
            return new Column(new int[] {position}, null, type);
        }
    }

    private final BatchOperator input;
    private final List<Column> columns;
    private final BufferAllocator allocator;
    private final List<FieldType> types;
    private VectorSchemaRoot output;

    FinishedCalls(BatchOperator input, List<Column> columns, BufferAllocator allocator) {
        this.input = requireNonNull(input, "input is null");
        this.columns = List.copyOf(columns);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.types = this.columns.stream().map(Column::type).toList();
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        closeOutput();
        VectorSchemaRoot batch = input.next();
        if (batch == null) {
            return null;
        }
        int rows = batch.getRowCount();
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (Column column : columns) {
                vectors.add(column.call() == null ? taken(batch.getVector(column.positions()[0]))
                        : finished(batch, column, rows));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        output = new VectorSchemaRoot(vectors);
        output.setRowCount(rows);
        return output;
    }

    private FieldVector taken(FieldVector vector) {
        var transfer = vector.getTransferPair(allocator);
        transfer.transfer();
        return (FieldVector) transfer.getTo();
    }

    private FieldVector finished(VectorSchemaRoot batch, Column column, int rows) {
        int[] positions = column.positions();
        int[] slots = new int[positions.length];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = i;
        }
        FieldVector vector = ValueTypes.newVector("finished", column.type(), allocator);
        try {
            vector.allocateNew();
            Object[] state = new Object[positions.length];
            for (int row = 0; row < rows; row++) {
                for (int i = 0; i < positions.length; i++) {
                    state[i] = ComputeValues.toSql(VectorValues.get(batch.getVector(positions[i]), row),
                            input.outputTypes().get(positions[i]));
                }
                Object value = PartialAggregates.result(column.call(), state, slots);
                VectorValues.set(vector, row, ComputeValues.toCompute(value, column.type()));
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
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
