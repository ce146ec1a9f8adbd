package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

import io.duetdb.common.types.Collation;

/**
 * Comparisons, sorts and groupings of text under a collation other than the binary one, rewritten over the text's
 * sort keys (DUET_COLLATION_KEY), which compare as bytes: {@code a = 'x'} under utf8mb4_general_ci becomes
 * {@code key(a) = key('x')}, ORDER BY a sorts by key(a), GROUP BY a groups by key(a) and gives one of the group's
 * texts, COUNT(DISTINCT a) counts distinct keys, UNION (DISTINCT) groups the rows of UNION ALL by their keys, LIKE
 * matches texts folded to their weights; ENUM and SET columns sort as MySQL sorts them (SetAndEnumOrder), and JSON
 * values sort and group in MySQL's JSON order and equality (by JSON_SORT_KEY). Run before
 * the rewrites that simplify conditions, which compare texts as Calcite does (binary). Nothing changes in a plan
 * without such text.
 */
public final class CollationRewrite extends RelHomogeneousShuttle {
    private final RexBuilder rexBuilder;
    private final Expressions expressions;

    private CollationRewrite(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
        this.expressions = new Expressions(rexBuilder);
    }

    public static RelNode rewrite(RelNode plan) {
        return plan.accept(new CollationRewrite(plan.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof Join join) {
            RelNode rewritten = join.accept(expressions);
            // Sort keys compared in the condition become columns of the inputs, so that the join stays an equi-join.
            return rewritten == join ? join : RelOptUtil.pushDownJoinConditions((Join) rewritten,
                    RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null));
        }
        if (node instanceof Filter || node instanceof Project) {
            return node.accept(expressions);
        }
        if (node instanceof Sort sort) {
            return sort(sort);
        }
        if (node instanceof Aggregate aggregate && aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
            return aggregate(aggregate);
        }
        if (node instanceof Union union && !union.all && union.getRowType().getFieldList().stream()
                .anyMatch(field -> MySqlCollations.collated(field.getType()))) {
            // UNION (DISTINCT) of collated text: the distinct rows of UNION ALL, grouped by their sort keys.
            RelNode all = LogicalUnion.create(union.getInputs(), true);
            return aggregate(LogicalAggregate.create(all, List.of(),
                    ImmutableBitSet.range(union.getRowType().getFieldCount()), null, List.of()));
        }
        return node;
    }

    /** The sort key of {@code text} under {@code collation}. */
    RexNode sortKey(RexNode text, Collation collation) {
        return rexBuilder.makeCall(MySqlCollations.SORT_KEY, text, rexBuilder.makeLiteral(collation.collationName()));
    }

    private RelNode sort(Sort sort) {
        RelNode input = sort.getInput();
        List<RexNode> projects = identity(input);
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        List<RelFieldCollation> keys = new ArrayList<>();
        for (RelFieldCollation field : sort.getCollation().getFieldCollations()) {
            RelDataType type = input.getRowType().getFieldList().get(field.getFieldIndex()).getType();
            RexNode setOrEnumKey = SetAndEnumOrder.sortKey(input, field.getFieldIndex(), rexBuilder);
            if (setOrEnumKey != null) {
                projects.add(setOrEnumKey);
                names.add("order_key$" + projects.size());
                keys.add(field.withFieldIndex(projects.size() - 1));
            } else if (MySqlCollations.collated(type)) {
                projects.add(sortKey(rexBuilder.makeInputRef(input, field.getFieldIndex()), MySqlCollations.of(type)));
                names.add("collation_key$" + projects.size());
                keys.add(field.withFieldIndex(projects.size() - 1));
            } else if (JsonTypes.isJson(type)) {
                projects.add(rexBuilder.makeCall(JsonFunctions.JSON_SORT_KEY, rexBuilder.makeInputRef(input, field.getFieldIndex())));
                names.add("json_key$" + projects.size());
                keys.add(field.withFieldIndex(projects.size() - 1));
            } else {
                keys.add(field);
            }
        }
        if (projects.size() == input.getRowType().getFieldCount()) {
            return sort;
        }
        RelNode keyed = LogicalProject.create(input, List.of(), projects, names, Set.of());
        RelNode sorted = LogicalSort.create(keyed, RelCollations.of(keys), sort.offset, sort.fetch);
        return LogicalProject.create(sorted, List.of(), identity(input), input.getRowType().getFieldNames(), Set.of());
    }

    /**
     * Groups by the sort keys of collated group keys, each group giving the least of its texts (MIN) for the key;
     * COUNT(DISTINCT text) counts distinct sort keys.
     */
    private RelNode aggregate(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        List<RexNode> projects = identity(input);
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        Map<Integer, Integer> keyFields = new TreeMap<>();
        for (int group : aggregate.getGroupSet()) {
            if (collated(input, group)) {
                keyFields.put(group, addKey(input, group, projects, names));
            }
        }
        List<AggregateCall> calls = new ArrayList<>();
        boolean distinctKeys = false;
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (call.isDistinct() && call.getAggregation().getKind() == SqlKind.COUNT
                    && call.getArgList().stream().anyMatch(argument -> collated(input, argument))) {
                List<Integer> arguments = new ArrayList<>();
                for (int argument : call.getArgList()) {
                    arguments.add(collated(input, argument) ? keyFields.computeIfAbsent(argument,
                            field -> addKey(input, field, projects, names)) : argument);
                }
                call = call.copy(arguments, call.filterArg, call.distinctKeys, call.collation);
                distinctKeys = true;
            }
            calls.add(call);
        }
        List<Integer> groupKeys = aggregate.getGroupSet().asList().stream().filter(keyFields::containsKey).toList();
        if (groupKeys.isEmpty() && !distinctKeys) {
            return aggregate;
        }
        RelNode keyed = LogicalProject.create(input, List.of(), projects, names, Set.of());
        ImmutableBitSet.Builder group = ImmutableBitSet.builder();
        for (int field : aggregate.getGroupSet()) {
            group.set(keyFields.containsKey(field) ? keyFields.get(field) : field);
        }
        ImmutableBitSet groupSet = group.build();
        int firstText = calls.size();
        for (int field : groupKeys) {
            calls.add(AggregateCall.create(SqlStdOperatorTable.MIN, false, false, false, List.of(), List.of(field), -1,
                    null, RelCollations.EMPTY, groupSet.cardinality(), keyed, null, names.get(field)));
        }
        RelNode grouped = LogicalAggregate.create(keyed, aggregate.getHints(), groupSet, null, calls);
        List<RexNode> outputs = new ArrayList<>();
        for (int field : aggregate.getGroupSet()) {
            outputs.add(rexBuilder.makeInputRef(grouped, keyFields.containsKey(field) && groupKeys.contains(field)
                    ? groupSet.cardinality() + firstText + groupKeys.indexOf(field) : groupSet.indexOf(field)));
        }
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            outputs.add(rexBuilder.makeInputRef(grouped, groupSet.cardinality() + i));
        }
        return LogicalProject.create(grouped, List.of(), outputs, aggregate.getRowType().getFieldNames(), Set.of());
    }

    private int addKey(RelNode input, int field, List<RexNode> projects, List<String> names) {
        RelDataType type = input.getRowType().getFieldList().get(field).getType();
        RexNode value = rexBuilder.makeInputRef(input, field);
        if (JsonTypes.isJson(type)) {
            projects.add(rexBuilder.makeCall(JsonFunctions.JSON_SORT_KEY, value));
            names.add("json_key$" + projects.size());
        } else {
            projects.add(sortKey(value, MySqlCollations.of(type)));
            names.add("collation_key$" + projects.size());
        }
        return projects.size() - 1;
    }

    /** Whether a group key is compared by a sort key: text under a collation other than the binary one, or JSON. */
    private static boolean collated(RelNode input, int field) {
        RelDataType type = input.getRowType().getFieldList().get(field).getType();
        return MySqlCollations.collated(type) || JsonTypes.isJson(type);
    }

    private List<RexNode> identity(RelNode input) {
        List<RexNode> references = new ArrayList<>();
        for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
            references.add(rexBuilder.makeInputRef(input, i));
        }
        return references;
    }

    /** Rewrites the comparisons and LIKEs of one expression tree. */
    private final class Expressions extends RexShuttle {
        private final RexBuilder builder;

        Expressions(RexBuilder builder) {
            this.builder = builder;
        }

        @Override
        public RexNode visitCall(RexCall original) {
            RexCall call = (RexCall) super.visitCall(original);
            switch (call.getKind()) {
                case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
                        IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
                    RexNode left = call.getOperands().get(0);
                    RexNode right = call.getOperands().get(1);
                    Collation collation = MySqlCollations.comparisonCollation(collationType(left),
                            collationType(right), call.getOperator().getName());
                    if (collation == null || collation.binary()) {
                        return call;
                    }
                    return builder.makeCall(call.getOperator(), sortKey(left, collation), sortKey(right, collation));
                }
                case SEARCH -> {
                    if (!MySqlCollations.collated(collationType(call.getOperands().get(0)))) {
                        return call;
                    }
                    return RexUtil.expandSearch(builder, null, call).accept(this);
                }
                case LIKE -> {
                    RexNode text = call.getOperands().get(0);
                    RexNode pattern = call.getOperands().get(1);
                    Collation collation = MySqlCollations.comparisonCollation(collationType(text),
                            collationType(pattern), "like");
                    if (collation == null || collation.binary()) {
                        return call;
                    }
                    List<RexNode> operands = new ArrayList<>(call.getOperands());
                    operands.set(0, fold(text, collation));
                    operands.set(1, fold(pattern, collation));
                    return builder.makeCall(call.getType(), call.getOperator(), operands);
                }
                default -> {
                    return call;
                }
            }
        }

        /**
         * The type whose collation an operand brings to a comparison: that of the text under the casts between
         * character types that Calcite's coercion adds (they unify lengths, and carry another operand's collation).
         */
        private RelDataType collationType(RexNode operand) {
            RexNode text = operand;
            while (text.getKind() == SqlKind.CAST && SqlTypeUtil.inCharFamily(text.getType())
                    && SqlTypeUtil.inCharFamily(((RexCall) text).getOperands().get(0).getType())) {
                text = ((RexCall) text).getOperands().get(0);
            }
            return text.getType();
        }

        private RexNode fold(RexNode text, Collation collation) {
            return builder.makeCall(MySqlCollations.FOLD, text, builder.makeLiteral(collation.collationName()));
        }
    }
}
