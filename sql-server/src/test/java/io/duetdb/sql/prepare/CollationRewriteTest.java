package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.plan.RelOptUtil;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.parser.StatementParser;

class CollationRewriteTest {
    private final QueryPlanner planner = new QueryPlanner(new TestSchema()
            .table("people")
            .column("id", SqlType.INT, true)
            .column("name", SqlType.varchar(20).withCollation(Collation.UTF8MB4_GENERAL_CI), false)
            .column("code", SqlType.varchar(20), false)
            .column("title", SqlType.varchar(20).withCollation(Collation.UTF8MB4_UNICODE_CI), false)
            .column("profile", SqlType.JSON, false)
            .primaryKey("id")
            .done()
            .table("codes")
            .column("code", SqlType.varchar(10).withCollation(Collation.UTF8MB4_GENERAL_CI), true)
            .primaryKey("code")
            .done()
            .catalog(), TestSchema.DATABASE);

    private String plan(String sql) {
        return RelOptUtil.toString(planner.plan(StatementParser.parse(sql)).plan());
    }

    @Test
    void comparesCollatedTextBySortKeys() {
        assertThat(plan("SELECT id FROM people WHERE name = 'ALICE'"))
                .contains("DUET_COLLATION_KEY($1, _UTF-8'utf8mb4_general_ci')")
                .containsPattern("DUET_COLLATION_KEY\\(_UTF-8'ALICE'[^,]*, _UTF-8'utf8mb4_general_ci'\\)");
        assertThat(plan("SELECT id FROM people WHERE name IN ('a', 'b')")).contains("DUET_COLLATION_KEY(");
        assertThat(plan("SELECT id FROM people WHERE name LIKE 'a%'")).contains("DUET_COLLATION_FOLD(");
    }

    @Test
    void leavesBinaryTextAlone() {
        assertThat(plan("SELECT id FROM people WHERE code = 'x' ORDER BY code")).doesNotContain("DUET_COLLATION");
        // An explicit utf8mb4_bin wins over a column's collation.
        assertThat(plan("SELECT id FROM people WHERE code COLLATE utf8mb4_bin = name")).doesNotContain("DUET_COLLATION");
    }

    @Test
    void explicitCollateDecides() {
        assertThat(plan("SELECT id FROM people WHERE code COLLATE utf8mb4_general_ci = 'X'"))
                .contains("'utf8mb4_general_ci')");
        assertThat(plan("SELECT id FROM people WHERE name = 'x' COLLATE utf8mb4_bin")).doesNotContain("DUET_COLLATION");
    }

    @Test
    void sortsAndGroupsBySortKeys() {
        assertThat(plan("SELECT name FROM people ORDER BY name")).contains("LogicalSort(sort0=[$1]")
                .contains("DUET_COLLATION_KEY($1");
        assertThat(plan("SELECT name, COUNT(*) FROM people GROUP BY name")).contains("MIN($0)");
        assertThat(plan("SELECT name FROM people UNION SELECT code FROM codes")).contains("LogicalUnion(all=[true])")
                .contains("MIN($0)");
        assertThat(plan("SELECT COUNT(DISTINCT name) FROM people")).contains("COUNT(DISTINCT $1)")
                .contains("DUET_COLLATION_KEY($1");
    }

    @Test
    void sortsJsonByItsSortKey() {
        assertThat(plan("SELECT id FROM people ORDER BY profile")).contains("JSON_SORT_KEY($4)");
        assertThat(plan("SELECT id FROM people ORDER BY JSON_EXTRACT(profile, '$.a') DESC")).contains("JSON_SORT_KEY(");
        assertThat(plan("SELECT id FROM people ORDER BY JSON_UNQUOTE(JSON_EXTRACT(profile, '$.a'))"))
                .doesNotContain("JSON_SORT_KEY");
        assertThat(plan("SELECT profile, COUNT(*) FROM people GROUP BY profile")).contains("JSON_SORT_KEY($4)")
                .contains("MIN($0)");
        assertThat(plan("SELECT COUNT(DISTINCT profile) FROM people")).contains("JSON_SORT_KEY($4)");
    }

    @Test
    void joinsOnSortKeysOfTheirInputs() {
        assertThat(plan("SELECT id FROM people JOIN codes ON people.name = codes.code"))
                .containsPattern("LogicalJoin\\(condition=\\[=\\(\\$\\d+, \\$\\d+\\)\\]")
                .contains("DUET_COLLATION_KEY(");
    }

    @Test
    void conflictingCollationsAreMySqlsError() {
        assertThatThrownBy(() -> plan("SELECT id FROM people WHERE name = title"))
                .isInstanceOfSatisfying(DuetException.class, error -> assertThat(error.code().errorNumber())
                        .isEqualTo(1267));
        assertThatThrownBy(() -> plan("SELECT id FROM people WHERE name = 'x' COLLATE utf8mb4_nonesuch"))
                .isInstanceOfSatisfying(DuetException.class, error -> assertThat(error.code().errorNumber())
                        .isEqualTo(1273));
    }
}
