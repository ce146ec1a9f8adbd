package io.duetdb.compute.operator;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/**
 * Rows output and time spent per executor of one pipeline, in the plan's order: what EXPLAIN ANALYZE shows for
 * each coprocessor executor. Not thread-safe: a pipeline is pulled by one thread.
 */
public final class ExecutorStatistics {
    private final long[] rows;
    private final long[] nanos;

    public ExecutorStatistics(int executors) {
        if (executors < 0) {
            throw new IllegalArgumentException("executors must not be negative");
        }
        rows = new long[executors];
        nanos = new long[executors];
    }

    public int executors() {
        return rows.length;
    }

    public long outputRows(int executor) {
        return rows[executor];
    }

    /** Time spent in the executor's next calls, its inputs' included. */
    public long elapsedNanos(int executor) {
        return nanos[executor];
    }

    /** {@code operator} counting what it outputs as executor number {@code executor}. */
    BatchOperator counting(BatchOperator operator, int executor) {
        if (executor < 0 || executor >= rows.length) {
            throw new IllegalArgumentException("executor " + executor + " is not one of " + rows.length);
        }
        return new BatchOperator() {
            @Override
            public List<FieldType> outputTypes() {
                return operator.outputTypes();
            }

            @Override
            public VectorSchemaRoot next() {
                long started = System.nanoTime();
                VectorSchemaRoot batch = operator.next();
                nanos[executor] += System.nanoTime() - started;
                if (batch != null) {
                    rows[executor] += batch.getRowCount();
                }
                return batch;
            }

            @Override
            public void close() {
                operator.close();
            }
        };
    }
}
