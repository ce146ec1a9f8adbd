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
        assertThat(TextStatements.isTextStatement("SET NAMES utf8mb4, @a = 'x?'")).isTrue();
        assertThat(TextStatements.isTextStatement("DESCRIBE t")).isTrue();
        assertThat(TextStatements.isTextStatement("GRANT SELECT ON *.* TO 'u'@'%'")).isTrue();
        assertThat(TextStatements.isTextStatement("SHOW GRANTS FOR CURRENT_USER")).isTrue();
        assertThat(TextStatements.isTextStatement("ADMIN SHOW DDL JOBS 5")).isTrue();
        assertThat(TextStatements.isTextStatement("SET @x = ?")).isFalse();
        assertThat(TextStatements.isTextStatement("SET @x = 1 + ?")).isFalse();
        assertThat(TextStatements.isTextStatement("SELEC 1")).isFalse();
        assertThat(TextStatements.isTextStatement("DESCRIBE SELECT * FROM t")).isFalse();
        assertThat(TextStatements.isTextStatement("SELECT 1")).isFalse();
        assertThat(TextStatements.isTextStatement("settings")).isFalse();
        assertThat(TextStatements.isTextStatement("UPDATE t SET a = ? WHERE id = 1")).isFalse();
    }
}
