package io.duetdb.bulk.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlScriptTest {
    @Test
    void cutsAtSemicolonsOutsideQuotesAndComments() {
        String script = """
                -- a comment; not a statement
                /*!40101 SET NAMES binary*/;
                CREATE TABLE `a;b` (
                  `c` varchar(10) DEFAULT 'x;y' COMMENT "it's; \\"z\\"", /* plain; comment */
                  PRIMARY KEY (`c`) /*T![clustered_index] CLUSTERED */
                );
                # another;
                INSERT INTO t VALUES ('\\';')
                """;
        assertThat(SqlScript.statements(script)).containsExactly(
                "/*!40101 SET NAMES binary*/",
                "CREATE TABLE `a;b` (\n  `c` varchar(10) DEFAULT 'x;y' COMMENT \"it's; \\\"z\\\"\",  \n"
                        + "  PRIMARY KEY (`c`) /*T![clustered_index] CLUSTERED */\n)",
                "INSERT INTO t VALUES ('\\';')");
    }
}
