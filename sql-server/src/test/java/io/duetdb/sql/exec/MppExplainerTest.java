package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.proto.mpp.ExchangeReceiver;
import io.duetdb.proto.mpp.ExchangeSender;
import io.duetdb.proto.mpp.ExchangeType;
import io.duetdb.proto.mpp.JoinKind;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppFragment;
import io.duetdb.proto.mpp.MppHashJoin;
import io.duetdb.proto.mpp.MppQuery;
import io.duetdb.proto.mpp.MppTableScan;

/** EXPLAIN's drawing of MPP fragments: each fragment under its sender, each receiver over its source's sender. */
class MppExplainerTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);

    private static Expression column(int position) {
        return Expression.newBuilder().setType(INT64).setColumn(position).build();
    }

    private static MppExecutor scan(long tableId) {
        return MppExecutor.newBuilder().setTableScan(MppTableScan.newBuilder().setScan(TableScan.newBuilder()
                .setTableId(tableId))).build();
    }

    private static MppExecutor receiver(int fragment) {
        return MppExecutor.newBuilder().setExchangeReceiver(ExchangeReceiver.newBuilder().setSourceFragment(fragment)).build();
    }

    @Test
    void aBroadcastJoinUnderATwoPhaseAggregation() {
        MppFragment small = MppFragment.newBuilder().setId(1).setRoot(scan(20))
                .setSender(ExchangeSender.newBuilder().setType(ExchangeType.BROADCAST).setTargetFragment(0)).build();
        MppExecutor join = MppExecutor.newBuilder().setHashJoin(MppHashJoin.newBuilder().setKind(JoinKind.INNER)
                .addLeftKeys(column(1)).addRightKeys(column(0))).addChildren(scan(10)).addChildren(receiver(1)).build();
        MppExecutor partial = MppExecutor.newBuilder().setAggregation(Aggregation.newBuilder().addGroupBy(column(2))
                .addCalls(AggregateCall.newBuilder().setFunction(AggregateFunction.COUNT).setType(INT64)))
                .addChildren(join).build();
        MppFragment large = MppFragment.newBuilder().setId(0).setRoot(partial).setSender(ExchangeSender.newBuilder()
                .setType(ExchangeType.HASH).addPartitionKeys(column(0)).setTargetFragment(2)).build();
        MppExecutor merge = MppExecutor.newBuilder().setAggregation(Aggregation.newBuilder().addGroupBy(column(0))
                .addCalls(AggregateCall.newBuilder().setFunction(AggregateFunction.SUM).setArgument(column(1))
                        .setType(ValueTypes.decimal(65, 0)))).addChildren(receiver(0)).build();
        MppFragment root = MppFragment.newBuilder().setId(2).setRoot(merge).setSender(ExchangeSender.newBuilder()
                .setType(ExchangeType.PASS_THROUGH).setToServer(true)).build();
        MppRead read = new MppRead(MppQuery.newBuilder().addFragments(small).addFragments(large).addFragments(root).build(),
                List.of(INT64, INT64), answers -> answers, false, Map.of(10L, "orders", 20L, "customers"));

        List<String> lines = new ArrayList<>();
        new MppExplainer(read, (prefix, name, task, access, info) -> lines.add(String.join("|", prefix + name, task, access,
                info))).draw("", "");

        assertThat(lines).containsExactly(
                "ExchangeSender|mpp[tiflash]||ExchangeType: PassThrough",
                "└─HashAgg|mpp[tiflash]||final, group by:[#0], funcs:sum(#1)",
                "  └─ExchangeReceiver|mpp[tiflash]||",
                "    └─ExchangeSender|mpp[tiflash]||ExchangeType: HashPartition, Hash Cols: [#0]",
                "      └─HashAgg|mpp[tiflash]||partial, group by:[#2], funcs:count(*)",
                "        └─HashJoin|mpp[tiflash]||inner join, equal:[#1] = [#0]",
                "          ├─TableFullScan(Left)|mpp[tiflash]|table:orders|keep order:false",
                "          └─ExchangeReceiver(Right)|mpp[tiflash]||",
                "            └─ExchangeSender|mpp[tiflash]||ExchangeType: Broadcast",
                "              └─TableFullScan|mpp[tiflash]|table:customers|keep order:false");
    }
}
