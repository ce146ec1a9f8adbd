package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

class RegularExpressionsTest {
    private static Object call(String name, Object... args) {
        return RegularExpressions.of(name).apply(args);
    }

    @Test
    void likeFindsAMatchAnywhereCaseSensitivelyUnlessTold() {
        assertThat(call("RLIKE", "banana", "an")).isEqualTo(true);
        assertThat(call("RLIKE", "banana", "^an")).isEqualTo(false);
        assertThat(call("NOT RLIKE", "banana", "^an")).isEqualTo(true);
        assertThat(call("REGEXP_LIKE", "Banana", "^b")).isEqualTo(false);
        assertThat(call("REGEXP_LIKE", "Banana", "^b", "i")).isEqualTo(true);
        assertThat(call("REGEXP_LIKE", "Banana", "^b", "ic")).isEqualTo(false);
        assertThat(call("REGEXP_LIKE", "a\nb", "a.b")).isEqualTo(false);
        assertThat(call("REGEXP_LIKE", "a\nb", "a.b", "n")).isEqualTo(true);
        assertThat(call("REGEXP_LIKE", 123L, "2")).isEqualTo(true);
    }

    @Test
    void positionsAndOccurrencesCountCharactersFromOne() {
        assertThat(call("REGEXP_INSTR", "dog cat dog", "dog")).isEqualTo(1L);
        assertThat(call("REGEXP_INSTR", "dog cat dog", "dog", 2L)).isEqualTo(9L);
        assertThat(call("REGEXP_INSTR", "dog cat dog", "dog", 1L, 2L)).isEqualTo(9L);
        assertThat(call("REGEXP_INSTR", "dog cat dog", "dog", 1L, 3L)).isEqualTo(0L);
        assertThat(call("REGEXP_INSTR", "dog cat", "cat", 1L, 1L, 1L)).isEqualTo(8L);
        assertThat(call("REGEXP_INSTR", "ßxy", "y")).isEqualTo(3L);
        assertThat(call("REGEXP_SUBSTR", "abc def ghi", "[a-z]+", 1L, 3L)).isEqualTo("ghi");
        assertThat(call("REGEXP_SUBSTR", "abc def ghi", "[a-z]+", 5L)).isEqualTo("def");
        assertThat(call("REGEXP_SUBSTR", "abc", "x")).isNull();
    }

    @Test
    void replaceTakesEveryOccurrenceOrTheOneNamed() {
        assertThat(call("REGEXP_REPLACE", "abcbdb", "b", "x")).isEqualTo("axcxdx");
        assertThat(call("REGEXP_REPLACE", "abcbdb", "b", "x", 3L)).isEqualTo("abcxdx");
        assertThat(call("REGEXP_REPLACE", "abcbdb", "b", "x", 1L, 2L)).isEqualTo("abcxdb");
        assertThat(call("REGEXP_REPLACE", "abcbdb", "b", "x", 3L, 2L)).isEqualTo("abcbdx");
        assertThat(call("REGEXP_REPLACE", "a1b22", "([0-9]+)", "<$1>")).isEqualTo("a<1>b<22>");
        assertThat(call("REGEXP_REPLACE", "abc", "z", "x")).isEqualTo("abc");
    }

    @Test
    void badPatternsPositionsAndMatchTypesAreMySqlErrors() {
        assertThatThrownBy(() -> call("RLIKE", "a", "(")).isInstanceOf(DuetException.class)
                .extracting(e -> ((DuetException) e).code()).isEqualTo(ErrorCode.REGEXP_SYNTAX);
        assertThatThrownBy(() -> call("REGEXP_INSTR", "abc", "c", 5L)).isInstanceOf(DuetException.class)
                .extracting(e -> ((DuetException) e).code()).isEqualTo(ErrorCode.REGEXP_INDEX_OUT_OF_BOUNDS);
        assertThatThrownBy(() -> call("REGEXP_LIKE", "abc", "c", "q")).isInstanceOf(DuetException.class)
                .extracting(e -> ((DuetException) e).code()).isEqualTo(ErrorCode.WRONG_ARGUMENTS);
    }
}
