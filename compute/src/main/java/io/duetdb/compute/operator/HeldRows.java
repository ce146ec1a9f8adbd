package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/**
 * The rows an operator holds whole (a sort's, a window's): counted against a memory while they are held, then
 * given out a batch at a time in a chosen order. The batch given out last is closed at the next call.
 */
final class HeldRows implements AutoCloseable {
    private final List<FieldType> types;
    private final BufferAllocator allocator;
    private final int batchRows;
    private final LongConsumer memory;
    private long held;
    private VectorSchemaRoot rows;
    private int[] order;
    private int next;
    private int end;
    private VectorSchemaRoot output;

    HeldRows(List<FieldType> types, BufferAllocator allocator, int batchRows, LongConsumer memory) {
        this.types = List.copyOf(types);
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (batchRows <= 0) {
            throw new IllegalArgumentException("batchRows " + batchRows + " must be positive");
        }
        this.batchRows = batchRows;
        this.memory = requireNonNull(memory, "memory is null");
    }

    /** Counts the bytes held now against the memory: the change since the last count. */
    void count(long bytes) {
        memory.accept(bytes - held);
        held = bytes;
    }

    /** From now on, gives out rows {@code order[from, to)} of {@code rows} (rows {@code from} to {@code to} without an order). */
    void giveOut(VectorSchemaRoot rows, int[] order, int from, int to) {
        this.rows = requireNonNull(rows, "rows is null");
        this.order = order;
        this.next = from;
        this.end = to;
    }

    boolean givingOut() {
        return rows != null;
    }

    /** The next batch of the rows given out, or null after the last. */
    VectorSchemaRoot next() {
        closeOutput();
        if (next >= end) {
            return null;
        }
        int count = Math.min(batchRows, end - next);
        int[] positions;
        if (order != null) {
            positions = Arrays.copyOfRange(order, next, next + count);
        } else {
            positions = new int[count];
            Arrays.setAll(positions, i -> next + i);
        }
        output = Batches.empty(types, allocator);
        output.allocateNew();
        gather(rows, positions, output);
        next += count;
        return output;
    }

    /** Copies the rows at {@code positions} of {@code from}, in that order, into {@code to} (empty, of the same types). */
    static void gather(VectorSchemaRoot from, int[] positions, VectorSchemaRoot to) {
        for (int column = 0; column < from.getFieldVectors().size(); column++) {
            Gather.rows(from.getVector(column), positions, positions.length, to.getVector(column));
        }
        to.setRowCount(positions.length);
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
        try {
            if (rows != null) {
                rows.close();
                rows = null;
            }
        } finally {
            memory.accept(-held);
            held = 0;
        }
    }
}
