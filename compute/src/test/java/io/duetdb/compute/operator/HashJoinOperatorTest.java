package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.compute.expression.ComparisonExpression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/** Every kind of hash join over batches, built on either side, against a nested loop over Java values. */
class HashJoinOperatorTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    /** Both sides: a key, a string key, a value. */
    private static final List<FieldType> TYPES = List.of(INT64, STRING, INT64);

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(11);

    @AfterEach
    void close() {
        allocator.close();
    }

    private List<Object[]> rows(int count, int keys) {
        String[] names = {"a", "b", "", "é"};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {random.nextInt(10) == 0 ? null : (long) random.nextInt(keys),
                random.nextInt(8) == 0 ? null : names[random.nextInt(names.length)], (long) random.nextInt(100)});
        }
        return rows;
    }

    @Test
    void everyKindOfJoinMatchesANestedLoopWhicheverSideIsBuilt() {
        for (HashJoinOperator.Kind kind : HashJoinOperator.Kind.values()) {
            for (boolean smallLeft : new boolean[] {true, false}) {
                for (boolean withCondition : new boolean[] {false, true}) {
                    for (boolean nullSafeName : new boolean[] {false, true}) {
                        List<Object[]> left = rows(smallLeft ? 300 : 5_000, 200);
                        List<Object[]> right = rows(smallLeft ? 5_000 : 300, 200);
                        AtomicLong held = new AtomicLong();
                        // Without the NULL-safe name key, the number alone: the table of longs.
                        List<HashJoinOperator.Key> keys = nullSafeName ? List.of(
                                new HashJoinOperator.Key(new ColumnReference(0, INT64), new ColumnReference(0, INT64), false),
                                new HashJoinOperator.Key(new ColumnReference(1, STRING), new ColumnReference(1, STRING),
                                        true))
                                : List.of(new HashJoinOperator.Key(new ColumnReference(0, INT64), new ColumnReference(0, INT64),
                                        false));
                        // left.value < right.value, over the pair's columns.
                        var condition = withCondition ? new ComparisonExpression(ScalarFunction.LESS,
                                new ColumnReference(2, INT64), new ColumnReference(5, INT64)) : null;
                        List<String> actual = new ArrayList<>();
                        // Only the columns the condition reads are gathered for candidate pairs.
                        java.util.BitSet conditionColumns = new java.util.BitSet();
                        conditionColumns.set(2);
                        conditionColumns.set(5);
                        try (HashJoinOperator join = new HashJoinOperator(RowListOperator.of(TYPES, left, 128, allocator),
                                RowListOperator.of(TYPES, right, 128, allocator), kind, keys, condition,
                                nullSafeName ? conditionColumns : null, allocator, held::addAndGet)) {
                            for (VectorSchemaRoot batch = join.next(); batch != null; batch = join.next()) {
                                assertThat(batch.getRowCount()).isPositive();
                                for (int row = 0; row < batch.getRowCount(); row++) {
                                    actual.add(Arrays.toString(Batches.row(batch, row)));
                                }
                            }
                            assertThat(join.builtOnLeft()).as("the smaller input is built").isEqualTo(smallLeft);
                            assertThat(held.get()).isPositive();
                        }
                        assertThat(held.get()).as("everything held is given back").isZero();
                        List<String> expected = nestedLoop(kind, left, right, withCondition, nullSafeName);
                        actual.sort(null);
                        expected.sort(null);
                        assertThat(actual).as(kind + " small left " + smallLeft + " condition " + withCondition
                                + " null-safe " + nullSafeName).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void withoutKeysEveryPairIsACandidateAndABatchOfManyPairsComesOutInParts() {
        // 400 x 700 rows: a probe batch of 500 rows has up to 200,000 candidate pairs, more than one part holds.
        for (HashJoinOperator.Kind kind : HashJoinOperator.Kind.values()) {
            for (boolean withCondition : new boolean[] {false, true}) {
                List<Object[]> left = rows(400, 10);
                List<Object[]> right = rows(700, 10);
                var condition = withCondition ? new ComparisonExpression(ScalarFunction.LESS,
                        new ColumnReference(2, INT64), new ColumnReference(5, INT64)) : null;
                List<String> actual = new ArrayList<>();
                int largest = 0;
                AtomicLong held = new AtomicLong();
                try (HashJoinOperator join = new HashJoinOperator(RowListOperator.of(TYPES, left, 500, allocator),
                        RowListOperator.of(TYPES, right, 500, allocator), kind, List.of(), condition, allocator,
                        held::addAndGet)) {
                    for (VectorSchemaRoot batch = join.next(); batch != null; batch = join.next()) {
                        largest = Math.max(largest, batch.getRowCount());
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            actual.add(Arrays.toString(Batches.row(batch, row)));
                        }
                    }
                }
                assertThat(held.get()).isZero();
                List<String> expected = nestedLoop(kind, left, right, withCondition, false, true);
                actual.sort(null);
                expected.sort(null);
                assertThat(actual).as(kind + " condition " + withCondition).isEqualTo(expected);
                assertThat(largest).as("rows in one batch out").isLessThanOrEqualTo(HashJoinOperator.PROBE_PAIRS + 700);
            }
        }
    }

    @Test
    void keysOfDifferentTypesAreRefused() {
        assertThatThrownBy(() -> new HashJoinOperator.Key(new ColumnReference(0, INT64),
                new ColumnReference(0, ValueTypes.decimal(10, 2)), false))
                .isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void anEmptyInputJoinsAsSqlSays() {
        List<Object[]> left = rows(50, 10);
        for (HashJoinOperator.Kind kind : HashJoinOperator.Kind.values()) {
            List<String> actual = new ArrayList<>();
            List<HashJoinOperator.Key> keys = List.of(
                    new HashJoinOperator.Key(new ColumnReference(0, INT64), new ColumnReference(0, INT64), false));
            try (HashJoinOperator join = new HashJoinOperator(RowListOperator.of(TYPES, left, 16, allocator), RowListOperator.of(TYPES, List.of(), 16, allocator), kind,
                    keys, null, allocator, bytes -> { })) {
                for (VectorSchemaRoot batch = join.next(); batch != null; batch = join.next()) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        actual.add(Arrays.toString(Batches.row(batch, row)));
                    }
                }
            }
            List<String> expected = nestedLoop(kind, left, List.of(), false, false);
            actual.sort(null);
            expected.sort(null);
            assertThat(actual).as(kind.toString()).isEqualTo(expected);
        }
    }

    private static List<String> nestedLoop(HashJoinOperator.Kind kind, List<Object[]> left, List<Object[]> right,
            boolean withCondition, boolean nullSafeName) {
        return nestedLoop(kind, left, right, withCondition, nullSafeName, false);
    }

    private static List<String> nestedLoop(HashJoinOperator.Kind kind, List<Object[]> left, List<Object[]> right,
            boolean withCondition, boolean nullSafeName, boolean keyless) {
        List<String> rows = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        for (Object[] l : left) {
            boolean matched = false;
            for (int r = 0; r < right.size(); r++) {
                Object[] candidate = right.get(r);
                boolean keysEqual = keyless || l[0] != null && l[0].equals(candidate[0])
                        && (!nullSafeName || Objects.equals(l[1], candidate[1]));
                if (!keysEqual || withCondition && (Long) l[2] >= (Long) candidate[2]) {
                    continue;
                }
                matched = true;
                rightMatched[r] = true;
                if (kind != HashJoinOperator.Kind.SEMI && kind != HashJoinOperator.Kind.ANTI) {
                    rows.add(Arrays.toString(concat(l, candidate)));
                }
            }
            switch (kind) {
                case SEMI -> {
                    if (matched) {
                        rows.add(Arrays.toString(l));
                    }
                }
                case ANTI -> {
                    if (!matched) {
                        rows.add(Arrays.toString(l));
                    }
                }
                case LEFT, FULL -> {
                    if (!matched) {
                        rows.add(Arrays.toString(concat(l, null)));
                    }
                }
                default -> {
                }
            }
        }
        if (kind == HashJoinOperator.Kind.RIGHT || kind == HashJoinOperator.Kind.FULL) {
            for (int r = 0; r < right.size(); r++) {
                if (!rightMatched[r]) {
                    rows.add(Arrays.toString(concat(null, right.get(r))));
                }
            }
        }
        return rows;
    }

    private static Object[] concat(Object[] left, Object[] right) {
        Object[] pair = new Object[6];
        if (left != null) {
            System.arraycopy(left, 0, pair, 0, 3);
        }
        if (right != null) {
            System.arraycopy(right, 0, pair, 3, 3);
        }
        return pair;
    }
}
