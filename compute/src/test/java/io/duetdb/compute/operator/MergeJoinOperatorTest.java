package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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

/** Merge joins of ascending inputs against a join of Java values, in the left input's order. */
class MergeJoinOperatorTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    /** Both sides: a key, a string, a value. */
    private static final List<FieldType> TYPES = List.of(INT64, STRING, INT64);

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(17);

    @AfterEach
    void close() {
        allocator.close();
    }

    /** Rows ascending by key (NULL keys first), each key repeated up to {@code repeats} times, some keys skipped. */
    private List<Object[]> ascending(int count, int repeats, int skipEvery) {
        String[] names = {"a", "b", "", "é"};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Long key = random.nextInt(20) == 0 ? null : (long) random.nextInt(count / Math.max(1, repeats) + 1);
            if (key != null && skipEvery > 0 && key % skipEvery == 0) {
                key = key + 1;
            }
            rows.add(new Object[] {key, random.nextInt(8) == 0 ? null : names[random.nextInt(names.length)],
                (long) random.nextInt(100)});
        }
        rows.sort(Comparator.comparing((Object[] row) -> (Long) row[0], Comparator.nullsFirst(Comparator.naturalOrder())));
        return rows;
    }

    @Test
    void everyKindMatchesANestedLoopInTheLeftOrder() {
        for (MergeJoinOperator.Kind kind : MergeJoinOperator.Kind.values()) {
            for (boolean withCondition : new boolean[] {false, true}) {
                for (int[] shape : new int[][] {{3_000, 1, 5_000, 3}, {5_000, 4, 700, 1}, {2_000, 2, 2_000, 2}}) {
                    List<Object[]> left = ascending(shape[0], shape[1], 7);
                    List<Object[]> right = ascending(shape[2], shape[3], 5);
                    List<String> actual = join(kind, left, right, withCondition, 97, 61);
                    assertThat(actual).as(kind + " condition " + withCondition + " " + Arrays.toString(shape))
                            .isEqualTo(nestedLoop(kind, left, right, withCondition));
                }
            }
        }
    }

    @Test
    void aLongRunOfOneKeyComesOutInPartsAndTheWindowDropsWhatItPassed() {
        // 600 left rows and 400 right rows of key 7: 240,000 pairs, more than one batch out holds; then many keys
        // of one row each, so the window drops the rows it passed many times over.
        List<Object[]> left = new ArrayList<>();
        List<Object[]> right = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            left.add(new Object[] {7L, "l", (long) i});
        }
        for (int i = 0; i < 400; i++) {
            right.add(new Object[] {7L, "r", (long) i});
        }
        for (long key = 8; key < 60_000; key++) {
            if (key % 3 == 0) {
                left.add(new Object[] {key, "l", key});
            }
            right.add(new Object[] {key, "r", key});
        }
        for (MergeJoinOperator.Kind kind : MergeJoinOperator.Kind.values()) {
            AtomicLong held = new AtomicLong();
            AtomicLong most = new AtomicLong();
            int largest = 0;
            List<String> actual = new ArrayList<>();
            try (MergeJoinOperator join = new MergeJoinOperator(RowListOperator.of(TYPES, left, 1_000, allocator),
                    RowListOperator.of(TYPES, right, 1_000, allocator), kind, 0, 0, null, null, allocator,
                    bytes -> most.accumulateAndGet(held.addAndGet(bytes), Math::max))) {
                for (VectorSchemaRoot batch = join.next(); batch != null; batch = join.next()) {
                    largest = Math.max(largest, batch.getRowCount());
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        actual.add(Arrays.toString(Batches.row(batch, row)));
                    }
                }
            }
            assertThat(actual).as(kind.toString()).isEqualTo(nestedLoop(kind, left, right, false));
            assertThat(held.get()).as("everything held is given back").isZero();
            assertThat(largest).as("rows in one batch out").isLessThanOrEqualTo(MergeJoinOperator.PAIRS + 400);
            // The window holds a few thousand of the right side's 60,000 rows at most.
            try (VectorSchemaRoot whole = Batches.ofRows(TYPES, right, allocator)) {
                assertThat(most.get()).as("bytes the window held").isPositive()
                        .isLessThan(AppendedBatch.bytes(whole) / 2);
            }
        }
    }

    @Test
    void anInputOutOfOrderFailsTheJoin() {
        List<Object[]> left = new ArrayList<>(List.of(new Object[] {1L, "a", 1L}, new Object[] {3L, "a", 1L},
                new Object[] {2L, "a", 1L}));
        List<Object[]> right = List.of(new Object[] {1L, "a", 1L}, new Object[] {2L, "a", 1L}, new Object[] {3L, "a", 1L},
                new Object[] {4L, "a", 1L});
        assertThatThrownBy(() -> join(MergeJoinOperator.Kind.INNER, left, right, false, 2, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("left input is not ascending");
        assertThatThrownBy(() -> join(MergeJoinOperator.Kind.INNER, right, left, false, 2, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("right input is not ascending");
    }

    @Test
    void keysThatAreNotWholeNumbersAreRefused() {
        assertThatThrownBy(() -> new MergeJoinOperator(RowListOperator.of(TYPES, List.of(), 8, allocator),
                RowListOperator.of(TYPES, List.of(), 8, allocator), MergeJoinOperator.Kind.INNER, 1, 1, null, null,
                allocator, bytes -> { })).isInstanceOf(UnsupportedExpressionException.class);
    }

    @Test
    void anEmptyInputJoinsAsSqlSays() {
        List<Object[]> rows = ascending(300, 2, 0);
        for (MergeJoinOperator.Kind kind : MergeJoinOperator.Kind.values()) {
            assertThat(join(kind, rows, List.of(), true, 64, 64)).isEqualTo(nestedLoop(kind, rows, List.of(), true));
            assertThat(join(kind, List.of(), rows, true, 64, 64)).isEmpty();
        }
    }

    private List<String> join(MergeJoinOperator.Kind kind, List<Object[]> left, List<Object[]> right,
            boolean withCondition, int leftBatchRows, int rightBatchRows) {
        // left.value < right.value, over the pair's columns: only those two are gathered for candidates.
        var condition = withCondition ? new ComparisonExpression(ScalarFunction.LESS, new ColumnReference(2, INT64),
                new ColumnReference(5, INT64)) : null;
        java.util.BitSet conditionColumns = new java.util.BitSet();
        conditionColumns.set(2);
        conditionColumns.set(5);
        List<String> actual = new ArrayList<>();
        AtomicLong held = new AtomicLong();
        try (MergeJoinOperator join = new MergeJoinOperator(RowListOperator.of(TYPES, left, leftBatchRows, allocator),
                RowListOperator.of(TYPES, right, rightBatchRows, allocator), kind, 0, 0, condition,
                conditionColumns, allocator, held::addAndGet)) {
            for (VectorSchemaRoot batch = join.next(); batch != null; batch = join.next()) {
                assertThat(batch.getRowCount()).isPositive();
                for (int row = 0; row < batch.getRowCount(); row++) {
                    actual.add(Arrays.toString(Batches.row(batch, row)));
                }
            }
        }
        assertThat(held.get()).as("everything held is given back").isZero();
        return actual;
    }

    /** The expected rows: for each left row, the right rows of its key (found through a map) in their order. */
    private static List<String> nestedLoop(MergeJoinOperator.Kind kind, List<Object[]> left, List<Object[]> right,
            boolean withCondition) {
        java.util.Map<Object, List<Object[]>> byKey = new java.util.HashMap<>();
        for (Object[] r : right) {
            if (r[0] != null) {
                byKey.computeIfAbsent(r[0], key -> new ArrayList<>()).add(r);
            }
        }
        List<String> rows = new ArrayList<>();
        for (Object[] l : left) {
            boolean matched = false;
            for (Object[] r : l[0] == null ? List.<Object[]>of() : byKey.getOrDefault(l[0], List.of())) {
                if (withCondition && (Long) l[2] >= (Long) r[2]) {
                    continue;
                }
                matched = true;
                if (kind != MergeJoinOperator.Kind.SEMI) {
                    rows.add(Arrays.toString(concat(l, r)));
                }
            }
            if (kind == MergeJoinOperator.Kind.SEMI && matched) {
                rows.add(Arrays.toString(l));
            } else if (kind == MergeJoinOperator.Kind.LEFT && !matched) {
                rows.add(Arrays.toString(concat(l, null)));
            }
        }
        return rows;
    }

    private static Object[] concat(Object[] left, Object[] right) {
        Object[] row = Arrays.copyOf(left, left.length + 3);
        if (right != null) {
            System.arraycopy(right, 0, row, left.length, 3);
        }
        return row;
    }
}
