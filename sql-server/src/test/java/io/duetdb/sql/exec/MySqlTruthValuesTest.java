package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.plan;
import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.calcite.plan.RelOptUtil;
import org.junit.jupiter.api.Test;

import io.duetdb.common.types.SqlTypeName;
import io.duetdb.sql.prepare.TypeMapping;

/** Numbers, strings and dates where MySQL expects a condition, each expected answer MySQL 8.0's. */
class MySqlTruthValuesTest {
    @Test
    void logicalOperatorsTakeAnyValueAndGiveZeroOrOne() {
        assertThat(rows("SELECT 5 AND 0, NOT 'abc', 1 XOR 1, 1 XOR 0, NULL XOR 1, 'a' OR 1, 2 AND '3abc', NOT 0.0,"
                + " DATE '2026-01-01' AND 1")).containsExactly("0|1|0|1|null|1|1|1|1");
        assertThat(rows("SELECT 1 XOR 1 XOR 1, 1 OR 1 XOR 1, 1 XOR 1 AND 0, 5 IS TRUE, 0 IS NOT FALSE"))
                .containsExactly("1|1|1|1|0");
        var type = plan("SELECT 5 AND 0").rowType().getFieldList().get(0).getType();
        assertThat(TypeMapping.fromCalcite(type).name()).isEqualTo(SqlTypeName.BIGINT);
    }

    @Test
    void conditionsOfCaseAndIfTakeAnyValue() {
        assertThat(rows("SELECT CASE WHEN 1 THEN 'x' END, CASE WHEN 0 THEN 'x' ELSE 'y' END, CASE WHEN '0.5' THEN 'h' END,"
                + " IF('abc', 1, 2), IF(2.5, 1, 2), IF(NULL, 1, 2)")).containsExactly("x|y|h|2|1|2");
    }

    @Test
    void whereAndHavingTakeNumbersAndStrings() {
        assertThat(rows("SELECT x FROM (VALUES (0), (3), (NULL)) AS t(x) WHERE x")).containsExactly("3");
        assertThat(rows("SELECT s FROM (VALUES ('0'), ('1abc'), ('abc'), ('0.1')) AS t(s) WHERE s"))
                .containsExactly("1abc", "0.1");
        assertThat(rows("SELECT x FROM (VALUES (1), (2)) AS t(x) GROUP BY x HAVING x - 1")).containsExactly("2");
        assertThat(rows("SELECT x FROM (VALUES (1), (2)) AS t(x) WHERE NOT x - 1")).containsExactly("1");
    }

    @Test
    void aNumberIsTestedAgainstZeroWhereCalciteCanSimplifyAndPushItDown() {
        String plan = RelOptUtil.toString(plan("SELECT x FROM (VALUES (0), (3)) AS t(x) WHERE x AND 1").plan());
        assertThat(plan).contains("<>($0, 0)").doesNotContain("DUET_TRUTH");
    }
}
