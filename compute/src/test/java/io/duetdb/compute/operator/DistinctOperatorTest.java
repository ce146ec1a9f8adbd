package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

class DistinctOperatorTest {
    private static final List<FieldType> TYPES = List.of(ValueTypes.of(ValueType.INT64), ValueTypes.of(ValueType.STRING),
            ValueTypes.decimal(8, 2));

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close();
    }

    @Test
    void eachDistinctRowGoesOutTheFirstTimeItComesWithNullsEqual() {
        Random random = new Random(17);
        String[] strings = {"a", "A", "", "é", null};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(new Object[] {random.nextInt(5) == 0 ? null : (long) random.nextInt(30),
                strings[random.nextInt(strings.length)],
                random.nextInt(4) == 0 ? null : java.math.BigDecimal.valueOf(random.nextInt(10), 2)});
        }
        LinkedHashSet<List<Object>> expected = new LinkedHashSet<>();
        rows.forEach(row -> expected.add(Arrays.asList(row)));
        List<List<Object>> actual = new ArrayList<>();
        AtomicLong held = new AtomicLong();
        AtomicLong most = new AtomicLong();
        try (DistinctOperator distinct = new DistinctOperator(RowListOperator.of(TYPES, rows, 1_000, allocator), allocator,
                bytes -> most.accumulateAndGet(held.addAndGet(bytes), Math::max))) {
            for (VectorSchemaRoot batch = distinct.next(); batch != null; batch = distinct.next()) {
                assertThat(batch.getRowCount()).isPositive();
                for (int row = 0; row < batch.getRowCount(); row++) {
                    actual.add(Arrays.asList(Batches.row(batch, row)));
                }
            }
        }
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(expected.size()).isLessThan(rows.size() / 2);
        assertThat(most.get()).isPositive();
        assertThat(held).hasValue(0);
    }
}
