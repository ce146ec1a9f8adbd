package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * An equi-join over Arrow batches. Both inputs are read in turn, the one that has given fewer rows first, until
 * one ends: that one (the smaller) is the build side, held whole in one batch and indexed by its keys' bytes, and
 * the other streams through as the probe side, a batch at a time. Candidate pairs are gathered into columns and the
 * remaining condition is evaluated over them as a batch. Build rows that must come out after every probe row was
 * seen (an outer join's unmatched ones; semi and anti joins built on the left) come last. NULL keys match nothing
 * unless the key is NULL-safe. Without keys it is a nested loop: every build row is a candidate for every probe
 * row. A probe batch with many candidate pairs is probed in parts, so a batch out stays bounded. Not thread-safe.
 */
public final class HashJoinOperator implements BatchOperator {
    /** Candidate pairs after which the rest of a probe batch waits for the next call. */
    static final int PROBE_PAIRS = 65_536;

    /** The rows a join returns; SEMI and ANTI return left rows only. */
    public enum Kind {
        INNER, LEFT, RIGHT, FULL, SEMI, ANTI
    }

    /**
     * One equality: an expression over left rows and one over right rows whose equal values have equal bytes (one
     * type; decimals of one scale and width); NULL-safe keys match NULLs. Floating point keys are refused: 0.0 and
     * -0.0 are equal with other bytes.
     */
    public record Key(VectorExpression left, VectorExpression right, boolean nullSafe) {
        public Key {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
            if (!sameBytes(left.type(), right.type())) {
                throw new UnsupportedExpressionException("join keys of types " + left.type().getType() + " and "
                        + right.type().getType());
            }
        }
    }

    /** Whether equal values of the two types have equal key bytes. */
    public static boolean sameBytes(FieldType left, FieldType right) {
        if (left.getType() != right.getType() || left.getType() == ValueType.FLOAT32
                || left.getType() == ValueType.FLOAT64) {
            return false;
        }
        return left.getType() != ValueType.DECIMAL || left.getScale() == right.getScale()
                && (left.getPrecision() > ValueTypes.MAX_DECIMAL128_PRECISION)
                == (right.getPrecision() > ValueTypes.MAX_DECIMAL128_PRECISION);
    }

    private final BatchOperator left;
    private final BatchOperator right;
    private final Kind kind;
    private final List<Key> keys;
    private final VectorExpression remaining;
    private final java.util.BitSet remainingColumns;
    private final BufferAllocator allocator;
    private final LongConsumer memory;
    private final List<FieldType> outputTypes;
    private final List<FieldType> pairTypes;
    private final int leftWidth;

    private boolean started;
    private boolean buildLeft;
    private VectorSchemaRoot build;
    private VectorSchemaRoot probeHeld;
    /** A probe batch whose rows from {@code probeFrom} on are still to probe. */
    private VectorSchemaRoot probing;
    private int probeFrom;
    private BatchOperator probeInput;
    private GroupTable table;
    private LongGroupTable longKeys;
    private int[] chainHeads = new int[0];
    private int[] chainNext;
    private boolean[] buildMatched;
    private boolean probeEnded;
    private boolean finished;
    private VectorSchemaRoot output;
    private long heldBytes;
    private int[] pairProbe = new int[1024];
    private int[] pairBuild = new int[1024];

    /**
     * @param remaining a condition over the left columns followed by the right ones that pairs must also pass, or null
     * @param memory told of every byte the join starts holding (it may throw to stop the join) and, negated, of
     *     those it gives back
     */
    public HashJoinOperator(BatchOperator left, BatchOperator right, Kind kind, List<Key> keys,
            VectorExpression remaining, BufferAllocator allocator, LongConsumer memory) {
        this(left, right, kind, keys, remaining, null, allocator, memory);
    }

    /**
     * @param remainingColumns the pair columns (left then right) the remaining condition reads, or null for all:
     *     only those are gathered for the candidate pairs
     */
    public HashJoinOperator(BatchOperator left, BatchOperator right, Kind kind, List<Key> keys,
            VectorExpression remaining, java.util.BitSet remainingColumns, BufferAllocator allocator,
            LongConsumer memory) {
        this.left = requireNonNull(left, "left is null");
        this.right = requireNonNull(right, "right is null");
        this.kind = requireNonNull(kind, "kind is null");
        this.keys = List.copyOf(keys);
        this.remaining = remaining;
        this.remainingColumns = remainingColumns == null ? null : (java.util.BitSet) remainingColumns.clone();
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.memory = requireNonNull(memory, "memory is null");
        if (remaining != null && !VectorExpressions.isBoolean(remaining)) {
            throw new UnsupportedExpressionException("a join condition of type " + remaining.type().getType());
        }
        this.leftWidth = left.outputTypes().size();
        List<FieldType> pair = new ArrayList<>(left.outputTypes());
        pair.addAll(right.outputTypes());
        this.pairTypes = List.copyOf(pair);
        this.outputTypes = kind == Kind.SEMI || kind == Kind.ANTI ? left.outputTypes() : pairTypes;
    }

    @Override
    public List<FieldType> outputTypes() {
        return outputTypes;
    }

    /** Whether the build side turned out to be the left input (known once the first batch was asked for). */
    public boolean builtOnLeft() {
        return buildLeft;
    }

    /** Rows of the build side (known once the first batch was asked for). */
    public int buildRows() {
        return build == null ? 0 : build.getRowCount();
    }

    @Override
    public VectorSchemaRoot next() {
        if (!started) {
            started = true;
            start();
        }
        closeOutput();
        while (!probeEnded) {
            VectorSchemaRoot batch;
            if (probing != null) {
                batch = probing;
            } else if (probeHeld != null) {
                batch = probeHeld;
            } else {
                batch = probeInput == null ? null : probeInput.next();
                if (batch == null) {
                    probeEnded = true;
                    break;
                }
            }
            output = probe(batch);
            if (probeFrom < batch.getRowCount()) {
                // Many candidate pairs: the rest of the batch is probed at the next call.
                probing = batch;
            } else {
                probing = null;
                probeFrom = 0;
                if (batch == probeHeld) {
                    long bytes = AppendedBatch.bytes(probeHeld);
                    probeHeld.close();
                    probeHeld = null;
                    release(bytes);
                }
            }
            if (output != null) {
                return output;
            }
        }
        if (!finished) {
            finished = true;
            output = finish();
        }
        return output;
    }

    private void start() {
        try (AppendedBatch leftRows = new AppendedBatch(left.outputTypes(), allocator); AppendedBatch rightRows =
                new AppendedBatch(right.outputTypes(), allocator)) {
            boolean leftDone = false;
            boolean rightDone = false;
            while (!leftDone && !rightDone) {
                if (leftRows.rows() < rightRows.rows()) {
                    leftDone = pull(left, leftRows);
                } else {
                    rightDone = pull(right, rightRows);
                }
            }
            buildLeft = leftDone && (!rightDone || leftRows.rows() <= rightRows.rows());
            build = (buildLeft ? leftRows : rightRows).take();
            probeHeld = (buildLeft ? rightRows : leftRows).take();
            if (probeHeld.getRowCount() == 0) {
                probeHeld.close();
                probeHeld = null;
            }
            boolean probeDone = buildLeft ? rightDone : leftDone;
            probeInput = probeDone ? null : buildLeft ? right : left;
        }
        index();
        boolean outerBuild = kind == Kind.FULL || kind == (buildLeft ? Kind.LEFT : Kind.RIGHT);
        buildMatched = outerBuild || emitsBuildRowsOnly() ? new boolean[build.getRowCount()] : null;
    }

    /** Adds the input's next batch to {@code rows}; whether the input has ended. */
    private boolean pull(BatchOperator input, AppendedBatch rows) {
        VectorSchemaRoot batch = input.next();
        if (batch == null) {
            return true;
        }
        long before = rows.bytes();
        rows.append(batch);
        take(rows.bytes() - before);
        return false;
    }

    /** Chains the build rows of each key: chainHeads[group] is a key's last row, chainNext[row] the one before. */
    private void index() {
        int rows = build.getRowCount();
        chainNext = new int[rows];
        List<FieldVector> keyVectors = evaluate(build, buildLeft);
        try {
            // One whole-number key that NULLs do not match: a table of longs, with no bytes to encode per row.
            BigIntVector longs = keys.size() == 1 && !keys.get(0).nullSafe()
                    && keyVectors.get(0) instanceof BigIntVector vector ? vector : null;
            if (longs != null) {
                longKeys = new LongGroupTable();
            } else {
                table = new GroupTable(false);
            }
            for (int row = 0; row < rows; row++) {
                if (blocked(keyVectors, row)) {
                    chainNext[row] = -1;
                    continue;
                }
                int groups = longs != null ? longKeys.groupCount() : table.groupCount();
                int group = longs != null ? longKeys.groupOf(longs.get(row)) : table.groupOf(keyVectors, row);
                if (group >= chainHeads.length) {
                    chainHeads = Arrays.copyOf(chainHeads, Math.max(16, chainHeads.length * 2));
                }
                if (group == groups) {
                    chainHeads[group] = -1;
                }
                chainNext[row] = chainHeads[group];
                chainHeads[group] = row;
            }
        } finally {
            keyVectors.forEach(FieldVector::close);
        }
        take(8L * rows + 4L * chainHeads.length + (longKeys != null ? longKeys.bytes() : 3 * table.keyBytes()));
    }

    /**
     * Probes the batch's rows from {@code probeFrom} until they end or the candidate pairs reach
     * {@link #PROBE_PAIRS} (a row's pairs are never split), and moves {@code probeFrom} past the rows probed.
     */
    private VectorSchemaRoot probe(VectorSchemaRoot batch) {
        int from = probeFrom;
        int rows = batch.getRowCount();
        boolean emitsProbeRowsOnly = !buildLeft && (kind == Kind.SEMI || kind == Kind.ANTI);
        boolean emitsBuildRowsOnly = emitsBuildRowsOnly();
        int pairs = 0;
        List<FieldVector> keyVectors = evaluate(batch, !buildLeft);
        try {
            for (int row = from; row < rows; row++) {
                if (pairs >= PROBE_PAIRS) {
                    rows = row;
                    break;
                }
                if (blocked(keyVectors, row)) {
                    continue;
                }
                int group = longKeys != null ? longKeys.lookup(((BigIntVector) keyVectors.get(0)).get(row))
                        : table.lookup(keyVectors, row);
                for (int candidate = group < 0 ? -1 : chainHeads[group]; candidate >= 0;
                        candidate = chainNext[candidate]) {
                    if (emitsBuildRowsOnly && buildMatched[candidate]) {
                        continue;
                    }
                    if (pairs == pairProbe.length) {
                        pairProbe = Arrays.copyOf(pairProbe, pairs * 2);
                        pairBuild = Arrays.copyOf(pairBuild, pairs * 2);
                    }
                    pairProbe[pairs] = row;
                    pairBuild[pairs] = candidate;
                    pairs++;
                    if (emitsProbeRowsOnly && remaining == null) {
                        break;
                    }
                }
            }
        } finally {
            keyVectors.forEach(FieldVector::close);
        }
        probeFrom = rows;
        if (remaining != null && pairs > 0) {
            pairs = passing(batch, pairs);
        }
        boolean[] probeMatched = new boolean[rows];
        for (int pair = 0; pair < pairs; pair++) {
            probeMatched[pairProbe[pair]] = true;
            if (buildMatched != null) {
                buildMatched[pairBuild[pair]] = true;
            }
        }
        if (emitsBuildRowsOnly) {
            return null;
        }
        if (emitsProbeRowsOnly) {
            int[] kept = new int[rows - from];
            int count = 0;
            for (int row = from; row < rows; row++) {
                if (probeMatched[row] == (kind == Kind.SEMI)) {
                    kept[count++] = row;
                }
            }
            return count == 0 ? null : gather(outputTypes, batch, kept, null, null, count);
        }
        boolean outerProbe = kind == Kind.FULL || kind == (buildLeft ? Kind.RIGHT : Kind.LEFT);
        int count = pairs;
        if (outerProbe) {
            for (int row = from; row < rows; row++) {
                if (!probeMatched[row]) {
                    count++;
                }
            }
        }
        if (count == 0) {
            return null;
        }
        int[] probeRows = Arrays.copyOf(pairProbe, count);
        int[] buildRows = Arrays.copyOf(pairBuild, count);
        if (outerProbe) {
            for (int row = from, position = pairs; row < rows; row++) {
                if (!probeMatched[row]) {
                    probeRows[position] = row;
                    buildRows[position++] = -1;
                }
            }
        }
        return buildLeft ? gather(outputTypes, build, buildRows, batch, probeRows, count)
                : gather(outputTypes, batch, probeRows, build, buildRows, count);
    }

    /** Keeps the candidate pairs for which the remaining condition is TRUE; answers how many are left. */
    private int passing(VectorSchemaRoot batch, int pairs) {
        int[] probeRows = Arrays.copyOf(pairProbe, pairs);
        int[] buildRows = Arrays.copyOf(pairBuild, pairs);
        VectorSchemaRoot candidates = buildLeft
                ? gather(pairTypes, build, buildRows, batch, probeRows, pairs, remainingColumns)
                : gather(pairTypes, batch, probeRows, build, buildRows, pairs, remainingColumns);
        return Gather.passing(remaining, candidates, pairProbe, pairBuild, pairs, allocator);
    }

    /** The rows that come out once every probe row was seen. */
    private VectorSchemaRoot finish() {
        if (buildMatched == null) {
            return null;
        }
        int rows = build.getRowCount();
        int[] kept = new int[rows];
        int count = 0;
        boolean emitsBuildRowsOnly = emitsBuildRowsOnly();
        for (int row = 0; row < rows; row++) {
            if (emitsBuildRowsOnly ? buildMatched[row] == (kind == Kind.SEMI) : !buildMatched[row]) {
                kept[count++] = row;
            }
        }
        if (count == 0) {
            return null;
        }
        if (emitsBuildRowsOnly) {
            return gather(outputTypes, build, kept, null, null, count);
        }
        int[] absent = new int[count];
        Arrays.fill(absent, -1);
        return buildLeft ? gather(outputTypes, build, kept, null, absent, count)
                : gather(outputTypes, null, absent, build, kept, count);
    }

    /** Semi and anti joins return left rows: built on the left, they come out at the end. */
    private boolean emitsBuildRowsOnly() {
        return buildLeft && (kind == Kind.SEMI || kind == Kind.ANTI);
    }

    /** Whether a NULL in a key that is not NULL-safe keeps the row from matching anything. */
    private boolean blocked(List<FieldVector> keyVectors, int row) {
        for (int k = 0; k < keyVectors.size(); k++) {
            if (!keys.get(k).nullSafe() && keyVectors.get(k).isNull(row)) {
                return true;
            }
        }
        return false;
    }

    private List<FieldVector> evaluate(VectorSchemaRoot batch, boolean leftSide) {
        List<FieldVector> vectors = new ArrayList<>(keys.size());
        try {
            for (Key key : keys) {
                vectors.add((leftSide ? key.left() : key.right()).evaluate(batch, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return vectors;
    }

    private VectorSchemaRoot gather(List<FieldType> types, VectorSchemaRoot leftBatch, int[] leftRows,
            VectorSchemaRoot rightBatch, int[] rightRows, int count) {
        return Gather.pairs(types, leftWidth, leftBatch, leftRows, rightBatch, rightRows, count, null, allocator);
    }

    private VectorSchemaRoot gather(List<FieldType> types, VectorSchemaRoot leftBatch, int[] leftRows,
            VectorSchemaRoot rightBatch, int[] rightRows, int count, java.util.BitSet columns) {
        return Gather.pairs(types, leftWidth, leftBatch, leftRows, rightBatch, rightRows, count, columns, allocator);
    }

    private void take(long bytes) {
        if (bytes > 0) {
            heldBytes += bytes;
            memory.accept(bytes);
        }
    }

    private void release(long bytes) {
        long released = Math.min(bytes, heldBytes);
        if (released > 0) {
            heldBytes -= released;
            memory.accept(-released);
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
        if (probeHeld != null) {
            probeHeld.close();
            probeHeld = null;
        }
        if (build != null) {
            build.close();
            build = null;
        }
        try {
            left.close();
        } finally {
            right.close();
            release(heldBytes);
        }
    }
}
