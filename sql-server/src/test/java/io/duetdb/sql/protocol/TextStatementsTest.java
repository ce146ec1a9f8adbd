package io.duetdb.sql.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextStatementsTest {
    @Test
    void sessionStatementsWithoutPlaceholdersArePreparedAsText() {
        assertThat(TextStatements.isTextStatement("BEGIN")).isTrue();
        assertThat(TextStatements.isTextStatement("  commit")).isTrue();
        assertThat(TextStatements.isTextStatement("START TRANSACTION READ ONLY")).isTrue();
        assertThat(TextStatements.isTextStatement("SET autocommit = 0")).isTrue();
        assertThat(TextStatements.isTextStatement("SHOW VARIABLES LIKE 'a?b'")).isTrue();
        assertThat(TextStatements.isTextStatement("/* sysbench */ ROLLBACK")).isTrue();
        assertThat(TextStatements.isTextStatement("SET @x = ?")).isFalse();
        assertThat(TextStatements.isTextStatement("SELECT 1")).isFalse();
        assertThat(TextStatements.isTextStatement("settings")).isFalse();
        assertThat(TextStatements.isTextStatement("UPDATE t SET a = ? WHERE id = 1")).isFalse();
    }
}
