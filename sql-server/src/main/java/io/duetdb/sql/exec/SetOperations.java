package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import io.duetdb.common.types.Collation;
import io.duetdb.sql.prepare.MySqlCollations;

/**
 * EXCEPT and INTERSECT, DISTINCT and ALL, over inputs already collected. Rows match as GROUP BY matches them (NULLs
 * equal, numbers by value), text by its collation ({@link #keysOf}); the first input's order is kept, and of rows that
 * match, the first input's first.
 */
final class SetOperations {
    private SetOperations() {
    }

    /** A row's key for matching: text under a collation other than the binary one as its sort key. */
    static UnaryOperator<Object[]> keysOf(RelDataType rowType) {
        List<RelDataTypeField> fields = rowType.getFieldList();
        Collation[] collations = new Collation[fields.size()];
        boolean any = false;
        for (int i = 0; i < collations.length; i++) {
            RelDataType type = fields.get(i).getType();
            if (MySqlCollations.collated(type)) {
                collations[i] = MySqlCollations.of(type);
                any = true;
            }
        }
        if (!any) {
            return UnaryOperator.identity();
        }
        return row -> {
            Object[] keys = row.clone();
            for (int i = 0; i < keys.length; i++) {
                if (collations[i] != null && keys[i] != null) {
                    keys[i] = collations[i].sortKey(Values.toText(keys[i]));
                }
            }
            return keys;
        };
    }

    /**
     * The first input's rows that the others lack: each distinct row once (DISTINCT), or each row as many times as
     * the first input has it more often than all the others together (ALL).
     */
    static List<Object[]> except(List<Object[]> first, List<List<Object[]>> others, boolean all,
            UnaryOperator<Object[]> keyOf) {
        Map<GroupKey, Long> removed = new HashMap<>();
        for (List<Object[]> other : others) {
            for (Object[] row : other) {
                removed.merge(new GroupKey(keyOf.apply(row)), 1L, Long::sum);
            }
        }
        List<Object[]> kept = new ArrayList<>();
        if (all) {
            for (Object[] row : first) {
                GroupKey key = new GroupKey(keyOf.apply(row));
                long left = removed.getOrDefault(key, 0L);
                if (left > 0) {
                    removed.put(key, left - 1);
                } else {
                    kept.add(row);
                }
            }
            return kept;
        }
        for (Map.Entry<GroupKey, Counted> row : counts(first, keyOf).entrySet()) {
            if (!removed.containsKey(row.getKey())) {
                kept.add(row.getValue().row());
            }
        }
        return kept;
    }

    /**
     * The first input's rows that every other input has too: each distinct row once (DISTINCT), or as many times as
     * the input with fewest of it has it (ALL).
     */
    static List<Object[]> intersect(List<Object[]> first, List<List<Object[]>> others, boolean all,
            UnaryOperator<Object[]> keyOf) {
        Map<GroupKey, Counted> common = counts(first, keyOf);
        for (List<Object[]> other : others) {
            Map<GroupKey, Counted> counted = counts(other, keyOf);
            common.replaceAll((key, row) -> new Counted(row.row(), Math.min(row.count(),
                    counted.containsKey(key) ? counted.get(key).count() : 0L)));
            common.values().removeIf(row -> row.count() == 0);
        }
        List<Object[]> kept = new ArrayList<>();
        for (Counted row : common.values()) {
            for (long i = 0, times = all ? row.count() : 1; i < times; i++) {
                kept.add(row.row());
            }
        }
        return kept;
    }

    /** A row (the first of those with its key) and how many rows have its key. */
    private record Counted(Object[] row, long count) {
    }

    private static Map<GroupKey, Counted> counts(List<Object[]> rows, UnaryOperator<Object[]> keyOf) {
        Map<GroupKey, Counted> counts = new LinkedHashMap<>();
        for (Object[] row : rows) {
            counts.merge(new GroupKey(keyOf.apply(row)), new Counted(row, 1L),
                    (seen, added) -> new Counted(seen.row(), seen.count() + 1));
        }
        return counts;
    }
}
