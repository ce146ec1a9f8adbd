package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class KeyPointsTest {
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);
    private final RelDataType integer = types.createSqlType(SqlTypeName.INTEGER);

    private RexNode column(int index) {
        return rex.makeInputRef(integer, index);
    }

    private RexNode equals(int column, long value) {
        return rex.makeCall(SqlStdOperatorTable.EQUALS, column(column), rex.makeExactLiteral(BigDecimal.valueOf(value)));
    }

    private RexNode and(RexNode... operands) {
        return rex.makeCall(SqlStdOperatorTable.AND, operands);
    }

    private RexNode or(RexNode... operands) {
        return rex.makeCall(SqlStdOperatorTable.OR, operands);
    }

    private static long value(Map<Integer, RexNode> point, int column) {
        return ((RexLiteral) point.get(column)).getValueAs(Long.class);
    }

    @Test
    void rowConstructorInListGivesOnePointPerTuple() {
        KeyPoints points = KeyPoints.of(List.of(or(and(equals(0, 1), equals(1, 1)), and(equals(0, 1), equals(1, 3)),
                and(equals(0, 2), equals(1, 2)))));

        assertThat(points.points()).hasSize(3);
        assertThat(points.assignAll(List.of(0, 1))).isTrue();
        assertThat(points.points()).extracting(point -> value(point, 0) * 10 + value(point, 1))
                .containsExactly(11L, 13L, 22L);
    }

    @Test
    void equalityAndInListMultiply() {
        KeyPoints points = KeyPoints.of(List.of(equals(0, 7), or(equals(1, 1), equals(1, 2), equals(1, 3))));

        assertThat(points.points()).hasSize(3);
        assertThat(points.points()).allSatisfy(point -> assertThat(value(point, 0)).isEqualTo(7));
        assertThat(points.assignAll(List.of(0, 1))).isTrue();
        assertThat(points.assignAll(List.of(0, 2))).isFalse();
    }

    @Test
    void otherConjunctsAreLeftOutAndAnOrWithOtherTermsAssignsNothing() {
        RexNode range = rex.makeCall(SqlStdOperatorTable.GREATER_THAN, column(2),
                rex.makeExactLiteral(BigDecimal.ONE));
        KeyPoints points = KeyPoints.of(List.of(equals(0, 1), range, or(equals(1, 1), range)));

        assertThat(points.points()).hasSize(1);
        assertThat(points.points().get(0)).containsOnlyKeys(0);
    }

    @Test
    void contradictoryNumbersLeaveNoPoint() {
        assertThat(KeyPoints.of(List.of(equals(0, 1), equals(0, 2))).points()).isEmpty();
        assertThat(KeyPoints.of(List.of(equals(0, 1), or(equals(0, 1), equals(0, 2)))).points()).hasSize(1);
        assertThat(KeyPoints.of(List.of(or(and(equals(0, 1), equals(0, 2)), equals(0, 3)))).points()).hasSize(1);
    }

    @Test
    void tooManyPointsLeaveTheConjunctOut() {
        RexNode[] many = new RexNode[100];
        for (int i = 0; i < many.length; i++) {
            many[i] = equals(0, i);
        }
        RexNode[] others = new RexNode[100];
        for (int i = 0; i < others.length; i++) {
            others[i] = equals(1, i);
        }
        KeyPoints points = KeyPoints.of(List.of(or(many), or(others)));

        assertThat(points.points()).hasSize(100);
        assertThat(points.assignAll(List.of(0))).isTrue();
        assertThat(points.assignAll(List.of(1))).isFalse();
    }

    @Test
    void placeholdersAreConstants() {
        RexNode parameter = rex.makeDynamicParam(integer, 0);
        KeyPoints points = KeyPoints.of(List.of(rex.makeCall(SqlStdOperatorTable.EQUALS, parameter, column(3))));

        assertThat(points.points()).hasSize(1);
        assertThat(points.points().get(0).get(3)).isEqualTo(parameter);
    }
}
