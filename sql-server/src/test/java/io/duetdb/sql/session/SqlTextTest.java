package io.duetdb.sql.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class SqlTextTest {
    @Test
    void variablesBecomeCallsTypedByTheValuesTheyHold() {
        Map<String, String> types = Map.of("n", "BIGINT", "d", "DECIMAL(4, 2)");
        assertThat(SqlText.rewriteVariables("SELECT @N + 1, @d, @s, @@time_zone, '@n' FROM t WHERE `@n` = 1",
                types::get)).isEqualTo("SELECT CAST(DUET_USER_VARIABLE('n') AS BIGINT) + 1,"
                        + " CAST(DUET_USER_VARIABLE('d') AS DECIMAL(4, 2)), DUET_USER_VARIABLE('s'),"
                        + " DUET_SYSTEM_VARIABLE('', 'time_zone'), '@n' FROM t WHERE `@n` = 1");
        // An account, not a variable.
        assertThat(SqlText.rewriteVariables("CREATE DEFINER = 'app'@localhost VIEW v AS SELECT 1", types::get))
                .isEqualTo("CREATE DEFINER = 'app'@localhost VIEW v AS SELECT 1");
    }

    @Test
    void labelsSpellVariablesBack() {
        assertThat(SqlText.label("CAST(DUET_USER_VARIABLE('n') AS BIGINT) + DUET_USER_VARIABLE('s')"))
                .isEqualTo("@n + @s");
        assertThat(SqlText.label("CAST(DUET_USER_VARIABLE('d') AS DECIMAL(4, 2))")).isEqualTo("@d");
        assertThat(SqlText.label("DUET_SYSTEM_VARIABLE('session', 'autocommit')")).isEqualTo("@@session.autocommit");
    }

    @Test
    void executableCommentsAreRevealedAndLeadingCommentsDropped() {
        assertThat(SqlText.trim("/* plain */ -- line\n/*!40101 SET NAMES binary*/;")).isEqualTo("SET NAMES binary");
        assertThat(SqlText.trim("/*!80099 SET x = 1*/ SELECT 1;")).isEqualTo("SELECT 1");
    }
}
