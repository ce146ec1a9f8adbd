package io.duetdb.common.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.common.compute.ValueTypes;
import io.duetdb.common.compute.expression.ColumnReference;
import io.duetdb.common.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Partial aggregation over several batches against a row-at-a-time reference. */
class PartialAggregationOperatorTest {
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType PRICE = ValueTypes.decimal(38, 2);
    private static final FieldType DOUBLE = ValueTypes.of(ValueType.FLOAT64);
    private static final FieldType SUM = ValueTypes.decimal(65, 2);
    private static final FieldType WIDE_PRICE = ValueTypes.decimal(40, 2);
    private static final List<FieldType> TYPES = List.of(STRING, INT64, PRICE, DOUBLE, WIDE_PRICE);

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(7);

    @AfterEach
    void close() {
        allocator.close();
    }

    private List<Object[]> rows(int count) {
        String[] flags = {"A", "N", "R", "", "é"};
        BigDecimal huge = new BigDecimal(BigInteger.TEN.pow(30), 2);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BigDecimal price = switch (random.nextInt(20)) {
                case 0 -> null;
                case 1 -> huge.negate();
                case 2 -> new BigDecimal(Long.MAX_VALUE - random.nextInt(1000)).movePointLeft(2);
                default -> BigDecimal.valueOf(random.nextInt(10_000_000) - 1_000_000, 2);
            };
            rows.add(new Object[] {random.nextInt(15) == 0 ? null : flags[random.nextInt(flags.length)],
                random.nextInt(15) == 0 ? null : (long) random.nextInt(3), price,
                random.nextInt(10) == 0 ? null : random.nextDouble() * 1000, price});
        }
        return rows;
    }

    private static PartialAggregationOperator.Call call(AggregateFunction function, int column, FieldType type) {
        VectorExpression argument = column < 0 ? null : new ColumnReference(column, TYPES.get(column));
        return new PartialAggregationOperator.Call(function, argument, type);
    }

    private List<PartialAggregationOperator.Call> calls() {
        return List.of(call(AggregateFunction.COUNT, -1, INT64), call(AggregateFunction.COUNT, 2, INT64),
                call(AggregateFunction.SUM, 2, SUM), call(AggregateFunction.SUM, 1, ValueTypes.decimal(65, 0)),
                call(AggregateFunction.SUM, 3, DOUBLE), call(AggregateFunction.MIN, 2, PRICE),
                call(AggregateFunction.MAX, 0, STRING), call(AggregateFunction.SUM, 4, SUM));
    }

    /** The reference: groups in order of first appearance, each call computed on Java values. */
    private static List<List<Object>> reference(List<Object[]> rows, int[] keys) {
        Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
        for (Object[] row : rows) {
            List<Object> key = new ArrayList<>();
            for (int k : keys) {
                key.add(row[k]);
            }
            Object[] state = groups.computeIfAbsent(key, k -> new Object[] {0L, 0L, null, null, null, null, null, null});
            state[0] = (Long) state[0] + 1;
            if (row[2] != null) {
                state[1] = (Long) state[1] + 1;
                state[2] = state[2] == null ? row[2] : ((BigDecimal) state[2]).add((BigDecimal) row[2]);
                state[5] = state[5] == null || ((BigDecimal) row[2]).compareTo((BigDecimal) state[5]) < 0 ? row[2] : state[5];
            }
            state[7] = state[2];
            if (row[1] != null) {
                state[3] = state[3] == null ? BigDecimal.valueOf((Long) row[1])
                        : ((BigDecimal) state[3]).add(BigDecimal.valueOf((Long) row[1]));
            }
            if (row[3] != null) {
                state[4] = (state[4] == null ? 0.0 : (Double) state[4]) + (Double) row[3];
            }
            if (row[0] != null && (state[6] == null || ((String) row[0]).compareTo((String) state[6]) > 0)) {
                state[6] = row[0];
            }
        }
        if (groups.isEmpty() && keys.length == 0) {
            groups.put(List.of(), new Object[] {0L, 0L, null, null, null, null, null, null});
        }
        List<List<Object>> result = new ArrayList<>();
        groups.forEach((key, state) -> {
            List<Object> row = new ArrayList<>(key);
            for (int i = 0; i < state.length; i++) {
                Object value = state[i];
                row.add(value instanceof BigDecimal decimal ? decimal.setScale(i == 3 ? 0 : 2) : value);
            }
            result.add(row);
        });
        return result;
    }

    private List<List<Object>> aggregate(List<Object[]> rows, int[] keys, int batchRows) {
        List<VectorExpression> groupBy = Arrays.stream(keys).mapToObj(k -> (VectorExpression) new ColumnReference(k,
                TYPES.get(k))).toList();
        List<List<Object>> result = new ArrayList<>();
        try (PartialAggregationOperator operator = new PartialAggregationOperator(new RowBatches(rows, batchRows),
                groupBy, calls(), allocator, 1024)) {
            VectorSchemaRoot batch;
            while ((batch = operator.next()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    result.add(Arrays.asList(Batches.row(batch, row)));
                }
            }
        }
        return result;
    }

    @Test
    void groupsByStringsAndIntegersWithNulls() {
        List<Object[]> rows = rows(5000);
        assertThat(aggregate(rows, new int[] {0, 1}, 333)).containsExactlyElementsOf(reference(rows, new int[] {0, 1}));
    }

    @Test
    void groupsManyDistinctKeys() {
        List<Object[]> rows = rows(3000);
        for (int i = 0; i < rows.size(); i++) {
            rows.get(i)[1] = (long) (i % 1500);
        }
        assertThat(aggregate(rows, new int[] {1}, 256)).containsExactlyElementsOf(reference(rows, new int[] {1}));
    }

    @Test
    void globalAggregatesGiveOneRowEvenWithoutInput() {
        List<Object[]> rows = rows(2000);
        assertThat(aggregate(rows, new int[0], 500)).containsExactlyElementsOf(reference(rows, new int[0]));
        assertThat(aggregate(List.of(), new int[0], 500)).containsExactlyElementsOf(reference(List.of(), new int[0]));
        assertThat(aggregate(List.of(), new int[] {0}, 500)).isEmpty();
    }

    /** Batches of the given rows, {@code batchRows} at a time. */
    private final class RowBatches implements BatchOperator {
        private final Iterator<List<Object[]>> parts;
        private VectorSchemaRoot current;

        RowBatches(List<Object[]> rows, int batchRows) {
            List<List<Object[]>> split = new ArrayList<>();
            for (int from = 0; from < rows.size(); from += batchRows) {
                split.add(rows.subList(from, Math.min(rows.size(), from + batchRows)));
            }
            this.parts = split.iterator();
        }

        @Override
        public List<FieldType> outputTypes() {
            return TYPES;
        }

        @Override
        public VectorSchemaRoot next() {
            close();
            current = parts.hasNext() ? Batches.ofRows(TYPES, parts.next(), allocator) : null;
            return current;
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }
}
