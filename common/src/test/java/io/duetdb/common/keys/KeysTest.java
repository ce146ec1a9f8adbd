package io.duetdb.common.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.types.ColumnType;

class KeysTest {
    @Test
    void recordKeysOrderByTableThenHandle() {
        long[][] pairs = {{-1, 5}, {1, Long.MIN_VALUE}, {1, -1}, {1, 0}, {1, 1}, {1, Long.MAX_VALUE}, {2, -100}};
        for (int i = 0; i + 1 < pairs.length; i++) {
            byte[] left = Keys.recordKey(pairs[i][0], pairs[i][1]);
            byte[] right = Keys.recordKey(pairs[i + 1][0], pairs[i + 1][1]);
            assertThat(Arrays.compareUnsigned(left, right)).isNegative();
        }
        byte[] key = Keys.recordKey(42, -7);
        assertThat(Keys.isRecordKey(key)).isTrue();
        assertThat(Keys.tableIdOf(key)).isEqualTo(42);
        assertThat(Keys.handleOf(key)).isEqualTo(-7);
        assertThat(Keys.describe(key)).isEqualTo("t42_r-7");
    }

    @Test
    void commonHandlesKeyRowsByTheirValuesInOrder() {
        List<ColumnType> types = List.of(ColumnType.INT64, ColumnType.STRING);
        List<List<Object>> ordered = List.of(List.of(-5L, "z"), List.of(1L, ""), List.of(1L, "a"), List.of(1L, "ab"),
                List.of(2L, "a"));
        for (int i = 0; i + 1 < ordered.size(); i++) {
            Handle left = Keys.commonHandle(types, ordered.get(i));
            Handle right = Keys.commonHandle(types, ordered.get(i + 1));
            assertThat(left.compareTo(right)).isNegative();
            assertThat(Arrays.compareUnsigned(Keys.recordKey(7, left), Keys.recordKey(7, right))).isNegative();
        }
        Handle handle = Keys.commonHandle(types, List.of(3L, "key"));
        byte[] row = Keys.recordKey(7, handle);
        assertThat(Keys.isRecordKey(row)).isTrue();
        assertThat(Keys.commonHandleOf(row)).isEqualTo(handle).isNotEqualTo(Handle.of(3));
        assertThat(KeyRanges.contains(Keys.recordPrefix(7), Keys.recordEnd(7), row)).isTrue();
        byte[] prefix = Keys.recordValuesPrefix(7, types.subList(0, 1), List.of(3L));
        assertThat(KeyRanges.contains(prefix, Keys.indexValuesEnd(prefix), row)).isTrue();
        // A non-unique index entry ends with the row's common handle.
        byte[] entry = Keys.indexKey(7, 2, List.of(ColumnType.STRING), List.of("v"), handle);
        assertThat(Keys.commonHandleOfIndexEntry(entry, List.of(ColumnType.STRING))).isEqualTo(handle);
        // A one-column decimal key can be eight bytes long, as an integer handle is: the table tells them apart.
        Handle decimal = Keys.commonHandle(List.of(ColumnType.DECIMAL), List.of(new java.math.BigDecimal("5")));
        assertThat(decimal.encoded()).hasSize(8);
        assertThat(Keys.commonHandleOf(Keys.recordKey(7, decimal))).isEqualTo(decimal);
        assertThat(Handle.of(4).compareTo(Handle.of(-4))).isPositive();
        assertThat(Keys.recordKey(7, Handle.of(4))).isEqualTo(Keys.recordKey(7, 4));
    }

    @Test
    void rangesEncloseWhatTheyOwn() {
        byte[] row = Keys.recordKey(9, Long.MAX_VALUE);
        assertThat(KeyRanges.contains(Keys.recordPrefix(9), Keys.recordEnd(9), row)).isTrue();
        assertThat(KeyRanges.contains(Keys.tablePrefix(9), Keys.tableEnd(9), row)).isTrue();
        assertThat(KeyRanges.contains(Keys.tablePrefix(10), Keys.tableEnd(10), row)).isFalse();
        byte[] index = Keys.indexKey(9, 3, List.of(ColumnType.STRING), List.of("x"), 1);
        assertThat(KeyRanges.contains(Keys.indexPrefix(9, 3), Keys.indexEnd(9, 3), index)).isTrue();
        assertThat(KeyRanges.contains(Keys.recordPrefix(9), Keys.recordEnd(9), index)).isFalse();
        assertThat(KeyRanges.contains(Keys.tablePrefix(9), Keys.tableEnd(9), index)).isTrue();
        assertThat(Keys.describe(index)).startsWith("t9_i3_0x");
        byte[] meta = Keys.metaKey("schema".getBytes());
        assertThat(KeyRanges.compare(meta, Keys.metaEnd())).isNegative();
        assertThat(KeyRanges.compare(Keys.metaEnd(), Keys.tablePrefix(Long.MIN_VALUE))).isNegative();
    }

    @Test
    void indexEntriesOrderByValuesWithNullFirst() {
        List<ColumnType> types = List.of(ColumnType.INT64, ColumnType.STRING);
        byte[] nullFirst = Keys.uniqueIndexKey(1, 1, types, Arrays.asList(null, "a"));
        byte[] small = Keys.uniqueIndexKey(1, 1, types, List.of(-3L, "z"));
        byte[] bigger = Keys.uniqueIndexKey(1, 1, types, List.of(-3L, "zz"));
        byte[] biggest = Keys.uniqueIndexKey(1, 1, types, List.of(4L, ""));
        assertThat(Arrays.compareUnsigned(nullFirst, small)).isNegative();
        assertThat(Arrays.compareUnsigned(small, bigger)).isNegative();
        assertThat(Arrays.compareUnsigned(bigger, biggest)).isNegative();
        byte[] handle1 = Keys.indexKey(1, 2, types, List.of(1L, "a"), 1);
        byte[] handle2 = Keys.indexKey(1, 2, types, List.of(1L, "a"), 2);
        assertThat(Arrays.compareUnsigned(handle1, handle2)).isNegative();
    }

    @Test
    void keyRangesTreatEmptyEndAsInfinity() {
        byte[] a = {1};
        byte[] b = {2};
        byte[] none = {};
        assertThat(KeyRanges.contains(none, none, b)).isTrue();
        assertThat(KeyRanges.contains(a, b, b)).isFalse();
        assertThat(KeyRanges.overlaps(a, b, b, none)).isFalse();
        assertThat(KeyRanges.overlaps(a, none, b, none)).isTrue();
        assertThat(KeyRanges.compareEnds(none, b)).isPositive();
        assertThat(KeyRanges.isValid(b, a)).isFalse();
        assertThat(Keys.describe(new byte[] {(byte) 0xAB})).isEqualTo("0xAB");
    }
}
