package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;

import com.google.protobuf.ByteString;

import io.duetdb.compute.operator.HashJoinOperator;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.KeyRange;
import io.duetdb.proto.coprocessor.Projection;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.ExchangeSender;
import io.duetdb.proto.mpp.ExchangeType;
import io.duetdb.proto.mpp.JoinKind;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppFragment;
import io.duetdb.proto.mpp.MppHashJoin;
import io.duetdb.proto.mpp.MppQuery;
import io.duetdb.proto.mpp.MppTableScan;

/**
 * Plans MPP reads (TiFlash's MPP mode): a tree of inner equi-joins, filters and projections over tables read from the
 * column learners, with an optional aggregation on top, becomes fragments that the learners run themselves. A join
 * whose smaller side is estimated below {@code tidb_broadcast_join_threshold_count} rows broadcasts that side to the
 * other side's tasks; otherwise both sides are hash-partitioned by the join keys to a fragment of join tasks. An
 * aggregation runs in two phases: partial in the tasks that produce its input, final after a hash exchange by the
 * group keys; the SQL server only gathers the final stream. Used when {@code tidb_allow_mpp} and
 * {@code tidb_enforce_mpp} are on: without a cost model for MPP (on this 2-core machine the learners' own coprocessor
 * reads with the SQL server's joins measured faster at TPC-H SF 0.1), it is not chosen by itself. Anything it cannot
 * plan runs as before.
 */
final class MppPlanner {
    static final String ALLOW_VARIABLE = "tidb_allow_mpp";
    static final String ENFORCE_VARIABLE = "tidb_enforce_mpp";
    static final String BROADCAST_VARIABLE = "tidb_broadcast_join_threshold_count";
    static final String THREADS_VARIABLE = "tidb_max_tiflash_threads";
    static final int DEFAULT_TASKS_PER_LEARNER = 2;

    /** The rows of one fragment being built: its executors so far, their output types and estimated row count. */
    private record Part(int fragment, MppExecutor tree, List<FieldType> types, double rows) {
    }

    private final CoprocessorPlanner coprocessor;
    private final ExpressionTranslator translator;
    private final ExpressionCompiler compiler;
    private final MemoryTracker memory;
    private final List<MppFragment> fragments = new ArrayList<>();
    private final Map<Long, String> tableNames = new HashMap<>();
    private int nextFragment;

    private MppPlanner(CoprocessorPlanner coprocessor, ExpressionCompiler compiler, MemoryTracker memory) {
        this.coprocessor = requireNonNull(coprocessor, "coprocessor is null");
        this.compiler = requireNonNull(compiler, "compiler is null");
        this.translator = new ExpressionTranslator(compiler);
        this.memory = requireNonNull(memory, "memory is null");
    }

    static boolean allowed(SessionFunctions session) {
        return session.switchedOn(ALLOW_VARIABLE);
    }

    static boolean enforced(SessionFunctions session) {
        return allowed(session) && session.switchedOn(ENFORCE_VARIABLE);
    }

    /**
     * The MPP read computing {@code node}, or null when it is not such a tree, a part of it cannot run on the
     * learners, or (unless enforced) it is too small to gain from MPP.
     */
    static MppRead plan(RelNode node, CoprocessorPlanner coprocessor, ExpressionCompiler compiler, MemoryTracker memory) {
        if (!enforced(compiler.session()) || !(node instanceof Aggregate || node instanceof Join
                || (node instanceof Project || node instanceof Filter) && containsJoin(node))) {
            return null;
        }
        return new MppPlanner(coprocessor, compiler, memory).planRoot(node);
    }

    private static boolean containsJoin(RelNode node) {
        return node instanceof Join || node.getInputs().stream().anyMatch(MppPlanner::containsJoin);
    }

    private MppRead planRoot(RelNode node) {
        Part top;
        MppRead.Finish finish;
        if (node instanceof Aggregate aggregate) {
            if (aggregate.getGroupSets().size() != 1) {
                return null;
            }
            Part input = part(aggregate.getInput());
            Aggregated aggregated = input == null ? null : aggregated(aggregate, input);
            if (aggregated == null) {
                return null;
            }
            top = aggregated.part();
            finish = aggregated.finish();
        } else {
            top = part(node);
            if (top == null) {
                return null;
            }
            finish = answers -> answers;
        }
        close(top, ExchangeSender.newBuilder().setType(ExchangeType.PASS_THROUGH).setToServer(true));
        return new MppRead(MppQuery.newBuilder().addAllFragments(fragments).setTasksPerLearner(tasksPerLearner()).build(),
                top.types(), finish,
                !(node instanceof Aggregate), tableNames);
    }

    /** {@code tidb_max_tiflash_threads}, or two when it is automatic (-1). */
    private int tasksPerLearner() {
        long threads = Values.toLong(compiler.session().systemVariable("", THREADS_VARIABLE));
        return threads > 0 ? (int) Math.min(threads, 64) : DEFAULT_TASKS_PER_LEARNER;
    }

    private Part part(RelNode node) {
        if (node instanceof Join join) {
            return join(join);
        }
        if ((node instanceof Filter || node instanceof Project) && containsJoin(node)) {
            Part input = part(node.getInput(0));
            if (input == null) {
                return null;
            }
            return node instanceof Filter filter ? filtered(filter.getCondition(), input)
                    : projected(((Project) node).getProjects(), input);
        }
        if (node instanceof TableScan || node instanceof Filter || node instanceof Project) {
            return scan(node);
        }
        return null;
    }

    /** A chain over a table scan, as the coprocessor planner reads it, when the learners read it. */
    private Part scan(RelNode node) {
        CoprocessorPlanner.StoreRead read = coprocessor.planRead(node);
        if (read == null || read.batches() == null) {
            return null;
        }
        CoprocessorTask task = read.batches().task();
        CoprocessorTask.ScanShape shape = task.shape();
        if (!shape.fromLearners() || !shape.scan().hasTableScan()) {
            return null;
        }
        MppExecutor tree = MppExecutor.newBuilder().setTableScan(MppTableScan.newBuilder()
                .setScan(shape.scan().getTableScan())
                .setRange(KeyRange.newBuilder().setStart(ByteString.copyFrom(shape.start()))
                        .setEnd(ByteString.copyFrom(shape.end()))))
                .build();
        tableNames.put(shape.scan().getTableScan().getTableId(), task.table());
        List<Executor> executors = task.dag().getExecutorsList();
        for (Executor executor : executors.subList(1, executors.size())) {
            MppExecutor.Builder next = MppExecutor.newBuilder().addChildren(tree);
            switch (executor.getKindCase()) {
                case SELECTION -> next.setSelection(executor.getSelection());
                case PROJECTION -> next.setProjection(executor.getProjection());
                default -> {
                    return null;
                }
            }
            tree = next.build();
        }
        Part part = new Part(nextFragment++, tree, task.outputTypes(), rows(node));
        return read.batches().projects() == null ? part : projected(read.batches().projects(), part);
    }

    private Part filtered(RexNode condition, Part input) {
        Selection.Builder selection = Selection.newBuilder();
        for (RexNode conjunct : RelOptUtil.conjunctions(SearchExpansion.expand(compiler.rexBuilder(), condition))) {
            Expression expression = translator.translate(conjunct, input.types());
            if (expression == null || !ExpressionTranslator.isCondition(expression, input.types())) {
                return null;
            }
            selection.addConditions(expression);
        }
        return new Part(input.fragment(), MppExecutor.newBuilder().setSelection(selection).addChildren(input.tree()).build(),
                input.types(), input.rows());
    }

    private Part projected(List<RexNode> projects, Part input) {
        Projection.Builder projection = Projection.newBuilder();
        List<FieldType> types = new ArrayList<>();
        for (RexNode project : projects) {
            Expression expression = translator.translate(project, input.types());
            if (expression == null || ExpressionTranslator.fieldType(project.getType()) == null) {
                return null;
            }
            projection.addExpressions(expression);
            types.add(expression.getType());
        }
        return new Part(input.fragment(), MppExecutor.newBuilder().setProjection(projection).addChildren(input.tree()).build(),
                types, input.rows());
    }

    private Part join(Join join) {
        if (join.getJoinType() != JoinRelType.INNER) {
            return null;
        }
        JoinKeys keys = JoinKeys.of(join, compiler.rexBuilder());
        if (keys == null || keys.nullSafe().contains(true)) {
            return null;
        }
        Part left = part(join.getLeft());
        Part right = left == null ? null : part(join.getRight());
        if (right == null) {
            return null;
        }
        MppHashJoin.Builder hashJoin = MppHashJoin.newBuilder().setKind(JoinKind.INNER);
        for (int i = 0; i < keys.leftKeys().size(); i++) {
            Expression leftKey = translator.translate(keys.leftKeys().get(i), left.types());
            Expression rightKey = translator.translate(keys.rightKeys().get(i), right.types());
            if (leftKey == null || rightKey == null || !HashJoinOperator.sameBytes(leftKey.getType(), rightKey.getType())) {
                return null;
            }
            hashJoin.addLeftKeys(leftKey).addRightKeys(rightKey);
        }
        List<FieldType> pair = new ArrayList<>(left.types());
        pair.addAll(right.types());
        if (!keys.remaining().isAlwaysTrue()) {
            Expression other = translator.translate(keys.remaining(), pair);
            if (other == null || !ExpressionTranslator.isCondition(other, pair)) {
                return null;
            }
            hashJoin.setOtherCondition(other);
        }
        double rows = rows(join);
        long broadcastBelow = Values.toLong(compiler.session().systemVariable("", BROADCAST_VARIABLE));
        if (right.rows() <= broadcastBelow || left.rows() <= broadcastBelow) {
            boolean broadcastRight = right.rows() <= left.rows();
            Part small = broadcastRight ? right : left;
            Part large = broadcastRight ? left : right;
            close(small, ExchangeSender.newBuilder().setType(ExchangeType.BROADCAST).setTargetFragment(large.fragment()));
            MppExecutor receiver = receiver(small);
            MppExecutor tree = MppExecutor.newBuilder().setHashJoin(hashJoin)
                    .addChildren(broadcastRight ? large.tree() : receiver)
                    .addChildren(broadcastRight ? receiver : large.tree()).build();
            return new Part(large.fragment(), tree, pair, rows);
        }
        int fragment = nextFragment++;
        close(left, ExchangeSender.newBuilder().setType(ExchangeType.HASH).addAllPartitionKeys(hashJoin.getLeftKeysList())
                .setTargetFragment(fragment));
        close(right, ExchangeSender.newBuilder().setType(ExchangeType.HASH).addAllPartitionKeys(hashJoin.getRightKeysList())
                .setTargetFragment(fragment));
        MppExecutor tree = MppExecutor.newBuilder().setHashJoin(hashJoin).addChildren(receiver(left))
                .addChildren(receiver(right)).build();
        return new Part(fragment, tree, pair, rows);
    }

    /** An aggregation's final fragment, and the SQL layer's conversion of its groups to the aggregation's rows. */
    private record Aggregated(Part part, MppRead.Finish finish) {
    }

    /** Partial aggregation over {@code input}, a hash exchange by the group keys, and the final aggregation. */
    private Aggregated aggregated(Aggregate aggregate, Part input) {
        List<Expression> inputs = new ArrayList<>();
        for (int i = 0; i < input.types().size(); i++) {
            inputs.add(Expression.newBuilder().setType(input.types().get(i)).setColumn(i).build());
        }
        Aggregation.Builder partial = Aggregation.newBuilder();
        List<FieldType> partialTypes = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            partial.addGroupBy(inputs.get(key));
            partialTypes.add(input.types().get(key));
        }
        int keyCount = partialTypes.size();
        List<int[]> slots = PartialAggregates.addAllCalls(aggregate.getAggCallList(), inputs, partial, partialTypes);
        if (slots == null) {
            return null;
        }
        for (FieldType key : partialTypes.subList(0, keyCount)) {
            if (!HashJoinOperator.sameBytes(key, key)) {
                return null;
            }
        }
        Part partialPart = new Part(input.fragment(), MppExecutor.newBuilder().setAggregation(partial)
                .addChildren(input.tree()).build(), partialTypes, input.rows());
        int fragment = nextFragment++;
        ExchangeSender.Builder exchange = ExchangeSender.newBuilder().setType(ExchangeType.HASH).setTargetFragment(fragment);
        Aggregation.Builder merge = Aggregation.newBuilder();
        List<FieldType> finalTypes = new ArrayList<>(partialTypes.subList(0, keyCount));
        for (int k = 0; k < keyCount; k++) {
            Expression key = Expression.newBuilder().setType(partialTypes.get(k)).setColumn(k).build();
            exchange.addPartitionKeys(key);
            merge.addGroupBy(key);
        }
        for (int position = keyCount; position < partialTypes.size(); position++) {
            String function = PartialAggregates.partialFunction(aggregate.getAggCallList(), slots, position);
            FieldType type = partialTypes.get(position);
            FieldType mergedType = PartialAggregates.mergedType(function, type);
            merge.addCalls(AggregateCall.newBuilder()
                    .setFunction(PartialAggregates.mergeFunction(function))
                    .setArgument(Expression.newBuilder().setType(type).setColumn(position))
                    .setType(mergedType));
            finalTypes.add(mergedType);
        }
        close(partialPart, exchange);
        MppExecutor tree = MppExecutor.newBuilder().setAggregation(merge).addChildren(receiver(partialPart)).build();
        // Each group comes once from the learners: the SQL layer's merge only turns partial states into results.
        PartialAggregateMerge finish = new PartialAggregateMerge(aggregate.getAggCallList(), keyCount, slots, memory,
                compiler.session());
        return new Aggregated(new Part(fragment, tree, finalTypes, rows(aggregate)),
                answers -> RowStream.of(finish.hashed(answers)));
    }

    private MppExecutor receiver(Part source) {
        return MppExecutor.newBuilder().setExchangeReceiver(ExchangeReceiver.newBuilder()
                .setSourceFragment(source.fragment()).addAllTypes(source.types())).build();
    }

    private void close(Part part, ExchangeSender.Builder sender) {
        fragments.add(MppFragment.newBuilder().setId(part.fragment()).setRoot(part.tree()).setSender(sender).build());
    }

    private static double rows(RelNode node) {
        Double rows = node.getCluster().getMetadataQuery().getRowCount(node);
        return rows == null ? Double.MAX_VALUE : rows;
    }
}
