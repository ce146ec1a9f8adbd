package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.catalog.ViewInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.parser.StatementParser;

class QueryPlannerTest {
    private final QueryPlanner planner = new QueryPlanner(new CalciteCatalog(new InfoSchema(1, List.of(), List.of())), null);

    @Test
    void divisionOfExactNumbersIsDecimalAsInMySql() {
        QueryPlanner.PlannedQuery planned = planner.plan(StatementParser.parse("SELECT 7 / 2, 7.0 / 2, 1.5e0 / 2"));
        assertThat(planned.rowType().getFieldList().get(0).getType().getSqlTypeName())
                .as(RelOptUtil.toString(planned.plan())).isEqualTo(SqlTypeName.DECIMAL);
        assertThat(planned.rowType().getFieldList().get(0).getType().getScale()).isEqualTo(4);
        assertThat(planned.rowType().getFieldList().get(1).getType().getScale()).isEqualTo(5);
        assertThat(planned.rowType().getFieldList().get(2).getType().getSqlTypeName()).isEqualTo(SqlTypeName.DOUBLE);
    }

    @Test
    void dateOfAnExpressionIsADate() {
        QueryPlanner.PlannedQuery planned = planner.plan(StatementParser.parse(
                "SELECT DATE('2026-11-22 10:30:00'), DATE(TIMESTAMP '2026-11-22 10:30:00'), DATE '2026-11-22'"));
        for (int i = 0; i < 3; i++) {
            assertThat(planned.rowType().getFieldList().get(i).getType().getSqlTypeName())
                    .as(RelOptUtil.toString(planned.plan())).isEqualTo(SqlTypeName.DATE);
        }
    }

    @Test
    void aColumnNamedValueIsAColumnEvenWhereAQueryMayStart() {
        QueryPlanner.PlannedQuery planned = planner.plan(StatementParser.parse(
                "SELECT SUM(value), MAX(value) FROM (SELECT 1 AS value) t"));
        assertThat(planned.rowType().getFieldCount()).isEqualTo(2);
    }

    @Test
    void anEnumOrSetColumnInANumericContextIsItsPlaceOrBits() {
        ColumnInfo id = new ColumnInfo(1, "id", 0, SqlType.INT, true, false, null, false, false, false, "",
                SchemaState.PUBLIC);
        ColumnInfo size = new ColumnInfo(2, "size", 1, SqlType.withElements(io.duetdb.common.types.SqlTypeName.ENUM,
                List.of("s", "m", "l")), false, false, null, false, false, false, "", SchemaState.PUBLIC);
        ColumnInfo label = new ColumnInfo(3, "label", 2, SqlType.varchar(9), false, false, null, false, false, false,
                "", SchemaState.PUBLIC);
        InfoSchema schema = new InfoSchema(1, List.of(new DatabaseInfo(1, "db")), List.of(new TableInfo(10, 1, "t",
                List.of(id, size, label), List.of(), null, 4, 1, "", 0)));
        QueryPlanner planner = new QueryPlanner(new CalciteCatalog(schema), "db");
        String numeric = RelOptUtil.toString(planner.plan(StatementParser.parse(
                "SELECT size + 0, label + 0 FROM t WHERE size = 2")).plan());
        assertThat(numeric).contains("CAST(CASE(IS NULL($1), null:BIGINT, FIELD($1, ", "EXPR$1=[CAST($2):DOUBLE]");
        // Text stays text, and other text columns convert their text.
        String text = RelOptUtil.toString(planner.plan(StatementParser.parse(
                "SELECT label + 0 FROM t WHERE size = 'm'")).plan());
        assertThat(text).doesNotContain("FIELD");
    }

    @Test
    void aColumnNamedUserIsTheColumnAndUserWithParenthesesTheFunction() {
        ColumnInfo user = new ColumnInfo(1, "user", 0, SqlType.varchar(20), false, false, null, false, false, false,
                "", SchemaState.PUBLIC);
        InfoSchema schema = new InfoSchema(1, List.of(new DatabaseInfo(1, "db")), List.of(new TableInfo(10, 1, "user",
                List.of(user), List.of(), null, 2, 1, "", 0)));
        QueryPlanner.PlannedQuery planned = new QueryPlanner(new CalciteCatalog(schema), "db").plan(StatementParser.parse(
                "SELECT user, user.user, USER() FROM user WHERE user.user = 'x'"));
        assertThat(RelOptUtil.toString(planned.plan())).contains("user=[$0], user0=[$0], EXPR$2=[USER()]")
                .contains("condition=[=($0, _UTF-8'x')]");
    }

    @Test
    void anInListOfTuplesOfPlaceholdersPlans() {
        TableInfo t = new TableInfo(10, 1, "t", List.of(intColumn(1, "a"), intColumn(2, "b")), List.of(), null, 3, 1,
                "", 0);
        QueryPlanner tuples = new QueryPlanner(new CalciteCatalog(new InfoSchema(1, List.of(new DatabaseInfo(1, "db")),
                List.of(t))), "db");
        for (String sql : List.of("SELECT a FROM t WHERE (a, b) IN ((?, ?), (?, ?), (?, ?))",
                "SELECT a FROM t WHERE (a, b) IN ((?, ?))", "SELECT a FROM t WHERE a IN (?, ?, ?)")) {
            QueryPlanner.PlannedQuery planned = tuples.plan(StatementParser.parse(sql));
            assertThat(RelOptUtil.toString(planned.plan())).as(sql).contains("?0");
        }
    }

    private static ColumnInfo intColumn(int id, String name) {
        return new ColumnInfo(id, name, id - 1, new SqlType(io.duetdb.common.types.SqlTypeName.INT, 11, 0, false),
                false, false, null, false, false, false, "", SchemaState.PUBLIC);
    }

    /** Database db: table t (a, b), view v (x, y) of {@code definition} with {@code security}, view w over v. */
    private static QueryPlanner viewPlanner(String definition, String security) {
        TableInfo t = new TableInfo(10, 1, "t", List.of(intColumn(1, "a"), intColumn(2, "b")), List.of(), null, 3, 1,
                "", 0);
        TableInfo v = TableInfo.view(11, 1, "v", List.of(intColumn(1, "x"), intColumn(2, "y")), new ViewInfo(definition,
                "db", "UNDEFINED", "root@%", security, "NONE", "utf8mb4", "utf8mb4_bin"));
        TableInfo w = TableInfo.view(12, 1, "w", List.of(intColumn(1, "x")), new ViewInfo("SELECT x FROM v", "db",
                "UNDEFINED", "root@%", "DEFINER", "NONE", "utf8mb4", "utf8mb4_bin"));
        return new QueryPlanner(new CalciteCatalog(new InfoSchema(1, List.of(new DatabaseInfo(1, "db")),
                List.of(t, v, w))), "db");
    }

    @Test
    void aViewIsReplacedByItsQuerysPlanWithTheViewsColumnNames() {
        QueryPlanner.PlannedQuery planned = viewPlanner("SELECT a, b FROM t WHERE b > 0", "DEFINER")
                .plan(StatementParser.parse("SELECT y FROM v WHERE x = 3"));
        String plan = RelOptUtil.toString(planned.plan());
        assertThat(plan).doesNotContain("[db, v]").contains("LogicalTableScan(table=[[db, t]])");
        // The view's filter and the query's meet over the table's scan.
        assertThat(plan).contains(">($1, 0)").contains("=($0, 3)");
        assertThat(planned.rowType().getFieldNames()).containsExactly("y");
        // A DEFINER view's tables are not the reader's to be checked: only the view is.
        assertThat(planned.reads()).containsExactly(new QueryPlanner.TableRead("db", "v", true));
    }

    @Test
    void anInvokerViewsTablesAreCheckedAgainstItsReader() {
        QueryPlanner.PlannedQuery planned = viewPlanner("SELECT a, b FROM t", "INVOKER")
                .plan(StatementParser.parse("SELECT COUNT(*) FROM w"));
        // w (DEFINER) is read; what w reads is its definer's: v and t are not the reader's.
        assertThat(planned.reads()).containsExactly(new QueryPlanner.TableRead("db", "w", true));
        QueryPlanner.PlannedQuery direct = viewPlanner("SELECT a, b FROM t", "INVOKER")
                .plan(StatementParser.parse("SELECT COUNT(*) FROM v"));
        assertThat(direct.reads()).containsExactly(new QueryPlanner.TableRead("db", "v", true),
                new QueryPlanner.TableRead("db", "t", false));
    }

    @Test
    void aViewWhoseQueryNoLongerValidatesIs1356AndOneThatReadsItselfIs1462() {
        assertThatThrownBy(() -> viewPlanner("SELECT a, gone FROM t", "DEFINER").plan(StatementParser.parse(
                "SELECT * FROM v"))).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.VIEW_INVALID));
        assertThatThrownBy(() -> viewPlanner("SELECT x, x AS y FROM w", "DEFINER").plan(StatementParser.parse(
                "SELECT * FROM v"))).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.VIEW_RECURSIVE));
    }

    @Test
    void integerDivisionBindsAsTightlyAsMultiplication() {
        QueryPlanner.PlannedQuery planned = planner.plan(StatementParser.parse("SELECT 1 + 7 DIV 2 * 2"));
        assertThat(RelOptUtil.toString(planned.plan())).contains("+(1, *(DIV(7, 2), 2))");
        assertThat(planned.rowType().getFieldList().get(0).getType().getSqlTypeName()).isEqualTo(SqlTypeName.BIGINT);
    }
}
