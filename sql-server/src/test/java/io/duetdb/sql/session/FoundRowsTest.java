package io.duetdb.sql.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;

import io.duetdb.sql.parser.StatementParser;

class FoundRowsTest {
    @Test
    void aQueryAskingForItsFoundRowsRunsWithoutItsLimit() {
        SqlNode ordered = StatementParser.parse("SELECT SQL_CALC_FOUND_ROWS a FROM t ORDER BY a LIMIT 1, 2");
        FoundRows.Unlimited unlimited = FoundRows.of(ordered);
        assertThat(unlimited.offset()).isEqualTo(1);
        assertThat(unlimited.fetch()).isEqualTo(2);
        assertThat(((SqlOrderBy) unlimited.query()).fetch).isNull();
        assertThat(((SqlOrderBy) ordered).fetch).isNotNull();
        List<Object[]> rows = List.of(new Object[] {1}, new Object[] {2}, new Object[] {3}, new Object[] {4});
        assertThat(unlimited.limit(rows)).extracting(row -> row[0]).containsExactly(2, 3);
    }

    @Test
    void theStatementKeepsItsLimitForItsNextExecution() {
        SqlNode query = StatementParser.parse("SELECT SQL_CALC_FOUND_ROWS a FROM t LIMIT 5");
        SqlNode unlimited = FoundRows.of(query).query();
        if (query instanceof SqlSelect select) {
            assertThat(select.getFetch()).isNotNull();
            assertThat(((SqlSelect) unlimited).getFetch()).isNull();
        } else {
            assertThat(((SqlOrderBy) query).fetch).isNotNull();
        }
    }

    @Test
    void otherQueriesAreLeftAlone() {
        assertThat(FoundRows.of(StatementParser.parse("SELECT a FROM t LIMIT 5"))).isNull();
        assertThat(FoundRows.of(StatementParser.parse("SELECT SQL_CALC_FOUND_ROWS a FROM t LIMIT ?"))).isNull();
    }
}
