package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.core.JoinRelType;

/**
 * An equi-join: a hash table on one input's keys (the build side, either input), probed with batches of the
 * other's rows as they stream in; candidate pairs must also pass the remaining condition. Whatever depends on
 * every probe row (a build row that never matched, for outer joins; semi and anti joins that build on the left)
 * comes out of {@link #finish}.
 */
final class HashJoin {
    private static final int KILL_CHECK_INTERVAL = 1024;
    private static final int MEMORY_CHECK_INTERVAL = 16_384;

    private final JoinRelType type;
    private final List<RowExpression> leftKeys;
    private final List<RowExpression> rightKeys;
    private final boolean[] nullSafe;
    private final RowExpression remaining;
    private final int leftWidth;
    private final int rightWidth;
    private final SessionFunctions session;
    private final MemoryTracker memory;

    private List<Object[]> build;
    private boolean buildLeft;
    /** Whole-number keys: the build rows by key without a GroupKey per row; null when keys take other values. */
    private LongKeyIndex longKeys;
    private long[] probeKey;
    /** Other keys: rows of one key chain through next[]; first holds a key's last row, next[i] the row before i. */
    private Map<GroupKey, Integer> first;
    private int[] next;
    /** Build rows that matched a probe row; only kept when {@link #finish} needs them. */
    private boolean[] buildMatched;

    HashJoin(JoinRelType type, JoinKeys keys, ExpressionCompiler compiler, int leftWidth, int rightWidth) {
        this(type, keys, compiler, leftWidth, rightWidth, MemoryTracker.unlimited());
    }

    HashJoin(JoinRelType type, JoinKeys keys, ExpressionCompiler compiler, int leftWidth, int rightWidth,
            MemoryTracker memory) {
        this.memory = requireNonNull(memory, "memory is null");
        this.type = requireNonNull(type, "type is null");
        this.leftKeys = keys.leftKeys().stream().map(compiler::compile).toList();
        this.rightKeys = keys.rightKeys().stream().map(compiler::compile).toList();
        this.nullSafe = new boolean[keys.nullSafe().size()];
        for (int i = 0; i < nullSafe.length; i++) {
            nullSafe[i] = keys.nullSafe().get(i);
        }
        this.remaining = keys.remaining().isAlwaysTrue() ? null : compiler.compile(keys.remaining());
        this.leftWidth = leftWidth;
        this.rightWidth = rightWidth;
        this.session = compiler.session();
    }

    /** Joins two materialized inputs, building on the smaller one. */
    List<Object[]> join(List<Object[]> left, List<Object[]> right) {
        return join(left, right, left.size() < right.size());
    }

    List<Object[]> join(List<Object[]> left, List<Object[]> right, boolean onLeft) {
        build(onLeft ? left : right, onLeft);
        List<Object[]> rows = new ArrayList<>(probe(onLeft ? right : left));
        rows.addAll(finish());
        return rows;
    }

    /** Builds the hash table on {@code rows}, the left input's when {@code onLeft}, the right's otherwise. */
    void build(List<Object[]> rows, boolean onLeft) {
        this.build = requireNonNull(rows, "rows is null");
        this.buildLeft = onLeft;
        List<RowExpression> keys = onLeft ? leftKeys : rightKeys;
        session.checkNotKilled();
        longKeys = LongKeyIndex.of(rows, keys, nullSafe);
        if (longKeys != null) {
            probeKey = new long[keys.size()];
        } else {
            first = new HashMap<>();
            next = new int[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                checkNotKilled(i);
                GroupKey key = key(rows.get(i), keys);
                Integer previous = key == null ? null : first.put(key, i);
                next[i] = previous == null ? -1 : previous;
            }
        }
        boolean outerBuild = type == JoinRelType.FULL || type == (onLeft ? JoinRelType.LEFT : JoinRelType.RIGHT);
        buildMatched = outerBuild || emitsBuildRowsOnly() ? new boolean[rows.size()] : null;
    }

    /** The joined rows a batch of probe rows gives. */
    List<Object[]> probe(List<Object[]> batch) {
        List<RowExpression> probeKeys = buildLeft ? rightKeys : leftKeys;
        boolean outerProbe = type == JoinRelType.FULL || type == (buildLeft ? JoinRelType.RIGHT : JoinRelType.LEFT);
        boolean emitsProbeRowsOnly = !buildLeft && (type == JoinRelType.SEMI || type == JoinRelType.ANTI);
        boolean emitsBuildRowsOnly = emitsBuildRowsOnly();
        List<Object[]> rows = new ArrayList<>();
        for (int p = 0; p < batch.size(); p++) {
            checkNotKilled(p);
            if (p % MEMORY_CHECK_INTERVAL == MEMORY_CHECK_INTERVAL - 1) {
                // A join's output can grow far past its inputs: check it while it grows.
                memory.checkGrowing(rows, "HashJoin");
            }
            Object[] probeRow = batch.get(p);
            boolean matched = false;
            for (int b = firstCandidate(probeRow, probeKeys); b >= 0; b = longKeys != null ? longKeys.next(b) : next[b]) {
                if (emitsBuildRowsOnly && buildMatched[b]) {
                    continue;
                }
                Object[] combined = null;
                if (remaining != null || !(emitsProbeRowsOnly || emitsBuildRowsOnly)) {
                    combined = buildLeft ? combine(build.get(b), probeRow) : combine(probeRow, build.get(b));
                    if (remaining != null && !Boolean.TRUE.equals(Values.truth(remaining.evaluate(combined)))) {
                        continue;
                    }
                }
                matched = true;
                if (buildMatched != null) {
                    buildMatched[b] = true;
                }
                if (emitsProbeRowsOnly) {
                    break;
                }
                if (!emitsBuildRowsOnly) {
                    rows.add(combined);
                }
            }
            if (emitsProbeRowsOnly) {
                if (matched == (type == JoinRelType.SEMI)) {
                    rows.add(probeRow);
                }
            } else if (outerProbe && !matched) {
                rows.add(buildLeft ? combine(null, probeRow) : combine(probeRow, null));
            }
        }
        return rows;
    }

    /** The rows that come out once every probe row was seen: unmatched build rows of outer joins, semi and anti joins' left rows when built on the left. */
    List<Object[]> finish() {
        List<Object[]> rows = new ArrayList<>();
        if (buildMatched == null) {
            return rows;
        }
        boolean emitsBuildRowsOnly = emitsBuildRowsOnly();
        for (int b = 0; b < build.size(); b++) {
            if (emitsBuildRowsOnly) {
                if (buildMatched[b] == (type == JoinRelType.SEMI)) {
                    rows.add(build.get(b));
                }
            } else if (!buildMatched[b]) {
                rows.add(buildLeft ? combine(build.get(b), null) : combine(null, build.get(b)));
            }
        }
        return rows;
    }

    /** The newest build row whose key equals the probe row's, or -1. */
    private int firstCandidate(Object[] probeRow, List<RowExpression> probeKeys) {
        if (longKeys != null) {
            return longKeys.probeKey(probeRow, probeKeys, probeKey) ? longKeys.first(probeKey) : -1;
        }
        GroupKey key = key(probeRow, probeKeys);
        Integer chain = key == null ? null : first.get(key);
        return chain == null ? -1 : chain;
    }

    /** Semi and anti joins return left rows: built on the left, they come out at the end. */
    private boolean emitsBuildRowsOnly() {
        return buildLeft && (type == JoinRelType.SEMI || type == JoinRelType.ANTI);
    }

    /** The row's key, or null when a NULL in a key that is not NULL-safe keeps it from matching anything. */
    private GroupKey key(Object[] row, List<RowExpression> keys) {
        Object[] values = new Object[keys.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = keys.get(i).evaluate(row);
            if (values[i] == null && !nullSafe[i]) {
                return null;
            }
        }
        return new GroupKey(values);
    }

    private Object[] combine(Object[] leftRow, Object[] rightRow) {
        Object[] combined = leftRow == null ? new Object[leftWidth + rightWidth]
                : Arrays.copyOf(leftRow, leftWidth + rightWidth);
        if (rightRow != null) {
            System.arraycopy(rightRow, 0, combined, leftWidth, rightWidth);
        }
        return combined;
    }

    private void checkNotKilled(int index) {
        if (index % KILL_CHECK_INTERVAL == 0) {
            session.checkNotKilled();
        }
    }
}
