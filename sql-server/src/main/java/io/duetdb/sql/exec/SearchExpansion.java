package io.duetdb.sql.exec;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Calcite's SEARCH calls (a value against a set of ranges) as the comparisons they stand for, nested ones included:
 * {@link RexUtil#expandSearch} leaves a SEARCH inside another's operand as it is ({@code CASE WHEN s NOT IN (...)
 * THEN ... END IN (...)}), and the evaluators read no ranges.
 */
public final class SearchExpansion {
    private SearchExpansion() {
    }

    public static RexNode expand(RexBuilder builder, RexNode node) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                return visited.getKind() == SqlKind.SEARCH ? RexUtil.expandSearch(builder, null, visited) : visited;
            }
        });
    }
}
