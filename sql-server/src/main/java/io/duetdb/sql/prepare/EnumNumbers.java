package io.duetdb.sql.prepare;

import java.util.List;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * MySQL reads an ENUM column in a numeric context as its value's place in the column's definition and a SET column
 * as the number its members' bits make ({@code e + 0}, {@code e = 2}, {@code CAST(e AS UNSIGNED)}, {@code SUM(e)}):
 * a conversion of such a column, read as it is stored, to a number becomes that place or number
 * (SetAndEnumOrder's sort key) instead of the conversion of its text. Nothing changes in a plan without one.
 */
final class EnumNumbers extends RelHomogeneousShuttle {
    private final RexBuilder rexBuilder;

    private EnumNumbers(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    static RelNode rewrite(RelNode plan) {
        return plan.accept(new EnumNumbers(plan.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof Project project) {
            Conversions conversions = new Conversions(project.getInput());
            List<RexNode> projects = conversions.apply(project.getProjects());
            return conversions.changed ? project.copy(project.getTraitSet(), project.getInput(), projects,
                    project.getRowType()) : project;
        }
        if (node instanceof Filter filter) {
            Conversions conversions = new Conversions(filter.getInput());
            RexNode condition = filter.getCondition().accept(conversions);
            return conversions.changed ? filter.copy(filter.getTraitSet(), filter.getInput(), condition) : filter;
        }
        if (node instanceof Join join) {
            // The condition's references are to the join's own row: the left input's fields, then the right's.
            Conversions conversions = new Conversions(join);
            RexNode condition = join.getCondition().accept(conversions);
            return conversions.changed ? join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(),
                    join.getJoinType(), join.isSemiJoinDone()) : join;
        }
        return node;
    }

    /** Conversions to numbers of ENUM and SET columns of {@code fields}' row. */
    private final class Conversions extends RexShuttle {
        private final RelNode fields;
        private boolean changed;

        Conversions(RelNode fields) {
            this.fields = fields;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            if (call.getKind() == SqlKind.CAST && call.getOperands().get(0) instanceof RexInputRef reference
                    && SqlTypeUtil.isNumeric(call.getType()) && SqlTypeUtil.inCharFamily(reference.getType())) {
                RexNode number = SetAndEnumOrder.sortKey(fields, reference.getIndex(), rexBuilder);
                if (number != null) {
                    changed = true;
                    return rexBuilder.makeAbstractCast(call.getType(), number);
                }
            }
            return super.visitCall(call);
        }
    }
}
