package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

class PartialAggregatesTest {
    private static final FieldType DECIMAL = ValueTypes.decimal(10, 2);
    private static final List<Expression> INPUTS = List.of(
            Expression.newBuilder().setType(ValueTypes.of(ValueType.INT64)).setColumn(0).build(),
            Expression.newBuilder().setType(DECIMAL).setColumn(1).build());

    private static List<AggregateCall> calls(String select) {
        RelNode plan = QueryExecution.plan(select + " FROM (VALUES (1, 2.50), (1, 3.25), (2, NULL)) AS t(k, v) GROUP BY k")
                .plan();
        return aggregate(plan).getAggCallList();
    }

    private static Aggregate aggregate(RelNode node) {
        if (node instanceof Aggregate aggregate) {
            return aggregate;
        }
        for (RelNode input : node.getInputs()) {
            Aggregate found = aggregate(input);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    @Test
    void anAverageIsAPartialSumAndCountAndFinishesAsTheirQuotient() {
        AggregateCall average = calls("SELECT k, AVG(v)").get(0);
        Aggregation.Builder partial = Aggregation.newBuilder();
        List<FieldType> types = new ArrayList<>(List.of(ValueTypes.of(ValueType.INT64)));

        int[] slots = PartialAggregates.addCalls(average, INPUTS, partial, types);

        assertThat(slots).containsExactly(1, 2);
        assertThat(partial.getCallsList()).extracting(call -> call.getFunction())
                .containsExactly(AggregateFunction.SUM, AggregateFunction.COUNT);
        Object[] state = {1L, new BigDecimal("5.75"), 2L};
        assertThat((BigDecimal) PartialAggregates.result(average, state, slots))
                .isEqualByComparingTo(new BigDecimal("2.875"));
        assertThat(PartialAggregates.result(average, new Object[] {2L, null, 0L}, slots)).isNull();
    }

    @Test
    void countsAndSumsMergeByAddingAndExtremesByComparing() {
        assertThat(PartialAggregates.combine(3L, 4L, "COUNT")).isEqualTo(7L);
        assertThat(PartialAggregates.combine(new BigDecimal("1.5"), new BigDecimal("2.25"), "SUM"))
                .isEqualTo(new BigDecimal("3.75"));
        assertThat(PartialAggregates.combine(5L, 3L, "MIN")).isEqualTo(3L);
        assertThat(PartialAggregates.combine(5L, 3L, "MAX")).isEqualTo(5L);
        assertThat(PartialAggregates.combine(null, 3L, "MAX")).isEqualTo(3L);
        assertThat(PartialAggregates.combine(5L, null, "SUM")).isEqualTo(5L);
    }

    @Test
    void aCountOfNoRowsIsZero() {
        AggregateCall count = calls("SELECT k, COUNT(v)").get(0);
        int[] slots = PartialAggregates.addCalls(count, INPUTS, Aggregation.newBuilder(),
                new ArrayList<>(List.of(ValueTypes.of(ValueType.INT64))));

        assertThat(PartialAggregates.result(count, new Object[] {1L, null}, slots)).isEqualTo(0L);
    }

    @Test
    void distinctCallsStayInTheSqlLayer() {
        AggregateCall distinct = calls("SELECT k, COUNT(DISTINCT v)").get(0);

        assertThat(PartialAggregates.addCalls(distinct, INPUTS, Aggregation.newBuilder(), new ArrayList<>())).isNull();
    }
}
