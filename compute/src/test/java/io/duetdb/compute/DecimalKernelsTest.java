package io.duetdb.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.compute.operator.Batches;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/** The decimal kernels' long arithmetic against BigDecimal, on values that fit a long and values that do not. */
class DecimalKernelsTest {
    private static final FieldType PRICE = ValueTypes.decimal(15, 2);
    private static final FieldType RATE = ValueTypes.decimal(5, 4);
    private static final FieldType WIDE = ValueTypes.decimal(38, 3);
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);
    private static final FieldType HUGE = ValueTypes.decimal(60, 4);
    private static final List<FieldType> TYPES = List.of(PRICE, RATE, WIDE, INT64, HUGE);
    private static final ScalarFunction[] ARITHMETIC = {ScalarFunction.PLUS, ScalarFunction.MINUS,
        ScalarFunction.MULTIPLY};
    private static final ScalarFunction[] COMPARISONS = {ScalarFunction.EQUAL, ScalarFunction.LESS,
        ScalarFunction.GREATER_OR_EQUAL};

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(42);

    @AfterEach
    void close() {
        allocator.close();
    }

    private BigDecimal decimal(FieldType type) {
        int digits = 1 + random.nextInt(type.getPrecision());
        BigInteger unscaled = new BigInteger(digits * 10 / 3, random).mod(BigInteger.TEN.pow(digits));
        return new BigDecimal(random.nextBoolean() ? unscaled.negate() : unscaled, type.getScale());
    }

    private List<Object[]> rows(int count) {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {null, null, null, null, null});
        rows.add(new Object[] {new BigDecimal("0.00"), new BigDecimal("0.0000"), new BigDecimal("0.000"), 0L,
            new BigDecimal("0.0000")});
        rows.add(new Object[] {new BigDecimal("9999999999999.99"), new BigDecimal("-0.9999"),
            new BigDecimal("99999999999999999999999999999999999.999"), Long.MAX_VALUE,
            new BigDecimal("-922337203685477.5808")});
        rows.add(new Object[] {new BigDecimal("-9999999999999.99"), new BigDecimal("0.0001"),
            new BigDecimal("-9223372036854775.808"), Long.MIN_VALUE, new BigDecimal("922337203685477.5807")});
        for (int i = rows.size(); i < count; i++) {
            rows.add(new Object[] {decimal(PRICE), decimal(RATE), decimal(WIDE), random.nextLong() >> random.nextInt(64),
                decimal(HUGE)});
        }
        return rows;
    }

    private static Expression column(int index) {
        return Expression.newBuilder().setType(TYPES.get(index)).setColumn(index).build();
    }

    private static Expression call(ScalarFunction function, FieldType type, Expression... arguments) {
        return Expression.newBuilder().setType(type).setCall(Call.newBuilder().setFunction(function)
                .addAllArguments(List.of(arguments))).build();
    }

    private static BigDecimal exact(Object value) {
        return value instanceof Long number ? BigDecimal.valueOf(number) : (BigDecimal) value;
    }

    /** What MySQL answers: the exact result rounded half up to the type's scale, or error 1690 beyond its digits. */
    private static Object expected(ScalarFunction function, Object x, Object y, FieldType type) {
        if (x == null || y == null) {
            return null;
        }
        BigDecimal value = switch (function) {
            case PLUS -> exact(x).add(exact(y));
            case MINUS -> exact(x).subtract(exact(y));
            default -> exact(x).multiply(exact(y));
        };
        if (value.precision() - value.scale() > type.getPrecision() - type.getScale()) {
            return DuetException.class;
        }
        return value.setScale(type.getScale(), RoundingMode.HALF_UP);
    }

    @Test
    void arithmeticMatchesBigDecimalWhetherOrNotValuesFitLongs() {
        List<Object[]> rows = rows(400);
        FieldType[] resultTypes = {ValueTypes.decimal(18, 2), ValueTypes.decimal(20, 4), ValueTypes.decimal(38, 6),
            ValueTypes.decimal(17, 1), ValueTypes.decimal(38, 0), ValueTypes.decimal(65, 6), ValueTypes.decimal(65, 2)};
        int[][] pairs = {{0, 1}, {1, 0}, {0, 2}, {2, 1}, {0, 3}, {3, 1}, {0, 0}, {2, 2}, {4, 1}, {0, 4}, {4, 4}};
        try (VectorSchemaRoot batch = Batches.ofRows(TYPES, rows, allocator)) {
            for (ScalarFunction function : ARITHMETIC) {
                for (FieldType type : resultTypes) {
                    for (int[] pair : pairs) {
                        checkArithmetic(batch, rows, function, type, pair[0], pair[1]);
                    }
                }
            }
        }
    }

    private void checkArithmetic(VectorSchemaRoot batch, List<Object[]> rows, ScalarFunction function, FieldType type,
            int left, int right) {
        Expression expression = call(function, type, column(left), column(right));
        List<Object> expected = new ArrayList<>();
        for (Object[] row : rows) {
            expected.add(expected(function, row[left], row[right], type));
        }
        if (expected.contains(DuetException.class)) {
            // The kernel stops at the first value out of range, as MySQL does: check the rows before it.
            int bad = expected.indexOf(DuetException.class);
            assertThatThrownBy(() -> VectorExpressions.build(expression, TYPES).evaluate(batch, allocator).close())
                    .isInstanceOf(DuetException.class);
            try (VectorSchemaRoot prefix = Batches.ofRows(TYPES, rows.subList(0, bad), allocator)) {
                assertThat(values(expression, prefix)).containsExactlyElementsOf(expected.subList(0, bad));
            }
            return;
        }
        assertThat(values(expression, batch)).as(function + " " + type + " " + left + "," + right)
                .containsExactlyElementsOf(expected);
    }

    private List<Object> values(Expression expression, VectorSchemaRoot batch) {
        try (FieldVector result = VectorExpressions.build(expression, TYPES).evaluate(batch, allocator)) {
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < batch.getRowCount(); row++) {
                values.add(VectorValues.get(result, row));
            }
            return values;
        }
    }

    @Test
    void comparisonsMatchBigDecimalAcrossScales() {
        List<Object[]> rows = rows(400);
        int[][] pairs = {{0, 1}, {1, 0}, {0, 2}, {2, 1}, {0, 3}, {3, 2}, {0, 0}, {4, 0}, {2, 4}};
        try (VectorSchemaRoot batch = Batches.ofRows(TYPES, rows, allocator)) {
            for (ScalarFunction function : COMPARISONS) {
                for (int[] pair : pairs) {
                    List<Object> expected = new ArrayList<>();
                    for (Object[] row : rows) {
                        Object x = row[pair[0]];
                        Object y = row[pair[1]];
                        if (x == null || y == null) {
                            expected.add(null);
                            continue;
                        }
                        int comparison = exact(x).compareTo(exact(y));
                        expected.add(switch (function) {
                            case EQUAL -> comparison == 0;
                            case LESS -> comparison < 0;
                            default -> comparison >= 0;
                        });
                    }
                    assertThat(values(call(function, BOOLEAN, column(pair[0]), column(pair[1])), batch))
                            .as(function + " " + pair[0] + "," + pair[1]).containsExactlyElementsOf(expected);
                }
            }
        }
    }

    @Test
    void roundingThatCarriesBeyondTheTypeIsReported() {
        // 9.995 * 1.0000 rounds to 10.00, which DECIMAL(3,2) cannot hold.
        List<FieldType> types = List.of(ValueTypes.decimal(4, 3), ValueTypes.decimal(5, 4));
        List<Object[]> rows = List.<Object[]>of(new Object[] {new BigDecimal("9.995"), new BigDecimal("1.0000")});
        Expression product = Expression.newBuilder().setType(ValueTypes.decimal(3, 2)).setCall(Call.newBuilder()
                .setFunction(ScalarFunction.MULTIPLY)
                .addArguments(Expression.newBuilder().setType(types.get(0)).setColumn(0))
                .addArguments(Expression.newBuilder().setType(types.get(1)).setColumn(1))).build();
        try (VectorSchemaRoot batch = Batches.ofRows(types, rows, allocator)) {
            assertThatThrownBy(() -> VectorExpressions.build(product, types).evaluate(batch, allocator).close())
                    .isInstanceOf(RuntimeException.class);
        }
    }
}
