package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * An equi-join of two inputs that both arrive ascending by a whole-number key (records scanned in clustered-key
 * order), over Arrow batches. The left batches walk forward; the right rows are appended into a window that reaches
 * just past the current left key, and rows behind it are dropped as the walk moves on, so neither input is held
 * whole. Candidate pairs (equal keys) must also pass the condition, evaluated over them as a batch. NULL keys match
 * nothing. Inner, left outer and semi joins; rows come out in the left input's order. An input found out of order
 * fails the join rather than answer wrongly. Not thread-safe.
 */
public final class MergeJoinOperator implements BatchOperator {
    /** Candidate pairs after which the rest of a left batch waits for the next call (a row's pairs are never split). */
    static final int PAIRS = 65_536;
    /** Dropped right rows the window keeps until they are this many and half of it, so the copying stays amortized. */
    static final int COMPACT_ROWS = 8_192;

    /** The rows a join returns; SEMI returns left rows only. */
    public enum Kind {
        INNER, LEFT, SEMI
    }

    private final BatchOperator left;
    private final BatchOperator right;
    private final Kind kind;
    private final int leftKey;
    private final int rightKey;
    private final VectorExpression condition;
    private final BitSet conditionColumns;
    private final BufferAllocator allocator;
    private final LongConsumer memory;
    private final List<FieldType> pairTypes;
    private final List<FieldType> outputTypes;
    private final int leftWidth;

    private VectorSchemaRoot leftBatch;
    private BigIntVector leftKeys;
    private int leftPosition;
    /** The first left row of the current batch whose pairs have not gone out yet. */
    private int emitFrom;
    private boolean leftEnded;
    private long lastLeftKey = Long.MIN_VALUE;

    private AppendedBatch window;
    private VectorSchemaRoot windowRows;
    /** Window rows before this one have keys below the current left key (or NULL): no later left row matches them. */
    private int rightPosition;
    private boolean rightEnded;
    private long lastRightKey = Long.MIN_VALUE;
    private long windowBytes;

    private int[] pairLeft = new int[1024];
    private int[] pairRight = new int[1024];
    private int pairs;
    private VectorSchemaRoot output;

    /**
     * @param condition a condition over the left columns followed by the right ones that pairs must also pass, or null
     * @param conditionColumns the pair columns the condition reads, or null for all
     * @param memory told of every byte the window starts holding (it may throw to stop the join) and, negated, of
     *     those it gives back
     */
    public MergeJoinOperator(BatchOperator left, BatchOperator right, Kind kind, int leftKey, int rightKey,
            VectorExpression condition, BitSet conditionColumns, BufferAllocator allocator, LongConsumer memory) {
        this.left = requireNonNull(left, "left is null");
        this.right = requireNonNull(right, "right is null");
        this.kind = requireNonNull(kind, "kind is null");
        this.leftKey = leftKey;
        this.rightKey = rightKey;
        this.condition = condition;
        this.conditionColumns = conditionColumns == null ? null : (BitSet) conditionColumns.clone();
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.memory = requireNonNull(memory, "memory is null");
        if (left.outputTypes().get(leftKey).getType() != ValueType.INT64
                || right.outputTypes().get(rightKey).getType() != ValueType.INT64) {
            throw new UnsupportedExpressionException("merge join keys of types "
                    + left.outputTypes().get(leftKey).getType() + " and " + right.outputTypes().get(rightKey).getType());
        }
        if (condition != null && !VectorExpressions.isBoolean(condition)) {
            throw new UnsupportedExpressionException("a join condition of type " + condition.type().getType());
        }
        this.leftWidth = left.outputTypes().size();
        List<FieldType> pair = new ArrayList<>(left.outputTypes());
        pair.addAll(right.outputTypes());
        this.pairTypes = List.copyOf(pair);
        this.outputTypes = kind == Kind.SEMI ? left.outputTypes() : pairTypes;
    }

    @Override
    public List<FieldType> outputTypes() {
        return outputTypes;
    }

    @Override
    public VectorSchemaRoot next() {
        closeOutput();
        while (!leftEnded) {
            if (walk()) {
                output = emit();
                if (output != null) {
                    return output;
                }
            }
        }
        return null;
    }

    /**
     * Moves the walk on until the left rows seen so far must go out: their batch ended, the pairs reached
     * {@link #PAIRS}, or the window must drop rows that pairs still name. Answers whether rows are due.
     */
    private boolean walk() {
        if (leftBatch == null || leftPosition >= leftBatch.getRowCount()) {
            if (leftBatch != null && emitFrom < leftPosition) {
                return true;
            }
            leftBatch = left.next();
            leftPosition = 0;
            emitFrom = 0;
            if (leftBatch == null) {
                leftEnded = true;
                return false;
            }
            leftKeys = (BigIntVector) leftBatch.getVector(leftKey);
        }
        int rows = leftBatch.getRowCount();
        while (leftPosition < rows) {
            if (pairs >= PAIRS) {
                return true;
            }
            if (leftKeys.isNull(leftPosition)) {
                leftPosition++;
                continue;
            }
            long key = leftKeys.get(leftPosition);
            if (key < lastLeftKey) {
                throw outOfOrder("left", lastLeftKey, key);
            }
            lastLeftKey = key;
            while (!covers(key)) {
                if (mustCompact() && pairs > 0) {
                    return true;
                }
                pullRight();
            }
            BigIntVector rightKeys = windowRows == null ? null : (BigIntVector) windowRows.getVector(rightKey);
            int windowCount = windowRows == null ? 0 : windowRows.getRowCount();
            while (rightPosition < windowCount && (rightKeys.isNull(rightPosition) || rightKeys.get(rightPosition) < key)) {
                rightPosition++;
            }
            for (int row = rightPosition; row < windowCount && !rightKeys.isNull(row) && rightKeys.get(row) == key; row++) {
                addPair(leftPosition, row);
                if (kind == Kind.SEMI && condition == null) {
                    break;
                }
            }
            leftPosition++;
        }
        return emitFrom < leftPosition;
    }

    /** Whether the window holds every right row with the key: its last key is beyond it, or the right side ended. */
    private boolean covers(long key) {
        if (rightEnded) {
            return true;
        }
        int count = windowRows == null ? 0 : windowRows.getRowCount();
        if (count == 0) {
            return false;
        }
        BigIntVector keys = (BigIntVector) windowRows.getVector(rightKey);
        return !keys.isNull(count - 1) && keys.get(count - 1) > key;
    }

    private boolean mustCompact() {
        return rightPosition >= COMPACT_ROWS && rightPosition * 2L >= windowRows.getRowCount();
    }

    private void pullRight() {
        if (windowRows != null && mustCompact()) {
            compact();
        }
        VectorSchemaRoot batch = right.next();
        if (batch == null) {
            rightEnded = true;
            return;
        }
        BigIntVector keys = (BigIntVector) batch.getVector(rightKey);
        for (int row = 0; row < batch.getRowCount(); row++) {
            if (!keys.isNull(row)) {
                long key = keys.get(row);
                if (key < lastRightKey) {
                    throw outOfOrder("right", lastRightKey, key);
                }
                lastRightKey = key;
            }
        }
        if (window == null) {
            window = new AppendedBatch(right.outputTypes(), allocator);
        }
        window.append(batch);
        windowRows = window.batch();
        holdWindow();
    }

    /** Drops the window's rows before {@link #rightPosition}; no pair may name a window row. */
    private void compact() {
        VectorSchemaRoot kept = windowRows.slice(rightPosition, windowRows.getRowCount() - rightPosition);
        AppendedBatch compacted = new AppendedBatch(right.outputTypes(), allocator);
        try {
            compacted.append(kept);
        } catch (RuntimeException e) {
            compacted.close();
            throw e;
        } finally {
            kept.close();
        }
        window.close();
        window = compacted;
        windowRows = window.batch();
        rightPosition = 0;
        holdWindow();
    }

    private void holdWindow() {
        long bytes = AppendedBatch.bytes(windowRows);
        long delta = bytes - windowBytes;
        windowBytes = bytes;
        if (delta != 0) {
            memory.accept(delta);
        }
    }

    private void addPair(int leftRow, int rightRow) {
        if (pairs == pairLeft.length) {
            pairLeft = Arrays.copyOf(pairLeft, pairs * 2);
            pairRight = Arrays.copyOf(pairRight, pairs * 2);
        }
        pairLeft[pairs] = leftRow;
        pairRight[pairs] = rightRow;
        pairs++;
    }

    /** The rows of left rows {@code emitFrom} up to {@code leftPosition}, or null when none come out. */
    private VectorSchemaRoot emit() {
        int from = emitFrom;
        int to = leftPosition;
        emitFrom = to;
        int passing = condition == null || pairs == 0 ? pairs : passing();
        pairs = 0;
        if (kind == Kind.INNER) {
            return passing == 0 ? null : Gather.pairs(outputTypes, leftWidth, leftBatch, pairLeft, windowRows,
                    pairRight, passing, null, allocator);
        }
        int[] leftRows = new int[passing + (kind == Kind.LEFT ? to - from : 0)];
        int[] rightRows = kind == Kind.LEFT ? new int[leftRows.length] : null;
        int count = 0;
        int pair = 0;
        for (int row = from; row < to; row++) {
            boolean matched = false;
            while (pair < passing && pairLeft[pair] == row) {
                if (kind == Kind.SEMI) {
                    if (!matched) {
                        leftRows[count++] = row;
                    }
                } else {
                    leftRows[count] = row;
                    rightRows[count++] = pairRight[pair];
                }
                matched = true;
                pair++;
            }
            if (!matched && kind == Kind.LEFT) {
                leftRows[count] = row;
                rightRows[count++] = -1;
            }
        }
        if (count == 0) {
            return null;
        }
        return kind == Kind.SEMI ? Gather.pairs(outputTypes, leftWidth, leftBatch, leftRows, null, null, count, null,
                allocator) : Gather.pairs(outputTypes, leftWidth, leftBatch, leftRows, windowRows, rightRows, count, null,
                allocator);
    }

    /** Keeps the candidate pairs for which the condition is TRUE, in order; answers how many are left. */
    private int passing() {
        return Gather.passing(condition, Gather.pairs(pairTypes, leftWidth, leftBatch, pairLeft, windowRows, pairRight,
                pairs, conditionColumns, allocator), pairLeft, pairRight, pairs, allocator);
    }

    /** The planner proved the order; a row against it would make the join silently wrong, so it fails instead. */
    private static IllegalStateException outOfOrder(String side, long previous, long key) {
        return new IllegalStateException("merge join: the " + side + " input is not ascending by its key (" + previous
                + " before " + key + ")");
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
        if (window != null) {
            window.close();
            window = null;
            windowRows = null;
        }
        if (windowBytes > 0) {
            memory.accept(-windowBytes);
            windowBytes = 0;
        }
        try {
            left.close();
        } finally {
            right.close();
        }
    }
}
