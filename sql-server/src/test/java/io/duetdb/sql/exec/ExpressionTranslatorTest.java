package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

class ExpressionTranslatorTest {
    private static final List<FieldType> COLUMNS = List.of(ValueTypes.of(ValueType.INT64), ValueTypes.of(ValueType.STRING));

    private final RelNode plan = QueryExecution.plan("SELECT 1").plan();
    private final RexBuilder rex = plan.getCluster().getRexBuilder();
    private final ExpressionTranslator translator = new ExpressionTranslator(QueryExecution.compiler(plan));

    private RelDataType type(SqlTypeName name) {
        return rex.getTypeFactory().createTypeWithNullability(rex.getTypeFactory().createSqlType(name), true);
    }

    private RexNode column(int index) {
        return rex.makeInputRef(type(index == 0 ? SqlTypeName.BIGINT : SqlTypeName.VARCHAR), index);
    }

    @Test
    void aComparisonOfAColumnWithALiteralBecomesABooleanCall() {
        Expression expression = translator.translate(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, column(0),
                rex.makeBigintLiteral(BigDecimal.valueOf(5))), COLUMNS);

        assertThat(expression).isNotNull();
        assertThat(expression.getType().getType()).isEqualTo(ValueType.BOOLEAN);
        assertThat(expression.getCall().getFunction()).isEqualTo(ScalarFunction.GREATER);
        assertThat(expression.getCall().getArguments(0).getColumn()).isEqualTo(0);
        assertThat(expression.getCall().getArguments(1).getLiteral().getIntValue()).isEqualTo(5);
        assertThat(ExpressionTranslator.isCondition(expression, COLUMNS)).isTrue();
    }

    @Test
    void aConstantSubexpressionIsComputedOnceAndTravelsAsALiteral() {
        RexNode sum = rex.makeCall(SqlStdOperatorTable.PLUS, rex.makeBigintLiteral(BigDecimal.valueOf(2)),
                rex.makeBigintLiteral(BigDecimal.valueOf(3)));
        Expression expression = translator.translate(rex.makeCall(SqlStdOperatorTable.EQUALS, column(0), sum), COLUMNS);

        assertThat(expression.getCall().getArguments(1).hasLiteral()).isTrue();
        assertThat(expression.getCall().getArguments(1).getLiteral().getIntValue()).isEqualTo(5);
    }

    @Test
    void whatTheEvaluatorLacksDoesNotTranslate() {
        RexNode unknownFunction = rex.makeCall(SqlStdOperatorTable.SQRT, column(0));
        RexNode beyondTheScan = rex.makeInputRef(type(SqlTypeName.BIGINT), 2);

        assertThat(translator.translate(unknownFunction, COLUMNS)).isNull();
        assertThat(translator.translate(rex.makeCall(SqlStdOperatorTable.IS_NULL, beyondTheScan), COLUMNS)).isNull();
        assertThat(translator.translate(rex.makeCall(SqlStdOperatorTable.LIKE, column(1), rex.makeLiteral("a%")),
                COLUMNS)).isNotNull();
    }

    @Test
    void aValueIsNotACondition() {
        Expression value = translator.translate(column(0), COLUMNS);

        assertThat(value.getColumn()).isEqualTo(0);
        assertThat(ExpressionTranslator.isCondition(value, COLUMNS)).isFalse();
    }

    @Test
    void typesMapToTheCoprocessorsOrToNothing() {
        assertThat(ExpressionTranslator.fieldType(type(SqlTypeName.INTEGER)).getType()).isEqualTo(ValueType.INT64);
        assertThat(ExpressionTranslator.fieldType(type(SqlTypeName.VARCHAR)).getType()).isEqualTo(ValueType.STRING);
        assertThat(ExpressionTranslator.fieldType(type(SqlTypeName.TIMESTAMP)).getType()).isEqualTo(ValueType.DATETIME);
        FieldType decimal = ExpressionTranslator.fieldType(rex.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 12, 2));
        assertThat(decimal.getPrecision()).isEqualTo(12);
        assertThat(decimal.getScale()).isEqualTo(2);
        assertThat(ExpressionTranslator.fieldType(type(SqlTypeName.TIME))).isNull();
    }
}
