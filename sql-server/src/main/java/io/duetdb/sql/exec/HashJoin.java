package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.core.JoinRelType;

/**
 * An equi-join over materialized inputs: a hash table on one input's keys, probed with each row of the other;
 * candidate pairs must also pass the remaining condition. Inner joins build on the smaller input, right joins
 * on the left one, the others on the right one (semi and anti joins return the probing left rows).
 */
final class HashJoin {
    private static final int KILL_CHECK_INTERVAL = 1024;

    private final JoinRelType type;
    private final List<RowExpression> leftKeys;
    private final List<RowExpression> rightKeys;
    private final boolean[] nullSafe;
    private final RowExpression remaining;
    private final int leftWidth;
    private final int rightWidth;
    private final SessionFunctions session;
    private final MemoryTracker memory;

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

    List<Object[]> join(List<Object[]> left, List<Object[]> right) {
        boolean buildLeft = type == JoinRelType.RIGHT || (type == JoinRelType.INNER && left.size() < right.size());
        List<Object[]> build = buildLeft ? left : right;
        List<Object[]> probe = buildLeft ? right : left;
        List<RowExpression> buildKeys = buildLeft ? leftKeys : rightKeys;
        List<RowExpression> probeKeys = buildLeft ? rightKeys : leftKeys;
        boolean outerBuild = type == JoinRelType.FULL || type == (buildLeft ? JoinRelType.LEFT : JoinRelType.RIGHT);
        boolean outerProbe = type == JoinRelType.FULL || type == (buildLeft ? JoinRelType.RIGHT : JoinRelType.LEFT);
        boolean probeOnly = type == JoinRelType.SEMI || type == JoinRelType.ANTI;

        // Rows of one key chain through next[]: first holds a key's last row, next[i] the row before i.
        Map<GroupKey, Integer> first = new HashMap<>();
        int[] next = new int[build.size()];
        for (int i = 0; i < build.size(); i++) {
            checkNotKilled(i);
            GroupKey key = key(build.get(i), buildKeys);
            Integer previous = key == null ? null : first.put(key, i);
            next[i] = previous == null ? -1 : previous;
        }
        boolean[] buildMatched = outerBuild ? new boolean[build.size()] : null;
        List<Object[]> rows = new ArrayList<>();
        for (int p = 0; p < probe.size(); p++) {
            checkNotKilled(p);
            if (p % MEMORY_CHECK_INTERVAL == MEMORY_CHECK_INTERVAL - 1) {
                // A join's output can grow far past its inputs: check it while it grows, not only at the end.
                memory.checkGrowing(rows, "HashJoin");
            }
            Object[] probeRow = probe.get(p);
            GroupKey key = key(probeRow, probeKeys);
            Integer chain = key == null ? null : first.get(key);
            boolean matched = false;
            for (int b = chain == null ? -1 : chain; b >= 0; b = next[b]) {
                Object[] combined = buildLeft ? combine(build.get(b), probeRow) : combine(probeRow, build.get(b));
                if (remaining != null && !Boolean.TRUE.equals(Values.truth(remaining.evaluate(combined)))) {
                    continue;
                }
                matched = true;
                if (probeOnly) {
                    break;
                }
                if (buildMatched != null) {
                    buildMatched[b] = true;
                }
                rows.add(combined);
            }
            if (probeOnly) {
                if (matched == (type == JoinRelType.SEMI)) {
                    rows.add(probeRow);
                }
            } else if (outerProbe && !matched) {
                rows.add(buildLeft ? combine(null, probeRow) : combine(probeRow, null));
            }
        }
        if (buildMatched != null) {
            for (int b = 0; b < build.size(); b++) {
                if (!buildMatched[b]) {
                    rows.add(buildLeft ? combine(build.get(b), null) : combine(null, build.get(b)));
                }
            }
        }
        return rows;
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

    private static final int MEMORY_CHECK_INTERVAL = 16_384;

    private void checkNotKilled(int index) {
        if (index % KILL_CHECK_INTERVAL == 0) {
            session.checkNotKilled();
        }
    }
}
