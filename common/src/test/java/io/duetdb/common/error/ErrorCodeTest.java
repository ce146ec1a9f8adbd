package io.duetdb.common.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class ErrorCodeTest {
    @Test
    void numbersAreUniqueAndStatesWellFormed() {
        assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::errorNumber).distinct().count())
                .isEqualTo(ErrorCode.values().length);
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(code.sqlState()).as(code.name()).matches("[0-9A-Z]{5}");
        }
        assertThat(new DuetException(ErrorCode.DEADLOCK, "Deadlock found").toMySqlString())
                .isEqualTo("ERROR 1213 (40001): Deadlock found");
    }
}
