package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

class SetOperationsTest {
    private static final List<Object[]> LEFT = rows(1L, 1L, 1L, 2L, null, null, 3L);
    private static final List<Object[]> RIGHT = rows(1L, new BigDecimal("2.00"), null, 4L);
    private static final UnaryOperator<Object[]> AS_IS = UnaryOperator.identity();

    @Test
    void exceptKeepsTheFirstInputsRowsTheOthersLack() {
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT), false, AS_IS))).containsExactly(3L);
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT), true, AS_IS))).containsExactly(1L, 1L, null, 3L);
        assertThat(values(SetOperations.except(LEFT, List.of(RIGHT, rows(3L)), false, AS_IS))).isEmpty();
        assertThat(values(SetOperations.except(rows(), List.of(RIGHT), true, AS_IS))).isEmpty();
    }

    @Test
    void intersectKeepsWhatEveryInputHas() {
        assertThat(values(SetOperations.intersect(LEFT, List.of(RIGHT), false, AS_IS))).containsExactly(1L, 2L, null);
        assertThat(values(SetOperations.intersect(LEFT, List.of(rows(1L, 1L, null, null, null)), true, AS_IS)))
                .containsExactly(1L, 1L, null, null);
        assertThat(values(SetOperations.intersect(LEFT, List.of(RIGHT, rows(2L)), false, AS_IS))).containsExactly(2L);
    }

    @Test
    void rowsMatchByTheirKeysAndTheFirstInputsRowIsKept() {
        UnaryOperator<Object[]> caseless = row -> new Object[] {row[0] == null ? null
                : String.valueOf(row[0]).toLowerCase(Locale.ROOT)};
        List<Object[]> names = rows("Alice", "alice", "Bob", "carol");
        assertThat(values(SetOperations.intersect(names, List.of(rows("ALICE", "CAROL")), false, caseless)))
                .containsExactly("Alice", "carol");
        assertThat(values(SetOperations.except(names, List.of(rows("BOB")), false, caseless)))
                .containsExactly("Alice", "carol");
        assertThat(values(SetOperations.except(names, List.of(rows("ALICE")), true, caseless)))
                .containsExactly("alice", "Bob", "carol");
    }

    private static List<Object[]> rows(Object... values) {
        return Arrays.stream(values).map(value -> new Object[] {value}).toList();
    }

    private static List<Object> values(List<Object[]> rows) {
        return rows.stream().map(row -> row[0]).toList();
    }
}
