package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.plan.RelOptUtil;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.parser.StatementParser;

/** MySQL 5.7.5+'s GROUP BY with functional dependencies, and without ONLY_FULL_GROUP_BY any column. */
class GroupByRewriteTest {
    private static final CalciteCatalog CATALOG = new TestSchema()
            .table("warehouse").column("w_id", SqlType.INT, true).column("w_ytd", SqlType.decimal(12, 2), false)
            .column("w_name", SqlType.varchar(10), false).primaryKey("w_id").done()
            .table("history").column("h_w_id", SqlType.INT, false).column("h_amount", SqlType.decimal(6, 2), false)
            .done()
            .table("t").column("a", SqlType.INT, true).column("b", SqlType.INT, false).column("u", SqlType.INT, true)
            .column("n", SqlType.INT, false).primaryKey("a").unique("u_key", "u").unique("n_key", "n").done()
            .catalog();

    private static QueryPlanner.PlannedQuery plan(String sql) {
        return plan(sql, SqlMode.DEFAULT);
    }

    private static QueryPlanner.PlannedQuery plan(String sql, SqlMode mode) {
        return new QueryPlanner(CATALOG, TestSchema.DATABASE, mode).plan(StatementParser.parse(sql));
    }

    private static DuetException planningError(String sql) {
        try {
            plan(sql);
        } catch (DuetException e) {
            return e;
        }
        throw new AssertionError("planned: " + sql);
    }

    @Test
    void columnsOfATableWhosePrimaryKeyIsGroupedMayBeSelected() {
        QueryPlanner.PlannedQuery planned = plan("SELECT count(*) cn FROM (SELECT w_id, w_ytd, SUM(h_amount) sm"
                + " FROM history, warehouse WHERE h_w_id = w_id AND w_id = ? GROUP BY w_id) t1 WHERE w_ytd <> sm");
        assertThat(RelOptUtil.toString(planned.plan())).contains("MIN(");
        assertThat(plan("SELECT w_id, w_name, w_ytd + 1 FROM warehouse GROUP BY w_id").rowType().getFieldNames())
                .startsWith("w_id", "w_name");
    }

    @Test
    void aColumnNeitherGroupedNorDependentIsMySqlsError1055() {
        DuetException error = planningError("SELECT h_w_id, h_amount FROM history GROUP BY h_w_id");
        assertThat(error.code()).isEqualTo(ErrorCode.WRONG_FIELD_WITH_GROUP);
        assertThat(error.getMessage()).isEqualTo("Expression #2 of SELECT list is not in GROUP BY clause and contains"
                + " nonaggregated column 'db.history.h_amount' which is not functionally dependent on columns in GROUP"
                + " BY clause; this is incompatible with sql_mode=only_full_group_by");
        assertThat(planningError("SELECT w_id FROM warehouse w JOIN history h ON h.h_w_id = w.w_id GROUP BY w_id"
                + " ORDER BY h.h_amount").getMessage()).startsWith("Expression #1 of ORDER BY clause is not in GROUP BY"
                + " clause and contains nonaggregated column 'db.h.h_amount'");
        assertThat(planningError("SELECT h_w_id FROM history GROUP BY h_w_id HAVING h_amount > 1").getMessage())
                .startsWith("Expression #1 of HAVING clause");
    }

    @Test
    void withoutGroupByAnAggregatingSelectMayNotSelectAColumnUnlessItIsFixed() {
        DuetException error = planningError("SELECT b, COUNT(*) FROM t");
        assertThat(error.code()).isEqualTo(ErrorCode.MIX_OF_GROUP_FUNC_AND_FIELDS);
        assertThat(error.getMessage()).isEqualTo("In aggregated query without GROUP BY, expression #1 of SELECT list"
                + " contains nonaggregated column 'db.t.b'; this is incompatible with sql_mode=only_full_group_by");
        plan("SELECT b, COUNT(*) FROM t WHERE a = 5");
        plan("SELECT b, COUNT(*) FROM t WHERE -7 = a");
    }

    @Test
    void uniqueKeysCountOnlyWhenTheirColumnsAreNotNull() {
        plan("SELECT u, b FROM t GROUP BY u");
        assertThat(planningError("SELECT n, b FROM t GROUP BY n").code()).isEqualTo(ErrorCode.WRONG_FIELD_WITH_GROUP);
    }

    @Test
    void equalitiesCarryDependenciesAcrossJoinsAndOuterJoinsOnlyFromTheirPreservedSide() {
        plan("SELECT w_name, SUM(h_amount) FROM history JOIN warehouse ON h_w_id = w_id GROUP BY h_w_id");
        plan("SELECT w_name, SUM(h_amount) FROM history LEFT JOIN warehouse ON h_w_id = w_id GROUP BY h_w_id");
        assertThat(planningError("SELECT w_name FROM warehouse LEFT JOIN history ON w_id = h_w_id GROUP BY h_w_id")
                .code()).isEqualTo(ErrorCode.WRONG_FIELD_WITH_GROUP);
        // A column grouped by an alias or by ordinal determines the same.
        plan("SELECT w_id AS k, w_name FROM warehouse GROUP BY k");
        plan("SELECT w_id, w_name FROM warehouse GROUP BY 1");
    }

    @Test
    void havingAndOrderByMayUseDependentColumnsAndSelectAliases() {
        plan("SELECT w_id, w_name AS label FROM warehouse GROUP BY w_id HAVING w_ytd > 0 ORDER BY w_name, label");
    }

    @Test
    void withoutOnlyFullGroupByAnyColumnIsAccepted() {
        SqlMode lenient = SqlMode.of("STRICT_TRANS_TABLES");
        assertThat(plan("SELECT h_w_id, h_amount FROM history GROUP BY h_w_id", lenient).rowType().getFieldNames())
                .containsExactly("h_w_id", "h_amount");
        plan("SELECT b, COUNT(*) FROM t", SqlMode.of(""));
    }

    @Test
    void aStarStandsForItsColumnsWhenTheKeyIsGrouped() {
        assertThat(plan("SELECT * FROM warehouse GROUP BY w_id").rowType().getFieldNames())
                .containsExactly("w_id", "w_ytd", "w_name");
        assertThat(plan("SELECT w.*, COUNT(*) FROM warehouse w JOIN history h ON h.h_w_id = w.w_id GROUP BY w.w_id")
                .rowType().getFieldNames()).containsExactly("w_id", "w_ytd", "w_name", "EXPR$3");
        assertThat(planningError("SELECT * FROM history GROUP BY h_w_id").code())
                .isEqualTo(ErrorCode.WRONG_FIELD_WITH_GROUP);
    }

    @Test
    void anyValueSuppressesTheCheckAndIsNoAggregateByItself() {
        plan("SELECT h_w_id, ANY_VALUE(h_amount) FROM history GROUP BY h_w_id");
        assertThat(RelOptUtil.toString(plan("SELECT ANY_VALUE(h_amount) FROM history").plan()))
                .doesNotContain("Aggregate");
    }
}
