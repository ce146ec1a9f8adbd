package io.duetdb.common.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.duetdb.common.codec.CodecException;
import io.duetdb.common.types.ColumnType;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class RowCodecTest {
    private static final List<RowColumn> ALL_TYPES = List.of(
            RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.UINT64), RowColumn.of(3, ColumnType.FLOAT32),
            RowColumn.of(4, ColumnType.FLOAT64), RowColumn.of(5, ColumnType.DECIMAL), RowColumn.of(6, ColumnType.STRING),
            RowColumn.of(7, ColumnType.BYTES), RowColumn.of(8, ColumnType.DATE), RowColumn.of(9, ColumnType.DATETIME),
            RowColumn.of(10, ColumnType.TIMESTAMP), RowColumn.of(11, ColumnType.TIME));

    @Example
    void everyTypeRoundTrips() {
        List<Object> values = List.of(-123456789012L, -1L, 3.5f, -0.001, new BigDecimal("-12345678901234567890.123456789"),
                "DuetDB ✓", new byte[] {0, 1, 2}, LocalDate.of(1970, 1, 1), LocalDateTime.of(2024, 2, 29, 12, 0, 1, 999_999_000),
                LocalDateTime.of(2000, 1, 1, 0, 0), Duration.ofSeconds(-3723, 500_000_000));
        byte[] row = RowCodec.encode(ALL_TYPES, values);
        Object[] decoded = RowCodec.decode(row, ALL_TYPES);
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) instanceof byte[] bytes) {
                assertThat((byte[]) decoded[i]).isEqualTo(bytes);
            } else {
                assertThat(decoded[i]).as("column %d", i + 1).isEqualTo(values.get(i));
            }
        }
    }

    @Property(tries = 500)
    void integersUseTheFewestBytesAndRoundTrip(@ForAll long signed, @ForAll long unsigned) {
        List<RowColumn> columns = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.UINT64));
        Object[] decoded = RowCodec.decode(RowCodec.encode(columns, List.of(signed, unsigned)), columns);
        assertThat(decoded).containsExactly(signed, unsigned);
    }

    @Example
    void smallRowsAreCompact() {
        List<RowColumn> columns = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.STRING),
                RowColumn.of(3, ColumnType.INT64));
        byte[] row = RowCodec.encode(columns, Arrays.asList(7L, "ab", null));
        // 4 header bytes + 3 ids + 2 offsets x 2 bytes + 1 + 2 data bytes
        assertThat(row).hasSize(4 + 3 + 4 + 3);
    }

    @Example
    void nullsAreDistinctFromAbsentColumns() {
        List<RowColumn> written = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.STRING));
        byte[] row = RowCodec.encode(written, Arrays.asList(1L, null));
        RowColumn addedLater = new RowColumn(3, ColumnType.STRING, "default");
        RowColumn nullable = new RowColumn(2, ColumnType.STRING, "ignored default");
        RowView view = new RowView(row);
        assertThat(view.get(nullable)).isNull();
        assertThat(view.get(addedLater)).isEqualTo("default");
        assertThat(view.contains(2)).isTrue();
        assertThat(view.contains(3)).isFalse();
    }

    @Example
    void schemaEvolutionReadsOldRowsWithoutRewriting() {
        List<RowColumn> version1 = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(2, ColumnType.STRING),
                RowColumn.of(3, ColumnType.DECIMAL));
        byte[] oldRow = RowCodec.encode(version1, List.of(10L, "old", new BigDecimal("1.50")));
        // Version 2 dropped column 2 and added column 4 with a default.
        List<RowColumn> version2 = List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(3, ColumnType.DECIMAL),
                new RowColumn(4, ColumnType.INT64, 99L));
        assertThat(RowCodec.decode(oldRow, version2)).containsExactly(10L, new BigDecimal("1.50"), 99L);
    }

    @Property(tries = 200)
    void wideRowsWithLargeIdsAndValuesRoundTrip(@ForAll @IntRange(min = 1, max = 300) int columnCount) {
        List<RowColumn> columns = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < columnCount; i++) {
            columns.add(RowColumn.of(1 + i * 7, ColumnType.STRING));
            values.add(i % 5 == 0 ? null : "v".repeat(i * 3));
        }
        assertThat(RowCodec.decode(RowCodec.encode(columns, values), columns)).containsExactlyElementsOf(values);
    }

    @Example
    void badInputIsRejected() {
        assertThatThrownBy(() -> new RowView(new byte[] {0x01, 0, 0, 0})).isInstanceOf(CodecException.class)
                .hasMessageContaining("unknown row format");
        assertThatThrownBy(() -> new RowView(new byte[] {(byte) 0x8F, 0, 0, 0})).isInstanceOf(CodecException.class);
        byte[] row = RowCodec.encode(List.of(RowColumn.of(1, ColumnType.STRING)), List.of("abc"));
        assertThatThrownBy(() -> new RowView(Arrays.copyOf(row, row.length - 1))).isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> RowCodec.encode(List.of(RowColumn.of(1, ColumnType.INT64)), List.of("text")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RowCodec.encode(List.of(RowColumn.of(1, ColumnType.INT64), RowColumn.of(1, ColumnType.INT64)),
                List.of(1L, 2L))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }
}
