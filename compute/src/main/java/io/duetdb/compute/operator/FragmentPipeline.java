package io.duetdb.compute.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppHashJoin;
import io.duetdb.proto.mpp.MppTableScan;

/**
 * Turns an MPP fragment's plan (a tree of executors) into operators over leaves the caller supplies: table scans of
 * the task's regions and exchange receivers of other tasks' batches. As {@link DagPipeline}, everything is checked as
 * it is built, so an invalid plan throws {@link UnsupportedExpressionException} before any data is read.
 */
public final class FragmentPipeline {
    private FragmentPipeline() {
    }

    /** The leaves of a fragment. */
    public interface Leaves {
        /** The scan; {@code selectionAbove} is the selection right over it (for rough filtering), or null. */
        BatchOperator tableScan(MppTableScan scan, Selection selectionAbove);

        BatchOperator receiver(ExchangeReceiver receiver);
    }

    /**
     * The fragment's operators; {@code memory} is told of the bytes joins and aggregations hold (it may throw to stop
     * the task).
     */
    public static BatchOperator build(MppExecutor executor, Leaves leaves, BufferAllocator allocator, LongConsumer memory) {
        return build(executor, leaves, allocator, memory, () -> { });
    }

    /**
     * As above; {@code checkpoint} runs before every batch any operator of the fragment hands on (a cancelled task
     * stops there, however much work one batch of its input makes further up).
     */
    public static BatchOperator build(MppExecutor executor, Leaves leaves, BufferAllocator allocator, LongConsumer memory,
            Runnable checkpoint) {
        return checked(buildUnchecked(executor, leaves, allocator, memory, checkpoint), checkpoint);
    }

    private static BatchOperator checked(BatchOperator operator, Runnable checkpoint) {
        return new BatchOperator() {
            @Override
            public List<FieldType> outputTypes() {
                return operator.outputTypes();
            }

            @Override
            public VectorSchemaRoot next() {
                checkpoint.run();
                return operator.next();
            }

            @Override
            public void close() {
                operator.close();
            }
        };
    }

    private static BatchOperator buildUnchecked(MppExecutor executor, Leaves leaves, BufferAllocator allocator,
            LongConsumer memory, Runnable checkpoint) {
        return switch (executor.getKindCase()) {
            case TABLE_SCAN -> leaf(executor, leaves.tableScan(executor.getTableScan(), null));
            case EXCHANGE_RECEIVER -> leaf(executor, leaves.receiver(executor.getExchangeReceiver()));
            case SELECTION, PROJECTION, AGGREGATION -> {
                MppExecutor child = only(executor);
                BatchOperator input = executor.hasSelection() && child.hasTableScan()
                        ? leaf(child, leaves.tableScan(child.getTableScan(), executor.getSelection()))
                        : build(child, leaves, allocator, memory, checkpoint);
                try {
                    yield unary(executor, input, allocator);
                } catch (RuntimeException e) {
                    input.close();
                    throw e;
                }
            }
            case HASH_JOIN -> join(executor, leaves, allocator, memory, checkpoint);
            case KIND_NOT_SET -> throw new UnsupportedExpressionException("an MPP executor without a kind");
        };
    }

    private static BatchOperator leaf(MppExecutor executor, BatchOperator operator) {
        if (executor.getChildrenCount() != 0) {
            operator.close();
            throw new UnsupportedExpressionException("a " + executor.getKindCase() + " has no inputs");
        }
        return operator;
    }

    private static MppExecutor only(MppExecutor executor) {
        if (executor.getChildrenCount() != 1) {
            throw new UnsupportedExpressionException("a " + executor.getKindCase() + " needs one input, not "
                    + executor.getChildrenCount());
        }
        return executor.getChildren(0);
    }

    private static BatchOperator unary(MppExecutor executor, BatchOperator input, BufferAllocator allocator) {
        List<FieldType> types = input.outputTypes();
        return switch (executor.getKindCase()) {
            case SELECTION -> {
                List<VectorExpression> conditions = expressions(executor.getSelection().getConditionsList(), types);
                for (VectorExpression condition : conditions) {
                    if (!VectorExpressions.isBoolean(condition)) {
                        throw new UnsupportedExpressionException("a selection condition must be BOOLEAN");
                    }
                }
                yield new SelectionOperator(input, conditions, allocator);
            }
            case PROJECTION -> new ProjectionOperator(input, expressions(executor.getProjection().getExpressionsList(), types),
                    allocator);
            case AGGREGATION -> {
                List<PartialAggregationOperator.Call> calls = new ArrayList<>();
                for (AggregateCall call : executor.getAggregation().getCallsList()) {
                    calls.add(new PartialAggregationOperator.Call(call.getFunction(),
                            call.hasArgument() ? VectorExpressions.build(call.getArgument(), types) : null, call.getType()));
                }
                yield new PartialAggregationOperator(input, expressions(executor.getAggregation().getGroupByList(), types),
                        calls, allocator, DagPipeline.DEFAULT_BATCH_ROWS);
            }
            default -> throw new IllegalStateException(executor.getKindCase().name());
        };
    }

    private static BatchOperator join(MppExecutor executor, Leaves leaves, BufferAllocator allocator, LongConsumer memory,
            Runnable checkpoint) {
        if (executor.getChildrenCount() != 2) {
            throw new UnsupportedExpressionException("a hash join needs two inputs, not " + executor.getChildrenCount());
        }
        MppHashJoin join = executor.getHashJoin();
        if (join.getLeftKeysCount() != join.getRightKeysCount() || join.getLeftKeysCount() == 0) {
            throw new UnsupportedExpressionException("a hash join needs as many left keys as right keys, at least one");
        }
        HashJoinOperator.Kind kind = switch (join.getKind()) {
            case INNER -> HashJoinOperator.Kind.INNER;
            case LEFT_OUTER -> HashJoinOperator.Kind.LEFT;
            case SEMI -> HashJoinOperator.Kind.SEMI;
            case ANTI_SEMI -> HashJoinOperator.Kind.ANTI;
            default -> throw new UnsupportedExpressionException("join kind " + join.getKind());
        };
        BatchOperator left = build(executor.getChildren(0), leaves, allocator, memory, checkpoint);
        BatchOperator right = null;
        try {
            right = build(executor.getChildren(1), leaves, allocator, memory, checkpoint);
            List<HashJoinOperator.Key> keys = new ArrayList<>();
            for (int i = 0; i < join.getLeftKeysCount(); i++) {
                keys.add(new HashJoinOperator.Key(VectorExpressions.build(join.getLeftKeys(i), left.outputTypes()),
                        VectorExpressions.build(join.getRightKeys(i), right.outputTypes()), false));
            }
            VectorExpression other = null;
            if (join.hasOtherCondition()) {
                List<FieldType> pair = new ArrayList<>(left.outputTypes());
                pair.addAll(right.outputTypes());
                other = VectorExpressions.build(join.getOtherCondition(), pair);
            }
            return new HashJoinOperator(left, right, kind, keys, other, allocator, memory);
        } catch (RuntimeException e) {
            left.close();
            if (right != null) {
                right.close();
            }
            throw e;
        }
    }

    private static List<VectorExpression> expressions(List<Expression> expressions, List<FieldType> input) {
        List<VectorExpression> built = new ArrayList<>(expressions.size());
        for (Expression expression : expressions) {
            built.add(VectorExpressions.build(expression, input));
        }
        return built;
    }
}
