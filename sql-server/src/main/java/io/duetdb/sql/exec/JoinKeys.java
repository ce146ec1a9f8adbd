package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A join condition split into equalities between an expression of the left input and one of the right input
 * (the hash keys) and the rest, which candidate pairs must also satisfy. Right keys read the right row alone;
 * the remaining condition reads the joined row. {@code nullSafe} marks IS NOT DISTINCT FROM keys, whose NULLs
 * match each other.
 */
record JoinKeys(List<RexNode> leftKeys, List<RexNode> rightKeys, List<Boolean> nullSafe, RexNode remaining) {
    JoinKeys {
        leftKeys = List.copyOf(requireNonNull(leftKeys, "leftKeys is null"));
        rightKeys = List.copyOf(requireNonNull(rightKeys, "rightKeys is null"));
        nullSafe = List.copyOf(requireNonNull(nullSafe, "nullSafe is null"));
        requireNonNull(remaining, "remaining is null");
        if (leftKeys.isEmpty() || leftKeys.size() != rightKeys.size() || leftKeys.size() != nullSafe.size()) {
            throw new IllegalArgumentException("keys do not pair up: " + leftKeys + ", " + rightKeys);
        }
    }

    /** The keys of a join, or null when its condition has no equality that a hash table can answer. */
    static JoinKeys of(Join join, RexBuilder rexBuilder) {
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        int width = leftWidth + join.getRight().getRowType().getFieldCount();
        ImmutableBitSet leftFields = ImmutableBitSet.range(0, leftWidth);
        ImmutableBitSet rightFields = ImmutableBitSet.range(leftWidth, width);
        List<RexNode> leftKeys = new ArrayList<>();
        List<RexNode> rightKeys = new ArrayList<>();
        List<Boolean> nullSafe = new ArrayList<>();
        List<RexNode> remaining = new ArrayList<>();
        // (a = b AND x) OR (a = b AND y) hashes on a = b too.
        RexNode condition = RexUtil.pullFactors(rexBuilder, join.getCondition());
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() != SqlKind.EQUALS && conjunct.getKind() != SqlKind.IS_NOT_DISTINCT_FROM) {
                remaining.add(conjunct);
                continue;
            }
            RexNode first = ((RexCall) conjunct).getOperands().get(0);
            RexNode second = ((RexCall) conjunct).getOperands().get(1);
            if (!hashAlike(first.getType(), second.getType())) {
                remaining.add(conjunct);
                continue;
            }
            ImmutableBitSet firstFields = RelOptUtil.InputFinder.bits(first);
            ImmutableBitSet secondFields = RelOptUtil.InputFinder.bits(second);
            RexNode left;
            RexNode right;
            if (isWithin(firstFields, leftFields) && isWithin(secondFields, rightFields)) {
                left = first;
                right = second;
            } else if (isWithin(secondFields, leftFields) && isWithin(firstFields, rightFields)) {
                left = second;
                right = first;
            } else {
                remaining.add(conjunct);
                continue;
            }
            leftKeys.add(left);
            rightKeys.add(RexUtil.shift(right, -leftWidth));
            nullSafe.add(conjunct.getKind() == SqlKind.IS_NOT_DISTINCT_FROM);
        }
        if (leftKeys.isEmpty()) {
            return null;
        }
        return new JoinKeys(leftKeys, rightKeys, nullSafe, RexUtil.composeConjunction(rexBuilder, remaining));
    }

    private static boolean isWithin(ImmutableBitSet fields, ImmutableBitSet side) {
        return !fields.isEmpty() && side.contains(fields);
    }

    /**
     * Whether values of the two types that compare equal also hash alike: both numeric, both strings, both
     * binary, both DATE or DATETIME, or both TIME. Across families MySQL converts ('1x' = 1), which a hash of
     * the raw values would miss, so such equalities stay in the remaining condition.
     */
    private static boolean hashAlike(RelDataType first, RelDataType second) {
        if (SqlTypeUtil.isNumeric(first) || SqlTypeUtil.isBoolean(first)) {
            return SqlTypeUtil.isNumeric(second) || SqlTypeUtil.isBoolean(second);
        }
        if (SqlTypeUtil.isCharacter(first)) {
            return SqlTypeUtil.isCharacter(second);
        }
        if (SqlTypeUtil.isBinary(first)) {
            return SqlTypeUtil.isBinary(second);
        }
        SqlTypeFamily family = first.getSqlTypeName().getFamily();
        SqlTypeFamily other = second.getSqlTypeName().getFamily();
        if (family == SqlTypeFamily.DATE || family == SqlTypeFamily.TIMESTAMP) {
            return other == SqlTypeFamily.DATE || other == SqlTypeFamily.TIMESTAMP;
        }
        return family == SqlTypeFamily.TIME && other == SqlTypeFamily.TIME;
    }
}
