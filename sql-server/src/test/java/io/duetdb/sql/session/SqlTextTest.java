package io.duetdb.sql.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTextTest {
    @Test
    void executableCommentsAreRevealedAndLeadingCommentsDropped() {
        assertThat(SqlText.trim("/* plain */ -- line\n/*!40101 SET NAMES binary*/;")).isEqualTo("SET NAMES binary");
        assertThat(SqlText.trim("/*!80099 SET x = 1*/ SELECT 1;")).isEqualTo("SELECT 1");
    }

    @Test
    void aSliceIsTheTextBetweenTwoParserPositions() {
        assertThat(SqlText.slice("SELECT @a + 1,\n  @@time_zone", 1, 8, 1, 13)).isEqualTo("@a + 1");
        assertThat(SqlText.slice("SELECT @a + 1,\n  @@time_zone", 2, 3, 2, 13)).isEqualTo("@@time_zone");
    }
}
