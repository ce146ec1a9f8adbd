package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** An MPP hash exchange's partitioning: every row goes to one partition, and equal keys to the same one. */
class HashPartitionerTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    private static final List<FieldType> TYPES = List.of(INT64, STRING, INT64);

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close();
    }

    @Test
    void everyRowGoesToOnePartitionAndEqualKeysToTheSameOne() {
        Random random = new Random(5);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            rows.add(new Object[] {random.nextInt(10) == 0 ? null : (long) random.nextInt(50),
                random.nextInt(7) == 0 ? null : "k" + random.nextInt(4), (long) i});
        }
        HashPartitioner partitioner = new HashPartitioner(List.of(new ColumnReference(0, INT64),
                new ColumnReference(1, STRING)), 3);
        Map<String, Integer> partitionOfKey = new HashMap<>();
        int[] counts = new int[3];
        long seen = 0;
        try (VectorSchemaRoot batch = Batches.ofRows(TYPES, rows, allocator)) {
            VectorSchemaRoot[] parts = partitioner.split(batch, TYPES, allocator);
            for (int p = 0; p < parts.length; p++) {
                if (parts[p] == null) {
                    continue;
                }
                try (VectorSchemaRoot part = parts[p]) {
                    for (int row = 0; row < part.getRowCount(); row++) {
                        Object[] values = Batches.row(part, row);
                        String key = values[0] + "|" + values[1];
                        assertThat(partitionOfKey.putIfAbsent(key, p)).as(key).isIn(null, p);
                        counts[p]++;
                        seen += (Long) values[2];
                    }
                }
            }
        }
        assertThat(counts[0] + counts[1] + counts[2]).isEqualTo(rows.size());
        assertThat(seen).isEqualTo(3_000L * 2_999 / 2);
        // Roughly even: no partition holds more than half of the rows.
        for (int count : counts) {
            assertThat(count).isPositive().isLessThan(rows.size() / 2);
        }
    }

    @Test
    void onePartitionOrNoKeysKeepEveryRowInTheFirst() {
        List<Object[]> rows = List.of(new Object[] {1L, "a", 1L}, new Object[] {2L, "b", 2L});
        try (VectorSchemaRoot batch = Batches.ofRows(TYPES, rows, allocator)) {
            assertThat(new HashPartitioner(List.of(), 4).partitionOf(batch, allocator)).containsExactly(0, 0);
            assertThat(new HashPartitioner(List.of(new ColumnReference(0, INT64)), 1).partitionOf(batch, allocator))
                    .containsExactly(0, 0);
        }
    }

    @Test
    void floatingPointKeysAreRefused() {
        assertThatThrownBy(() -> new HashPartitioner(List.of(new ColumnReference(0, ValueTypes.of(ValueType.FLOAT64))), 2))
                .isInstanceOf(UnsupportedExpressionException.class);
    }
}
