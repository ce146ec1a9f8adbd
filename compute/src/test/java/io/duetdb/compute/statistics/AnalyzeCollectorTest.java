package io.duetdb.compute.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.operator.Batches;
import io.duetdb.proto.coprocessor.AnalyzeResult;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** ANALYZE's one pass over a region's rows: counts, column sketches and sketches of column groups' tuples. */
class AnalyzeCollectorTest {
    private static final List<FieldType> TYPES = List.of(ValueTypes.of(ValueType.INT64), ValueTypes.of(ValueType.INT64),
            ValueTypes.of(ValueType.STRING));

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close();
    }

    @Test
    void sketchesTheDistinctTuplesOfColumnGroups() {
        // city = i % 10, zip = i % 100 (a zip determines its city), street NULL for a third of the rows.
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            rows.add(new Object[] {(long) (i % 10), (long) (i % 100), i % 3 == 0 ? null : "street " + (i % 7)});
        }
        AnalyzeCollector collector = new AnalyzeCollector(3, 100, 7,
                List.of(new int[] {0}, new int[] {0, 1}, new int[] {1, 0}, new int[] {0, 2}));
        for (int from = 0; from < rows.size(); from += 1000) {
            try (VectorSchemaRoot batch = Batches.ofRows(TYPES, rows.subList(from, from + 1000), allocator)) {
                collector.add(batch);
            }
        }
        AnalyzeResult result = collector.result();
        assertThat(result.getRowCount()).isEqualTo(5_000);
        assertThat(result.getGroupDistinctRegistersCount()).isEqualTo(4);
        assertThat(distinct(result, 0)).isEqualTo(10);
        assertThat(distinct(result, 1)).isBetween(97L, 103L);
        assertThat(distinct(result, 2)).isBetween(97L, 103L);
        // (city, street): 10 cities x (7 streets and NULL), NULL counting as a value as an index holds it.
        assertThat(distinct(result, 3)).isBetween(78L, 82L);
        assertThat(result.getColumns(2).getNullCount()).isEqualTo(1_667);
    }

    @Test
    void refusesGroupsOutsideTheColumns() {
        assertThatThrownBy(() -> new AnalyzeCollector(2, 10, 1, List.of(new int[] {0, 2})))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static long distinct(AnalyzeResult result, int group) {
        return HyperLogLog.of(result.getGroupDistinctRegisters(group).toByteArray()).estimate();
    }
}
