package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * MySQL's type rules where Calcite unifies or compares types, planned and run without tables: each expected
 * answer is MySQL 8.0's (and MariaDB 10.11's, checked by hand on this machine).
 */
class MySqlTypeRulesTest {
    @Test
    void unionBranchesTakeMySqlsAggregatedType() {
        assertThat(rows("SELECT 1 UNION SELECT 'a'")).containsExactly("1", "a");
        assertThat(rows("SELECT 1 UNION SELECT 2.5")).containsExactly("1.0", "2.5");
        assertThat(rows("SELECT DATE '2026-01-01' UNION SELECT '2026-01-02 10:00:00'"))
                .containsExactly("2026-01-01", "2026-01-02 10:00:00");
        assertThat(rows("SELECT DATE '2026-01-01' UNION ALL SELECT TIMESTAMP '2026-01-02 10:00:00'"))
                .containsExactly("2026-01-01 00:00:00", "2026-01-02 10:00:00");
        assertThat(rows("SELECT IF(1 = 1, 'a', 2) UNION SELECT 3")).containsExactly("a", "3");
    }

    @Test
    void conditionalBranchesTakeOneType() {
        assertThat(rows("SELECT CASE WHEN 1 = 1 THEN 1 ELSE 'a' END, CASE WHEN 1 = 0 THEN 1 ELSE 2.5 END,"
                + " IF(1 = 1, 1, 'a'), IFNULL(NULL, 'x'), IFNULL(1, 'x'), COALESCE(NULL, 1, 'a'), COALESCE(NULL, 2.5, 1)"))
                .containsExactly("1|2.5|1|x|1|1|2.5");
    }

    @Test
    void valuesRowsOfDifferentTypesTakeOneType() {
        assertThat(rows("SELECT x, y FROM (VALUES (1, 'a'), ('b', 2.5)) AS t(x, y)")).containsExactly("1|a", "b|2.5");
        assertThat(rows("SELECT x FROM (VALUES (1), (2.5), (NULL)) AS t(x) WHERE x IN (1, 2.5, 3, 4, 5, 6, 7, 8, 9,"
                + " 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23.5)")).containsExactly("1.0", "2.5");
    }

    @Test
    void comparisonsConvertAsMySqlDoes() {
        assertThat(rows("SELECT 1 = '1', 1 = '1abc', 'abc' = 0, 1.5 = '1.5', 10 > '9', '10' > '9',"
                + " DATE '2026-01-01' = 20260101, DATE '2026-01-01' = '2026-01-01', (1 = 1) = 1, (1 = 1) = 5"))
                .containsExactly("1|1|1|1|1|0|1|1|1|0");
        assertThat(rows("SELECT x FROM (VALUES ('1.5'), ('2'), ('abc')) AS t(x) WHERE x = 2")).containsExactly("2");
        assertThat(rows("SELECT x FROM (VALUES ('1.5'), ('2'), ('abc')) AS t(x) WHERE x < 1")).containsExactly("abc");
    }

    @Test
    void inComparesEachValueByTheRulesOfItsPair() {
        assertThat(rows("SELECT 2 IN (1, '2', 3.5), 3.5 IN (1, '2', 3.5), 'b' IN ('a', 1), '2' IN (1, 2),"
                + " 4 IN (1, '2', 3.5), 'b' NOT IN ('a', 1)")).containsExactly("1|1|0|1|0|1");
        assertThat(rows("SELECT x FROM (VALUES (1), (2), (3)) AS t(x) WHERE x IN ('2', '3abc')")).containsExactly("2",
                "3");
        assertThat(rows("SELECT x FROM (VALUES ('1.0'), ('2')) AS t(x) WHERE x IN (SELECT 1)")).containsExactly("1.0");
    }

    @Test
    void castsAndConvertAsMySql() {
        assertThat(rows("SELECT CAST('12' AS UNSIGNED), CAST(-1 AS UNSIGNED), CAST('1.9' AS SIGNED), CAST(1.5 AS SIGNED),"
                + " CONVERT('12', SIGNED), CONVERT(12, CHAR), CONVERT('abc' USING utf8mb4), CAST(1.567 AS DECIMAL(5,2)),"
                + " CAST(1.567 AS DECIMAL), CAST(123 AS CHAR), CAST(' 12abc' AS SIGNED INTEGER)"))
                .containsExactly("12|18446744073709551615|1|2|12|12|abc|1.57|2|123|12");
        assertThat(rows("SELECT CAST(-1.5 AS SIGNED), CAST('-7' AS UNSIGNED), CAST(1e30 AS SIGNED),"
                + " CONVERT(7, UNSIGNED INTEGER)")).containsExactly("-2|18446744073709551609|9223372036854775807|7");
        assertThat(rows("SELECT CONVERT(1.5, DECIMAL(4,1)), CONVERT('2026-01-01', DATE),"
                + " CONVERT('2026-01-01 10:11:12', DATETIME), CAST('abc' AS DATE), CAST('abc' AS BINARY)"))
                .containsExactly("1.5|2026-01-01|2026-01-01 10:11:12|null|abc");
    }

    @Test
    void arithmeticReadsStringsAsNumbers() {
        assertThat(rows("SELECT '1.5' + 1, '2' * '3', 1 + '1e2', SUM(x > 1) FROM (VALUES (1), (2), (3)) AS t(x)"))
                .containsExactly("2.5|6|101|2");
        assertThat(rows("SELECT 1 + DATE '2020-01-01', DATE '2020-01-02' - DATE '2020-01-01',"
                + " DATE '2020-01-01' + INTERVAL 1 DAY")).containsExactly("20200102|1|2020-01-02");
    }
}
