package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.StatementParser;

class StaleReadClauseTest {
    @Test
    void takesTheTimeOutOfEveryTableReferenceWhereverItStands() {
        SqlNode statement = StatementParser.parse("SELECT * FROM a AS OF TIMESTAMP '2026-11-27 10:00:00' x"
                + " JOIN b AS OF TIMESTAMP '2026-11-27 10:00:00' ON x.k = b.k"
                + " WHERE x.k IN (SELECT k FROM c AS OF TIMESTAMP '2026-11-27 10:00:00')");
        assertThat(StaleReadClause.take(statement)).map(SqlNode::toString).contains("'2026-11-27 10:00:00'");
        assertThat(statement.toString()).doesNotContain("SYSTEM_TIME").containsIgnoringCase("JOIN")
                .containsIgnoringCase("IN (SELECT");
        assertThat(StaleReadClause.take(statement)).isEmpty();
        assertThat(StaleReadClause.take(StatementParser.parse("SELECT 1 FROM t"))).isEmpty();
    }

    @Test
    void refusesDifferentTimesInOneStatement() {
        SqlNode statement = StatementParser.parse("SELECT * FROM a AS OF TIMESTAMP '2026-11-27 10:00:00',"
                + " b AS OF TIMESTAMP '2026-11-27 10:00:01'");
        assertThatThrownBy(() -> StaleReadClause.take(statement)).isInstanceOf(DuetException.class)
                .hasMessageContaining("can not set different time in the as of")
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INVALID_READ_TIMESTAMP));
    }
}
