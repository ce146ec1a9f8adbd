package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class LongKeyIndexTest {
    private static final List<RowExpression> TWO_KEYS = List.of(row -> row[0], row -> row[1]);

    @Test
    void findsEveryRowOfACompositeKeyAndNothingElse() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            rows.add(new Object[] {(long) (i % 1000), i % 7, "row" + i});
        }
        rows.add(new Object[] {null, 1, "null key"});
        LongKeyIndex index = LongKeyIndex.of(rows, TWO_KEYS, new boolean[] {false, false});
        assertThat(index).isNotNull();
        long[] probe = new long[2];
        assertThat(index.probeKey(new Object[] {5L, 5}, TWO_KEYS, probe)).isTrue();
        List<Integer> found = new ArrayList<>();
        for (int row = index.first(probe); row >= 0; row = index.next(row)) {
            found.add(row);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            if (i % 1000 == 5 && i % 7 == 5) {
                expected.add(i);
            }
        }
        assertThat(found).containsExactlyInAnyOrderElementsOf(expected).isNotEmpty();
        assertThat(index.probeKey(new Object[] {5L, 6}, TWO_KEYS, probe)).isTrue();
        assertThat(index.first(probe)).isGreaterThanOrEqualTo(0);
        assertThat(index.probeKey(new Object[] {1000L, 0}, TWO_KEYS, probe)).isTrue();
        assertThat(index.first(probe)).isEqualTo(-1);
    }

    @Test
    void probesWithNumbersOfAnyTypeThatEqualAWholeNumber() {
        List<Object[]> rows = List.of(new Object[] {2L, 3}, new Object[] {null, 3});
        LongKeyIndex index = LongKeyIndex.of(rows, TWO_KEYS, new boolean[] {false, false});
        long[] probe = new long[2];
        assertThat(index.probeKey(new Object[] {new BigDecimal("2.00"), 3.0}, TWO_KEYS, probe)).isTrue();
        assertThat(index.first(probe)).isEqualTo(0);
        assertThat(index.probeKey(new Object[] {new BigDecimal("2.5"), 3}, TWO_KEYS, probe)).isFalse();
        assertThat(index.probeKey(new Object[] {2L, 3.5}, TWO_KEYS, probe)).isFalse();
        assertThat(index.probeKey(new Object[] {null, 3}, TWO_KEYS, probe)).isFalse();
        assertThat(index.probeKey(new Object[] {"2", 3}, TWO_KEYS, probe)).isFalse();
    }

    @Test
    void leavesOtherKeysToTheGeneralHashTable() {
        assertThat(LongKeyIndex.of(List.<Object[]>of(new Object[] {new BigDecimal("1.5"), 1}), TWO_KEYS,
                new boolean[] {false, false})).isNull();
        assertThat(LongKeyIndex.of(List.<Object[]>of(new Object[] {"a", 1}), TWO_KEYS, new boolean[] {false, false}))
                .isNull();
        assertThat(LongKeyIndex.of(List.<Object[]>of(new Object[] {null, 1}), TWO_KEYS, new boolean[] {true, false}))
                .isNull();
    }
}
