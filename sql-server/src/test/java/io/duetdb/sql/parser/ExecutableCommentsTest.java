package io.duetdb.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExecutableCommentsTest {
    @Test
    void executableCommentsBecomeStatementTextInPlace() {
        assertThat(ExecutableComments.reveal("/*!40101 SET NAMES binary*/"))
                .isEqualTo("         SET NAMES binary  ");
        assertThat(ExecutableComments.reveal("SELECT 1 /*! + 2 */")).isEqualTo("SELECT 1     + 2   ");
        assertThat(ExecutableComments.reveal("PRIMARY KEY (`a`) /*T![clustered_index] CLUSTERED */"))
                .isEqualTo("PRIMARY KEY (`a`)                       CLUSTERED   ");
    }

    @Test
    void otherCommentsNewerVersionsMariaDbOnlyAndQuotedTextStayAsWritten() {
        for (String sql : new String[] {"SELECT /* plain */ 1", "SELECT /*+ HINT(t) */ 1", "/*!80016 SET x = 1*/",
                "/*M!100100 SET x = 1*/", "SELECT '/*!40101 not a comment */'", "SELECT `/*!40101`",
                "SELECT 1 -- /*!40101 2 */", "SELECT 'it''s /*!40101'"}) {
            assertThat(ExecutableComments.reveal(sql)).as(sql).isEqualTo(sql);
        }
    }
}
