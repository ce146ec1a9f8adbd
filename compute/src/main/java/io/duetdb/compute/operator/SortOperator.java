package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/**
 * The input's rows ordered by sort keys (MySQL's order: NULLs first ascending, last descending), from
 * {@code offset} for at most {@code fetch} rows. The input is appended into one batch and a permutation of its
 * rows is sorted; with a fetch, the batch is cut back to the best {@code offset + fetch} rows whenever it holds
 * twice as many, so a top N holds little more than N rows. Without keys the first rows are as good as any, and
 * the input is read no further than it needs. The rows held count against {@code memory} as they grow.
 */
public final class SortOperator implements BatchOperator {
    /** A column to sort by: its position in the input's rows. */
    public record Key(int column, boolean descending) {
        public Key {
            if (column < 0) {
                throw new IllegalArgumentException("column " + column + " is negative");
            }
        }
    }

    /** Rows held before a top N is cut back: cutting a few rows after each batch would sort more often. */
    private static final int CUT_BACK_ROWS = 8_192;

    private final BatchOperator input;
    private final List<Key> keys;
    private final long offset;
    private final long fetch;
    private final BufferAllocator allocator;
    private final HeldRows held;

    public SortOperator(BatchOperator input, List<Key> keys, long offset, long fetch, BufferAllocator allocator,
            int batchRows, LongConsumer memory) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(keys);
        if (offset < 0 || fetch < 0) {
            throw new IllegalArgumentException("offset " + offset + " and fetch " + fetch + " must not be negative");
        }
        for (Key key : this.keys) {
            if (key.column() >= input.outputTypes().size()) {
                throw new IllegalArgumentException("sort column " + key.column() + " is not an input column");
            }
        }
        this.offset = offset;
        this.fetch = fetch;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.held = new HeldRows(input.outputTypes(), allocator, batchRows, memory);
    }

    @Override
    public List<FieldType> outputTypes() {
        return input.outputTypes();
    }

    @Override
    public VectorSchemaRoot next() {
        if (!held.givingOut()) {
            sort();
        }
        return held.next();
    }

    private void sort() {
        long kept = fetch > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + fetch;
        boolean cutBack = kept <= Integer.MAX_VALUE / 2;
        AppendedBatch rows = new AppendedBatch(outputTypes(), allocator);
        VectorSchemaRoot sorted;
        try {
            while (!keys.isEmpty() || rows.rows() < kept) {
                VectorSchemaRoot batch = input.next();
                if (batch == null) {
                    break;
                }
                rows.append(batch);
                held.count(rows.bytes());
                if (cutBack && !keys.isEmpty() && rows.rows() >= Math.max(2 * kept, CUT_BACK_ROWS)) {
                    AppendedBatch best = best(rows, (int) kept);
                    rows.close();
                    rows = best;
                    held.count(rows.bytes());
                }
            }
            sorted = rows.take();
        } finally {
            rows.close();
        }
        int[] order;
        try {
            order = RowOrder.sorted(sorted, keys);
        } catch (RuntimeException e) {
            sorted.close();
            throw e;
        }
        int count = sorted.getRowCount();
        held.giveOut(sorted, order, (int) Math.min(offset, count), (int) Math.min(kept, count));
        held.count(AppendedBatch.bytes(sorted) + 4L * order.length);
    }

    /** The first {@code count} rows of {@code rows} in order, as a batch that can grow again. */
    private AppendedBatch best(AppendedBatch rows, int count) {
        VectorSchemaRoot all = rows.take();
        try {
            int[] best = RowOrder.sorted(all, keys);
            VectorSchemaRoot kept = Batches.empty(outputTypes(), allocator);
            kept.allocateNew();
            HeldRows.gather(all, Arrays.copyOf(best, Math.min(count, best.length)), kept);
            return new AppendedBatch(kept);
        } finally {
            all.close();
        }
    }

    @Override
    public void close() {
        try {
            held.close();
        } finally {
            input.close();
        }
    }
}
