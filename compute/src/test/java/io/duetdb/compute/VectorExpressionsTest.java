package io.duetdb.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.compute.operator.Batches;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/** Each kernel over a batch holding NULLs, against MySQL's answers. */
class VectorExpressionsTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType DOUBLE = ValueTypes.of(ValueType.FLOAT64);
    private static final FieldType DECIMAL = ValueTypes.decimal(10, 2);
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    private static final FieldType DATE = ValueTypes.of(ValueType.DATE);
    private static final FieldType DATETIME = ValueTypes.of(ValueType.DATETIME);
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);
    private static final List<FieldType> TYPES = List.of(INT64, DOUBLE, DECIMAL, STRING, DATE, DATETIME, BOOLEAN);

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close();
    }

    /** Rows: a regular row, a row of NULLs, and a row of edge values. */
    private VectorSchemaRoot batch() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {5L, 2.5, new BigDecimal("10.50"), "apple", 19_000L, 19_000L * 86_400_000_000L + 1, true});
        rows.add(new Object[] {null, null, null, null, null, null, null});
        rows.add(new Object[] {-3L, -0.0, new BigDecimal("0.00"), "", 0L, 0L, false});
        return Batches.ofRows(TYPES, rows, allocator);
    }

    private static Expression column(int index) {
        return Expression.newBuilder().setType(TYPES.get(index)).setColumn(index).build();
    }

    private static Expression constant(Object value, FieldType type) {
        return Expression.newBuilder().setType(type).setLiteral(Literals.of(value)).build();
    }

    private static Expression call(ScalarFunction function, FieldType type, Expression... arguments) {
        return Expression.newBuilder().setType(type).setCall(Call.newBuilder().setFunction(function)
                .addAllArguments(Arrays.asList(arguments))).build();
    }

    private List<Object> evaluate(Expression expression) {
        try (VectorSchemaRoot batch = batch();
                FieldVector result = VectorExpressions.build(expression, TYPES).evaluate(batch, allocator)) {
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < batch.getRowCount(); row++) {
                values.add(VectorValues.get(result, row));
            }
            return values;
        }
    }

    @Test
    void comparisonsAreNullWhenEitherSideIsNull() {
        assertThat(evaluate(call(ScalarFunction.GREATER, BOOLEAN, column(0), constant(0L, INT64))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.EQUAL, BOOLEAN, column(2), constant(new BigDecimal("10.5"), DECIMAL))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.LESS, BOOLEAN, column(1), column(0)))).containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.LESS_OR_EQUAL, BOOLEAN, column(3), constant("b", STRING))))
                .containsExactly(true, null, true);
        assertThat(evaluate(call(ScalarFunction.NOT_EQUAL, BOOLEAN, column(0), constant(null, INT64))))
                .containsExactly(null, null, null);
    }

    @Test
    void datesCompareWithDatetimesOnOneScale() {
        assertThat(evaluate(call(ScalarFunction.LESS, BOOLEAN, column(4), column(5)))).containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.EQUAL, BOOLEAN, column(4), constant(19_000L, DATE))))
                .containsExactly(true, null, false);
    }

    @Test
    void logicIsThreeValued() {
        Expression positive = call(ScalarFunction.GREATER, BOOLEAN, column(0), constant(0L, INT64));
        assertThat(evaluate(call(ScalarFunction.AND, BOOLEAN, positive, constant(false, BOOLEAN))))
                .containsExactly(false, false, false);
        assertThat(evaluate(call(ScalarFunction.AND, BOOLEAN, positive, constant(true, BOOLEAN))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.OR, BOOLEAN, positive, constant(true, BOOLEAN))))
                .containsExactly(true, true, true);
        assertThat(evaluate(call(ScalarFunction.OR, BOOLEAN, positive, constant(false, BOOLEAN))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.NOT, BOOLEAN, positive))).containsExactly(false, null, true);
        assertThat(evaluate(call(ScalarFunction.IS_NULL, BOOLEAN, column(3)))).containsExactly(false, true, false);
        assertThat(evaluate(call(ScalarFunction.IS_NOT_NULL, BOOLEAN, column(6)))).containsExactly(true, false, true);
    }

    @Test
    void arithmeticKeepsExactTypesExact() {
        assertThat(evaluate(call(ScalarFunction.PLUS, INT64, column(0), constant(1L, INT64)))).containsExactly(6L, null, -2L);
        assertThat(evaluate(call(ScalarFunction.MULTIPLY, ValueTypes.decimal(20, 4), column(2), constant(new BigDecimal("0.25"),
                DECIMAL)))).containsExactly(new BigDecimal("2.6250"), null, new BigDecimal("0.0000"));
        assertThat(evaluate(call(ScalarFunction.MINUS, DOUBLE, column(1), column(0)))).containsExactly(-2.5, null, 3.0);
        assertThat(evaluate(call(ScalarFunction.NEGATE, INT64, column(0)))).containsExactly(-5L, null, 3L);
        assertThatThrownBy(() -> evaluate(call(ScalarFunction.MULTIPLY, INT64, column(0), constant(Long.MAX_VALUE, INT64))))
                .isInstanceOfSatisfying(DuetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OUT_OF_RANGE_VALUE));
    }

    @Test
    void likeAndInFollowMysql() {
        assertThat(evaluate(call(ScalarFunction.LIKE, BOOLEAN, column(3), constant("ap%", STRING))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.LIKE, BOOLEAN, column(3), constant("_pp_e", STRING))))
                .containsExactly(true, null, false);
        assertThat(evaluate(call(ScalarFunction.LIKE, BOOLEAN, column(3), constant("%", STRING))))
                .containsExactly(true, null, true);
        // The empty pattern matches the empty string only (found by ItRandomQueries: it failed to build).
        assertThat(evaluate(call(ScalarFunction.LIKE, BOOLEAN, column(3), constant("", STRING))))
                .containsExactly(false, null, true);
        assertThat(evaluate(call(ScalarFunction.IN, BOOLEAN, column(0), constant(5L, INT64), constant(7L, INT64))))
                .containsExactly(true, null, false);
        // x IN (..., NULL) is NULL, not FALSE, when nothing matches.
        assertThat(evaluate(call(ScalarFunction.IN, BOOLEAN, column(0), constant(5L, INT64), constant(null, INT64))))
                .containsExactly(true, null, null);
        assertThat(evaluate(call(ScalarFunction.IN, BOOLEAN, column(2), constant(new BigDecimal("0"), DECIMAL))))
                .containsExactly(false, null, true);
    }

    @Test
    void caseTakesTheFirstTrueBranchAndNullConditionsAreNotTrue() {
        Expression positive = call(ScalarFunction.GREATER, BOOLEAN, column(0), constant(0L, INT64));
        Expression isNull = call(ScalarFunction.IS_NULL, BOOLEAN, column(0));
        assertThat(evaluate(call(ScalarFunction.CASE, STRING, positive, constant("plus", STRING), isNull,
                constant("none", STRING), constant("other", STRING)))).containsExactly("plus", "none", "other");
        // A later branch or the ELSE can take an earlier row: strings are still written in row order.
        Expression negative = call(ScalarFunction.LESS, BOOLEAN, column(0), constant(0L, INT64));
        assertThat(evaluate(call(ScalarFunction.CASE, STRING, negative, constant("minus", STRING), isNull, column(3),
                column(3)))).containsExactly("apple", null, "minus");
        assertThat(evaluate(call(ScalarFunction.CASE, STRING, negative, constant("minus", STRING), positive,
                constant("a much longer value", STRING)))).containsExactly("a much longer value", null, "minus");
        // No ELSE: NULL where no condition holds.
        assertThat(evaluate(call(ScalarFunction.CASE, INT64, positive, column(0)))).containsExactly(5L, null, null);
        // A branch that may fail where it is not taken is refused.
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.CASE, INT64, positive,
                call(ScalarFunction.PLUS, INT64, column(0), constant(1L, INT64))), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void divisionFollowsMySqlAndZeroDivisorsGiveNull() {
        FieldType quotient = ValueTypes.decimal(65, 4);
        // 5 / 2 = 2.5000, -3 / 2 = -1.5000 (scale of the dividend plus four).
        assertThat(evaluate(call(ScalarFunction.DIVIDE, quotient, column(0), constant(2L, INT64))))
                .containsExactly(new BigDecimal("2.5000"), null, new BigDecimal("-1.5000"));
        // Rounded half away from zero: 5 / 3 = 1.6667, -3 / 9 = -0.3333, 5 / -6 = -0.8333.
        assertThat(evaluate(call(ScalarFunction.DIVIDE, quotient, column(0), constant(3L, INT64))).get(0))
                .isEqualTo(new BigDecimal("1.6667"));
        assertThat(evaluate(call(ScalarFunction.DIVIDE, quotient, column(0), constant(-6L, INT64))).get(0))
                .isEqualTo(new BigDecimal("-0.8333"));
        assertThat(evaluate(call(ScalarFunction.DIVIDE, quotient, constant(-3L, INT64), constant(9L, INT64))).get(0))
                .isEqualTo(new BigDecimal("-0.3333"));
        // DECIMAL(10,2) / INT: scale 6; 10.50 / 0.00 is NULL.
        assertThat(evaluate(call(ScalarFunction.DIVIDE, ValueTypes.decimal(65, 6), column(2), column(0))))
                .containsExactly(new BigDecimal("2.100000"), null, new BigDecimal("0.000000"));
        assertThat(evaluate(call(ScalarFunction.DIVIDE, ValueTypes.decimal(65, 4), column(0), column(2))))
                .containsExactly(new BigDecimal("0.4762"), null, null);
        // Beyond long arithmetic the same answer comes from BigDecimal.
        assertThat(evaluate(call(ScalarFunction.DIVIDE, ValueTypes.decimal(65, 4), constant(Long.MAX_VALUE, INT64),
                constant(7L, INT64))).get(0)).isEqualTo(new BigDecimal("1317624576693539401.0000"));
        assertThat(evaluate(call(ScalarFunction.DIVIDE, DOUBLE, column(1), constant(0.5, DOUBLE))))
                .containsExactly(5.0, null, -0.0);
        assertThat(evaluate(call(ScalarFunction.DIVIDE, DOUBLE, column(1), constant(0.0, DOUBLE))))
                .containsExactly(null, null, null);
        // Remainders take the dividend's sign; a zero divisor gives NULL.
        assertThat(evaluate(call(ScalarFunction.MOD, INT64, column(0), constant(2L, INT64)))).containsExactly(1L, null, -1L);
        assertThat(evaluate(call(ScalarFunction.MOD, INT64, column(0), constant(0L, INT64))))
                .containsExactly(null, null, null);
        assertThat(evaluate(call(ScalarFunction.MOD, DOUBLE, column(1), constant(1.5, DOUBLE))))
                .containsExactly(1.0, null, -0.0);
        // Remainders of exact numbers are decimals at the larger scale, with the dividend's sign.
        assertThat(evaluate(call(ScalarFunction.MOD, DECIMAL, column(2), column(0))))
                .containsExactly(new BigDecimal("0.50"), null, new BigDecimal("0.00"));
        assertThat(evaluate(call(ScalarFunction.MOD, ValueTypes.decimal(10, 3), column(2),
                constant(new BigDecimal("3.125"), ValueTypes.decimal(5, 3)))))
                .containsExactly(new BigDecimal("1.125"), null, new BigDecimal("0.000"));
        assertThat(evaluate(call(ScalarFunction.MOD, ValueTypes.decimal(5, 1), column(0),
                constant(new BigDecimal("-2.5"), ValueTypes.decimal(5, 1)))))
                .containsExactly(new BigDecimal("0.0"), null, new BigDecimal("-0.5"));
        assertThat(evaluate(call(ScalarFunction.MOD, DECIMAL, column(2), constant(BigDecimal.ZERO, ValueTypes.decimal(5, 0)))))
                .containsExactly(null, null, null);
        // Past a long at the result's scale: BigDecimal.
        assertThat(evaluate(call(ScalarFunction.MOD, ValueTypes.decimal(30, 2), constant(Long.MAX_VALUE, INT64),
                constant(new BigDecimal("0.13"), ValueTypes.decimal(5, 2)))))
                .containsExactly(new BigDecimal("0.11"), new BigDecimal("0.11"), new BigDecimal("0.11"));
        // Integer division is not MySQL's /, and an integer remainder of decimals is not what Calcite types: refused.
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.DIVIDE, INT64, column(0), column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.MOD, INT64, column(2), column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void castsExtractsAndSubstringsKeepNulls() {
        assertThat(evaluate(call(ScalarFunction.CAST, ValueTypes.decimal(10, 1), column(2))))
                .containsExactly(new BigDecimal("10.5"), null, new BigDecimal("0.0"));
        assertThat(evaluate(call(ScalarFunction.CAST, DOUBLE, column(0)))).containsExactly(5.0, null, -3.0);
        assertThat(evaluate(call(ScalarFunction.CAST, DATETIME, column(4))))
                .containsExactly(19_000L * 86_400_000_000L, null, 0L);
        // Day 19,000 is 2022-01-08.
        assertThat(evaluate(call(ScalarFunction.EXTRACT_YEAR, INT64, column(4)))).containsExactly(2022L, null, 1970L);
        assertThat(evaluate(call(ScalarFunction.EXTRACT_MONTH, INT64, column(5)))).containsExactly(1L, null, 1L);
        assertThat(evaluate(call(ScalarFunction.EXTRACT_DAY, INT64, column(4)))).containsExactly(8L, null, 1L);
        assertThat(evaluate(call(ScalarFunction.SUBSTRING, STRING, column(3), constant(2L, INT64), constant(3L, INT64))))
                .containsExactly("ppl", null, "");
        assertThat(evaluate(call(ScalarFunction.SUBSTRING, STRING, column(3), constant(-2L, INT64))))
                .containsExactly("le", null, "");
        assertThat(evaluate(call(ScalarFunction.SUBSTRING, STRING, column(3), constant(0L, INT64))))
                .containsExactly("", null, "");
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.CAST, STRING, column(3)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void stringFunctionsKeepNullsAndCountCodePointsOrBytes() {
        assertThat(evaluate(call(ScalarFunction.UPPER, STRING, column(3)))).containsExactly("APPLE", null, "");
        assertThat(evaluate(call(ScalarFunction.LOWER, STRING, call(ScalarFunction.UPPER, STRING, column(3)))))
                .containsExactly("apple", null, "");
        assertThat(evaluate(call(ScalarFunction.CHAR_LENGTH, INT64, constant("héllo\uD83D\uDE00", STRING))))
                .containsExactly(6L, 6L, 6L);
        assertThat(evaluate(call(ScalarFunction.OCTET_LENGTH, INT64, constant("héllo\uD83D\uDE00", STRING))))
                .containsExactly(10L, 10L, 10L);
        assertThat(evaluate(call(ScalarFunction.CHAR_LENGTH, INT64, column(3)))).containsExactly(5L, null, 0L);
        // ASCII: the first byte, unsigned (é is C3 A9 in UTF-8), 0 for the empty string.
        assertThat(evaluate(call(ScalarFunction.ASCII, INT64, column(3)))).containsExactly(97L, null, 0L);
        assertThat(evaluate(call(ScalarFunction.ASCII, INT64, constant("éa", STRING)))).containsExactly(195L, 195L, 195L);
        assertThat(evaluate(call(ScalarFunction.CONCAT, STRING, column(3), constant("-é", STRING), column(3))))
                .containsExactly("apple-éapple", null, "-é");
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.UPPER, STRING, column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.CONCAT, STRING, column(3), column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void absFloorAndCeilKeepTheKindOfNumber() {
        assertThat(evaluate(call(ScalarFunction.ABS, INT64, column(0)))).containsExactly(5L, null, 3L);
        assertThat(evaluate(call(ScalarFunction.FLOOR, INT64, column(0)))).containsExactly(5L, null, -3L);
        assertThat(evaluate(call(ScalarFunction.FLOOR, DOUBLE, column(1)))).containsExactly(2.0, null, -0.0);
        assertThat(evaluate(call(ScalarFunction.CEIL, DOUBLE, column(1)))).containsExactly(3.0, null, -0.0);
        assertThat(evaluate(call(ScalarFunction.ABS, DECIMAL, call(ScalarFunction.NEGATE, DECIMAL, column(2)))))
                .containsExactly(new BigDecimal("10.50"), null, new BigDecimal("0.00"));
        assertThat(evaluate(call(ScalarFunction.FLOOR, ValueTypes.decimal(10, 0), column(2))))
                .containsExactly(new BigDecimal("10"), null, new BigDecimal("0"));
        assertThat(evaluate(call(ScalarFunction.CEIL, ValueTypes.decimal(10, 0), column(2))))
                .containsExactly(new BigDecimal("11"), null, new BigDecimal("0"));
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.ABS, INT64, column(1)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void invalidExpressionsAreRefusedBeforeAnyData() {
        assertThatThrownBy(() -> VectorExpressions.build(Expression.newBuilder().setType(INT64).setColumn(9).build(), TYPES)).isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.LESS, BOOLEAN, column(3), column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.PLUS, INT64, column(0), column(1)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.LIKE, BOOLEAN, column(3), column(3)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
        assertThatThrownBy(() -> VectorExpressions.build(call(ScalarFunction.EQUAL, INT64, column(0), column(0)), TYPES))
                .isInstanceOf(UnsupportedExpressionException.class);
    }
}
