package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class SetOperationsTest {
    private static final List<Object[]> LEFT = rows(1L, 1L, 1L, 2L, null, null, 3L);
    private static final List<Object[]> RIGHT = rows(1L, new BigDecimal("2.00"), null, 4L);

    @Test
    void exceptKeepsTheFirstInputsRowsTheOthersLack() {
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT), false))).containsExactly(3L);
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT), true))).containsExactly(1L, 1L, null, 3L);
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT, rows(3L)), false))).isEmpty();
        assertThat(values(SetOperations.except(rows(), List.of(RIGHT), true))).isEmpty();
    }

    @Test
    void intersectKeepsWhatEveryInputHas() {
        assertThat(values(SetOperations.intersect(LEFT, List.of(RIGHT), false))).containsExactly(1L, 2L, null);
        assertThat(values(SetOperations.intersect(LEFT, List.of(rows(1L, 1L, null, null, null)), true)))
                .containsExactly(1L, 1L, null, null);
        assertThat(values(SetOperations.intersect(LEFT, List.of(RIGHT, rows(2L)), false))).containsExactly(2L);
    }

    private static List<Object[]> rows(Object... values) {
        return Arrays.stream(values).map(value -> new Object[] {value}).toList();
    }

    private static List<Object> values(List<Object[]> rows) {
        return rows.stream().map(row -> row[0]).toList();
    }
}
