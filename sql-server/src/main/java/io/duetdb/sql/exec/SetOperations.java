package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * EXCEPT and INTERSECT, DISTINCT and ALL, over inputs already collected. Rows match as GROUP BY matches them (NULLs
 * equal, numbers by value); the first input's order is kept.
 */
final class SetOperations {
    private SetOperations() {
    }

    /**
     * The first input's rows that the others lack: each distinct row once (DISTINCT), or each row as many times as
     * the first input has it more often than all the others together (ALL).
     */
    static List<Object[]> except(List<Object[]> first, List<List<Object[]>> others, boolean all) {
        Map<GroupKey, Long> removed = new HashMap<>();
        for (List<Object[]> other : others) {
            for (Object[] row : other) {
                removed.merge(new GroupKey(row), 1L, Long::sum);
            }
        }
        List<Object[]> kept = new ArrayList<>();
        if (all) {
            for (Object[] row : first) {
                GroupKey key = new GroupKey(row);
                long left = removed.getOrDefault(key, 0L);
                if (left > 0) {
                    removed.put(key, left - 1);
                } else {
                    kept.add(row);
                }
            }
            return kept;
        }
        for (Map.Entry<GroupKey, Long> row : counts(first).entrySet()) {
            if (!removed.containsKey(row.getKey())) {
                kept.add(row.getKey().values());
            }
        }
        return kept;
    }

    /**
     * The first input's rows that every other input has too: each distinct row once (DISTINCT), or as many times as
     * the input with fewest of it has it (ALL).
     */
    static List<Object[]> intersect(List<Object[]> first, List<List<Object[]>> others, boolean all) {
        Map<GroupKey, Long> common = counts(first);
        for (List<Object[]> other : others) {
            Map<GroupKey, Long> counted = counts(other);
            common.replaceAll((key, count) -> Math.min(count, counted.getOrDefault(key, 0L)));
            common.values().removeIf(count -> count == 0);
        }
        List<Object[]> kept = new ArrayList<>();
        for (Map.Entry<GroupKey, Long> row : common.entrySet()) {
            for (long i = 0, times = all ? row.getValue() : 1; i < times; i++) {
                kept.add(row.getKey().values());
            }
        }
        return kept;
    }

    private static Map<GroupKey, Long> counts(List<Object[]> rows) {
        Map<GroupKey, Long> counts = new LinkedHashMap<>();
        for (Object[] row : rows) {
            counts.merge(new GroupKey(row), 1L, Long::sum);
        }
        return counts;
    }
}
