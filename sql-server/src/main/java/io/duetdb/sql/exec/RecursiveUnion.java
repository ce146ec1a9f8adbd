package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * WITH RECURSIVE as Calcite plans it (a RepeatUnion of a seed and an iterative part that reads the CTE's working
 * table): the seed's rows, then the iterative part again and again over the rows the step before it added, until a
 * step adds none. UNION DISTINCT drops rows already produced, which is also what ends most such queries.
 */
final class RecursiveUnion {
    private final Map<String, List<Object[]>> workingTables = new HashMap<>();

    /** The rows the last step added, for scans of the CTE's working table; null for any other table. */
    List<Object[]> workingRows(RelOptTable table) {
        return workingTables.get(String.join(".", table.getQualifiedName()));
    }

    /**
     * The union's rows; {@code evaluate} runs a subtree to its rows. More than {@code maxDepth} steps that add rows
     * fail with MySQL's 3636, as cte_max_recursion_depth does there.
     */
    List<Object[]> run(RepeatUnion union, Function<RelNode, List<Object[]>> evaluate, long maxDepth,
            Runnable checkNotKilled) {
        RelOptTable table = requireNonNull(union.getTransientTable(), "the recursive union has no working table");
        String name = String.join(".", table.getQualifiedName());
        Set<GroupKey> seen = union.all ? null : new HashSet<>();
        List<Object[]> rows = new ArrayList<>();
        List<Object[]> added = unseen(evaluate.apply(union.getSeedRel()), seen);
        try {
            for (long step = 1; !added.isEmpty(); step++) {
                rows.addAll(added);
                workingTables.put(name, added);
                checkNotKilled.run();
                added = unseen(evaluate.apply(union.getIterativeRel()), seen);
                if (!added.isEmpty() && step > maxDepth) {
                    throw new DuetException(ErrorCode.RECURSION_DEPTH_EXCEEDED, "Recursive query aborted after "
                            + step + " iterations. Try increasing @@cte_max_recursion_depth to a larger value.");
                }
            }
        } finally {
            workingTables.remove(name);
        }
        return rows;
    }

    private static List<Object[]> unseen(List<Object[]> rows, Set<GroupKey> seen) {
        if (seen == null) {
            return rows;
        }
        List<Object[]> fresh = new ArrayList<>();
        for (Object[] row : rows) {
            if (seen.add(new GroupKey(row))) {
                fresh.add(row);
            }
        }
        return fresh;
    }
}
