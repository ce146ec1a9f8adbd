package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.Literal;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.JoinKind;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppHashJoin;
import io.duetdb.proto.mpp.MppTableScan;

/** An MPP fragment's tree built over supplied leaves: a join of a scan and a receiver under a partial aggregation. */
class FragmentPipelineTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close();
    }

    private static Expression column(int position) {
        return Expression.newBuilder().setType(INT64).setColumn(position).build();
    }

    @Test
    void aJoinOfAScanAndAReceiverUnderAnAggregationRuns() {
        // scan (k, v) where v > 1, joined with received (k, w), summing w per k.
        MppExecutor scan = MppExecutor.newBuilder().setTableScan(MppTableScan.newBuilder().setScan(TableScan.newBuilder()
                .setTableId(7))).build();
        Expression greater = Expression.newBuilder().setType(ValueTypes.of(ValueType.BOOLEAN))
                .setCall(Call.newBuilder().setFunction(ScalarFunction.GREATER).addArguments(column(1))
                        .addArguments(Expression.newBuilder().setType(INT64).setLiteral(Literal.newBuilder().setIntValue(1))))
                .build();
        MppExecutor filtered = MppExecutor.newBuilder().setSelection(Selection.newBuilder().addConditions(greater))
                .addChildren(scan).build();
        MppExecutor receiver = MppExecutor.newBuilder().setExchangeReceiver(ExchangeReceiver.newBuilder()
                .setSourceFragment(2).addTypes(INT64).addTypes(INT64)).build();
        MppExecutor join = MppExecutor.newBuilder().setHashJoin(MppHashJoin.newBuilder().setKind(JoinKind.INNER)
                .addLeftKeys(column(0)).addRightKeys(column(0))).addChildren(filtered).addChildren(receiver).build();
        MppExecutor aggregation = MppExecutor.newBuilder().setAggregation(Aggregation.newBuilder().addGroupBy(column(0))
                .addCalls(AggregateCall.newBuilder().setFunction(AggregateFunction.SUM).setArgument(column(3))
                        .setType(ValueTypes.decimal(65, 0)))).addChildren(join).build();
        List<Selection> selectionsSeen = new ArrayList<>();
        FragmentPipeline.Leaves leaves = new FragmentPipeline.Leaves() {
            @Override
            public BatchOperator tableScan(MppTableScan tableScan, Selection selectionAbove) {
                selectionsSeen.add(selectionAbove);
                return RowListOperator.of(List.of(INT64, INT64), List.of(new Object[] {1L, 5L}, new Object[] {2L, 1L},
                        new Object[] {3L, 2L}), 2, allocator);
            }

            @Override
            public BatchOperator receiver(ExchangeReceiver exchangeReceiver) {
                return RowListOperator.of(exchangeReceiver.getTypesList(), List.of(new Object[] {1L, 10L},
                        new Object[] {1L, 20L}, new Object[] {2L, 30L}, new Object[] {3L, 40L}), 3, allocator);
            }
        };
        List<String> groups = new ArrayList<>();
        try (BatchOperator pipeline = FragmentPipeline.build(aggregation, leaves, allocator, bytes -> { })) {
            for (VectorSchemaRoot batch = pipeline.next(); batch != null; batch = pipeline.next()) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    Object[] values = Batches.row(batch, row);
                    groups.add(values[0] + "=" + values[1]);
                }
            }
        }
        assertThat(groups).containsExactlyInAnyOrder("1=30", "3=40");
        assertThat(selectionsSeen).containsExactly(filtered.getSelection());
    }

    @Test
    void malformedTreesAreRefusedBeforeAnythingIsRead() {
        MppExecutor receiver = MppExecutor.newBuilder().setExchangeReceiver(ExchangeReceiver.newBuilder().addTypes(INT64))
                .build();
        FragmentPipeline.Leaves leaves = new FragmentPipeline.Leaves() {
            @Override
            public BatchOperator tableScan(MppTableScan scan, Selection selectionAbove) {
                throw new AssertionError("no scan in these plans");
            }

            @Override
            public BatchOperator receiver(ExchangeReceiver exchangeReceiver) {
                return RowListOperator.of(exchangeReceiver.getTypesList(), List.of(), 1, allocator);
            }
        };
        MppExecutor oneSidedJoin = MppExecutor.newBuilder().setHashJoin(MppHashJoin.newBuilder().setKind(JoinKind.INNER)
                .addLeftKeys(column(0)).addRightKeys(column(0))).addChildren(receiver).build();
        assertThatThrownBy(() -> FragmentPipeline.build(oneSidedJoin, leaves, allocator, bytes -> { }))
                .isInstanceOf(UnsupportedExpressionException.class).hasMessageContaining("two inputs");
        MppExecutor keyless = MppExecutor.newBuilder().setHashJoin(MppHashJoin.newBuilder().setKind(JoinKind.INNER))
                .addChildren(receiver).addChildren(receiver).build();
        assertThatThrownBy(() -> FragmentPipeline.build(keyless, leaves, allocator, bytes -> { }))
                .isInstanceOf(UnsupportedExpressionException.class).hasMessageContaining("at least one");
        MppExecutor badColumn = MppExecutor.newBuilder().setSelection(Selection.newBuilder().addConditions(column(4)))
                .addChildren(receiver).build();
        assertThatThrownBy(() -> FragmentPipeline.build(badColumn, leaves, allocator, bytes -> { }))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> FragmentPipeline.build(MppExecutor.getDefaultInstance(), leaves, allocator, bytes -> { }))
                .isInstanceOf(UnsupportedExpressionException.class);
    }
}
