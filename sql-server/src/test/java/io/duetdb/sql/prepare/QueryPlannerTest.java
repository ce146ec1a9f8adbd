package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import io.duetdb.sql.catalog.ColumnInfo;
import io.duetdb.sql.catalog.DatabaseInfo;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.SchemaState;
import io.duetdb.sql.catalog.TableInfo;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.types.SqlType;

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
    void integerDivisionBindsAsTightlyAsMultiplication() {
        QueryPlanner.PlannedQuery planned = planner.plan(StatementParser.parse("SELECT 1 + 7 DIV 2 * 2"));
        assertThat(RelOptUtil.toString(planned.plan())).contains("+(1, *(DIV(7, 2), 2))");
        assertThat(planned.rowType().getFieldList().get(0).getType().getSqlTypeName()).isEqualTo(SqlTypeName.BIGINT);
    }
}
