package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueOrdering;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Sorts and top Ns over batches against a sort of Java values by {@link ValueOrdering}. */
class SortOperatorTest {
    private static final List<FieldType> TYPES = List.of(ValueTypes.of(ValueType.INT64),
            ValueTypes.of(ValueType.STRING), ValueTypes.decimal(12, 2), ValueTypes.of(ValueType.FLOAT64),
            ValueTypes.of(ValueType.DATE), ValueTypes.of(ValueType.UINT64), ValueTypes.of(ValueType.BOOLEAN),
            ValueTypes.of(ValueType.INT64));

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(5);

    @AfterEach
    void close() {
        allocator.close();
    }

    /** Few distinct values per column, so that later keys decide ties; the last column numbers the rows. */
    private List<Object[]> rows(int count) {
        String[] strings = {"a", "B", "", "é", "ab", "abcdefghij", "abcdefghik", "\uD83D\uDE00", "z"};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {
                nullOr((long) random.nextInt(7) - 3),
                nullOr(strings[random.nextInt(strings.length)]),
                nullOr(BigDecimal.valueOf(random.nextInt(2_000_001) - 1_000_000, 2)),
                nullOr(random.nextInt(5) - 2.5),
                nullOr((long) random.nextInt(4) - 1),
                nullOr(random.nextBoolean() ? -1L : (long) random.nextInt(3)),
                nullOr(random.nextBoolean()),
                (long) i});
        }
        return rows;
    }

    private Object nullOr(Object value) {
        return random.nextInt(6) == 0 ? null : value;
    }

    private static Comparator<Object[]> expectedOrder(List<SortOperator.Key> keys) {
        return (a, b) -> {
            for (SortOperator.Key key : keys) {
                Object x = a[key.column()];
                Object y = b[key.column()];
                int result = x == null || y == null ? (x == y ? 0 : x == null ? -1 : 1)
                        : ValueOrdering.compare(x, y, TYPES.get(key.column()).getType());
                result = key.descending() ? -result : result;
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    private List<Object[]> sorted(List<Object[]> rows, List<SortOperator.Key> keys, long offset, long fetch,
            AtomicLong held) {
        List<Object[]> result = new ArrayList<>();
        try (SortOperator sort = new SortOperator(RowListOperator.of(TYPES, rows, 1_000, allocator), keys, offset, fetch,
                allocator, 700, held::addAndGet)) {
            for (VectorSchemaRoot batch = sort.next(); batch != null; batch = sort.next()) {
                assertThat(batch.getRowCount()).isBetween(1, 700);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    result.add(Batches.row(batch, row));
                }
            }
        }
        return result;
    }

    private static List<List<Object>> lists(List<Object[]> rows) {
        return rows.stream().map(Arrays::asList).toList();
    }

    @Test
    void everyColumnTypeSortsAsTheSqlLayerOrdersValuesWithNullsFirstAscending() {
        List<Object[]> rows = rows(20_000);
        for (int column = 0; column < TYPES.size() - 1; column++) {
            for (boolean descending : new boolean[] {false, true}) {
                // The row number last: a total order, so the comparison is exact.
                List<SortOperator.Key> keys = List.of(new SortOperator.Key(column, descending),
                        new SortOperator.Key(TYPES.size() - 1, false));
                List<Object[]> expected = new ArrayList<>(rows);
                expected.sort(expectedOrder(keys));
                AtomicLong held = new AtomicLong();
                List<Object[]> actual = sorted(rows, keys, 0, Long.MAX_VALUE, held);
                assertThat(lists(actual)).as("column %d descending %s", column, descending)
                        .containsExactlyElementsOf(lists(expected));
                assertThat(held).hasValue(0);
            }
        }
    }

    @Test
    void equalKeysKeepTheirInputOrder() {
        List<Object[]> rows = rows(5_000);
        List<SortOperator.Key> keys = List.of(new SortOperator.Key(1, true), new SortOperator.Key(0, false));
        List<Object[]> expected = new ArrayList<>(rows);
        expected.sort(expectedOrder(keys));
        assertThat(lists(sorted(rows, keys, 0, Long.MAX_VALUE, new AtomicLong())))
                .containsExactlyElementsOf(lists(expected));
    }

    @Test
    void aTopNWithAnOffsetHoldsLittleMoreThanItsRows() {
        List<Object[]> rows = rows(60_000);
        List<SortOperator.Key> keys = List.of(new SortOperator.Key(2, true), new SortOperator.Key(7, false));
        List<Object[]> expected = new ArrayList<>(rows);
        expected.sort(expectedOrder(keys));
        for (long[] window : new long[][] {{0, 10}, {5, 3}, {0, 0}, {100, 5_000}, {59_990, 100}, {70_000, 10}}) {
            AtomicLong held = new AtomicLong();
            AtomicLong most = new AtomicLong();
            List<Object[]> actual = new ArrayList<>();
            try (SortOperator sort = new SortOperator(RowListOperator.of(TYPES, rows, 1_000, allocator), keys, window[0],
                    window[1], allocator, 700, bytes -> most.accumulateAndGet(held.addAndGet(bytes), Math::max))) {
                for (VectorSchemaRoot batch = sort.next(); batch != null; batch = sort.next()) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        actual.add(Batches.row(batch, row));
                    }
                }
            }
            int from = (int) Math.min(window[0], rows.size());
            int to = (int) Math.min(window[0] + window[1], rows.size());
            assertThat(lists(actual)).as("offset %d fetch %d", window[0], window[1])
                    .containsExactlyElementsOf(lists(expected.subList(from, to)));
            assertThat(held).hasValue(0);
            if (window[0] + window[1] <= 100) {
                // Cut back to the best rows at 8,192 held: a fraction of the 60,000 rows' bytes.
                assertThat(most.get()).as("bytes held for offset %d fetch %d", window[0], window[1])
                        .isLessThan(2_000_000);
            }
        }
    }

    @Test
    void withoutKeysALimitReadsNoFurtherThanItNeeds() {
        List<Object[]> rows = rows(10_000);
        AtomicInteger batches = new AtomicInteger();
        List<List<Object[]>> parts = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += 1_000) {
            parts.add(rows.subList(from, from + 1_000));
        }
        var counted = parts.stream().peek(part -> batches.incrementAndGet()).iterator();
        List<Object[]> actual = new ArrayList<>();
        try (SortOperator sort = new SortOperator(new RowListOperator(TYPES, counted, allocator), List.of(), 1_500, 700,
                allocator, 700, bytes -> { })) {
            for (VectorSchemaRoot batch = sort.next(); batch != null; batch = sort.next()) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    actual.add(Batches.row(batch, row));
                }
            }
        }
        assertThat(lists(actual)).containsExactlyElementsOf(lists(rows.subList(1_500, 2_200)));
        assertThat(batches).hasValue(3);
    }
}
