package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.compute.expression.VectorExpression;
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
        try (PartialAggregationOperator operator = new PartialAggregationOperator(RowListOperator.of(TYPES, rows, batchRows, allocator),
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

    /**
     * Three regions' partial results merged by a {@link HashAggregation} over their batches, as the SQL layer's
     * final merge does: counts and sums add up, minimums and maximums stay; the same as aggregating all rows at once.
     */
    @Test
    void partialResultsOfSeveralRegionsMergeIntoTheWholeAggregation() {
        List<Object[]> rows = rows(6000);
        int[] keys = {0, 1};
        List<FieldType> partialTypes = new ArrayList<>(List.of(STRING, INT64));
        calls().forEach(call -> partialTypes.add(call.type()));
        List<VectorExpression> groupBy = List.of(new ColumnReference(0, STRING), new ColumnReference(1, INT64));
        List<PartialAggregationOperator.Call> merges = new ArrayList<>();
        for (int c = 0; c < calls().size(); c++) {
            PartialAggregationOperator.Call call = calls().get(c);
            ColumnReference partial = new ColumnReference(keys.length + c, call.type());
            merges.add(switch (call.function()) {
                case COUNT -> new PartialAggregationOperator.Call(AggregateFunction.SUM, partial, ValueTypes.decimal(65, 0));
                case SUM, MIN, MAX -> new PartialAggregationOperator.Call(call.function(), partial, call.type());
                default -> throw new IllegalStateException(call.function().name());
            });
        }
        HashAggregation merged = new HashAggregation(groupBy, merges);
        for (int region = 0; region < 3; region++) {
            List<Object[]> regionRows = rows.subList(region * 2000, (region + 1) * 2000);
            try (PartialAggregationOperator operator = new PartialAggregationOperator(RowListOperator.of(TYPES, regionRows, 300, allocator),
                    groupBy, calls(), allocator, 128)) {
                VectorSchemaRoot batch;
                while ((batch = operator.next()) != null) {
                    merged.add(batch, allocator);
                }
            }
        }
        List<List<Object>> result = new ArrayList<>();
        for (Object[] group : merged.results()) {
            List<Object> row = new ArrayList<>(Arrays.asList(group));
            for (int c = 0; c < 2; c++) {
                // The counts were summed as decimals; the SQL layer turns them back into longs.
                row.set(keys.length + c, ((BigDecimal) row.get(keys.length + c)).longValueExact());
            }
            result.add(roundDoubles(row));
        }
        assertThat(result).containsExactlyInAnyOrderElementsOf(reference(rows, keys).stream()
                .map(PartialAggregationOperatorTest::roundDoubles).toList());
        assertThat(merged.estimatedBytes()).isPositive();
    }

    /** Stream aggregation's partial rows, merged by key as the SQL layer merges partial results. */
    private List<List<Object>> streamAggregate(List<Object[]> rows, int[] keys, int batchRows, int[] partialRows) {
        List<VectorExpression> groupBy = Arrays.stream(keys).mapToObj(k -> (VectorExpression) new ColumnReference(k,
                TYPES.get(k))).toList();
        Map<List<Object>, List<Object>> merged = new LinkedHashMap<>();
        try (StreamAggregationOperator operator = new StreamAggregationOperator(RowListOperator.of(TYPES, rows, batchRows, allocator), groupBy,
                calls(), allocator)) {
            VectorSchemaRoot batch;
            while ((batch = operator.next()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    partialRows[0]++;
                    List<Object> values = Arrays.asList(Batches.row(batch, row));
                    List<Object> key = values.subList(0, keys.length);
                    merged.merge(key, new ArrayList<>(values), (a, b) -> mergePartials(a, b, keys.length));
                }
            }
        }
        return merged.values().stream().map(PartialAggregationOperatorTest::roundDoubles).toList();
    }

    /** COUNT and SUM add up (a NULL sum summed nothing), MIN and MAX keep the extreme. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<Object> mergePartials(List<Object> a, List<Object> b, int keyCount) {
        List<Object> result = new ArrayList<>(a);
        for (int i = keyCount; i < a.size(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int call = i - keyCount;
            Object value;
            if (x == null || y == null) {
                value = x == null ? y : x;
            } else if (call == 5) {
                value = ((Comparable) x).compareTo(y) <= 0 ? x : y;
            } else if (call == 6) {
                value = ((Comparable) x).compareTo(y) >= 0 ? x : y;
            } else if (x instanceof Long l) {
                value = l + (Long) y;
            } else if (x instanceof Double d) {
                value = d + (Double) y;
            } else {
                value = ((BigDecimal) x).add((BigDecimal) y);
            }
            result.set(i, value);
        }
        return result;
    }

    private static List<Object> roundDoubles(List<Object> row) {
        return row.stream().map(value -> value instanceof Double d ? (Object) (Math.round(d * 1e6) / 1e6) : value).toList();
    }

    @Test
    void streamAggregationOfOrderedInputFindsGroupsWithoutAHashTable() {
        List<Object[]> rows = rows(5000);
        List<List<Object>> expected = reference(rows, new int[] {1, 0}).stream()
                .map(PartialAggregationOperatorTest::roundDoubles).toList();
        // Ordered by the keys (NULLs first), as an index scan gives them.
        java.util.Comparator<Object[]> order = java.util.Comparator.<Object[], Long>comparing(row -> (Long) row[1],
                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
                .thenComparing(row -> (String) row[0], java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(order);
        int[] partialRows = {0};
        assertThat(streamAggregate(sorted, new int[] {1, 0}, 333, partialRows)).containsExactlyInAnyOrderElementsOf(expected);
        // One partial row per group, plus one for each group a batch boundary cut.
        assertThat(partialRows[0]).isBetween(expected.size(), expected.size() + (5000 + 332) / 333);
        // Unordered input is still aggregated right, in more partial rows.
        int[] unorderedRows = {0};
        assertThat(streamAggregate(rows, new int[] {1, 0}, 333, unorderedRows)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(unorderedRows[0]).isGreaterThan(partialRows[0] * 10);
    }

    @Test
    void streamAggregationNeedsGroupByKeys() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new StreamAggregationOperator(RowListOperator.of(TYPES, List.of(), 10, allocator),
                List.of(), calls(), allocator)).isInstanceOf(io.duetdb.compute.UnsupportedExpressionException.class);
    }
}
