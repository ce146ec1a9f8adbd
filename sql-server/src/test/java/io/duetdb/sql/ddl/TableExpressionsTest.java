package io.duetdb.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.ddl.SqlCheckConstraint;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlCreateTable;

class TableExpressionsTest {
    private static ColumnInfo column(int id, String name, ColumnExpression expression, boolean autoIncrement) {
        return new ColumnInfo(id, name, id - 1, SqlType.INT, false, false, null, false, autoIncrement, false, "",
                SchemaState.PUBLIC, false, null, expression);
    }

    private static ColumnExpression stored(String text) {
        return new ColumnExpression(text, ColumnExpression.Kind.STORED);
    }

    private static ErrorCode codeOf(Runnable check) {
        try {
            check.run();
        } catch (DuetException e) {
            return e.code();
        }
        return null;
    }

    @Test
    void generatedColumnsReferToExistingColumnsAndEarlierGeneratedOnes() {
        ColumnInfo a = column(1, "a", null, false);
        TableExpressions.checkColumns(List.of(a, column(2, "b", stored("a + 1"), false),
                column(3, "c", stored("b * a"), false)));
        assertThat(codeOf(() -> TableExpressions.checkColumns(List.of(a, column(2, "b", stored("c + 1"), false),
                column(3, "c", stored("a"), false))))).isEqualTo(ErrorCode.GENERATED_COLUMN_NON_PRIOR);
        assertThat(codeOf(() -> TableExpressions.checkColumns(List.of(a, column(2, "b", stored("z"), false)))))
                .isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(codeOf(() -> TableExpressions.checkColumns(List.of(column(1, "a", null, true),
                column(2, "b", stored("a"), false))))).isEqualTo(ErrorCode.GENERATED_COLUMN_REFERS_AUTO_INCREMENT);
        assertThat(codeOf(() -> TableExpressions.checkColumns(List.of(a, column(2, "b", stored("UUID()"), false)))))
                .isEqualTo(ErrorCode.GENERATED_COLUMN_FUNCTION_NOT_ALLOWED);
        // A default may call any function, and read columns defined after it that have no expression default.
        TableExpressions.checkColumns(List.of(column(1, "a",
                new ColumnExpression("RAND() + b", ColumnExpression.Kind.DEFAULT), false), column(2, "b", null, false)));
    }

    @Test
    void unnamedChecksAreNumberedPerTableAndNamesStayUniqueInTheDatabase() {
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT CHECK (a > 0),"
                + " CHECK (a < 9), CONSTRAINT named CHECK (a <> 5))");
        List<SqlCheckConstraint> written = new ArrayList<>();
        List<String> columnOf = new ArrayList<>();
        written.addAll(((SqlColumnDefinition) create.elements().get(0)).checks());
        columnOf.add("a");
        written.add((SqlCheckConstraint) create.elements().get(1));
        columnOf.add(null);
        written.add((SqlCheckConstraint) create.elements().get(2));
        columnOf.add(null);
        Set<String> taken = new HashSet<>(Set.of("t_chk_1"));
        List<CheckConstraint> checks = TableExpressions.checks("t", written, columnOf,
                List.of(column(1, "a", null, false)), taken);
        assertThat(checks).extracting(CheckConstraint::name).containsExactly("t_chk_2", "t_chk_3", "named");
        assertThat(checks).extracting(CheckConstraint::text).containsExactly("a > 0", "a < 9", "a <> 5");
        assertThatThrownBy(() -> TableExpressions.checks("u", List.of(written.get(2)), Arrays.asList(
                (String) null), List.of(column(1, "a", null, false)), taken)).isInstanceOfSatisfying(
                DuetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECK_CONSTRAINT_DUPLICATE_NAME));
    }

    @Test
    void expressionsArePlannedAgainstTheTablesColumns() {
        DatabaseInfo database = new DatabaseInfo(1, "shop");
        TableInfo table = new TableInfo(2, 1, "t", List.of(column(1, "a", null, false),
                column(2, "b", stored("a * 2"), false)), List.of(), null, 3, 1, "", 0, null, 0, false,
                List.of(new CheckConstraint("t_chk_1", "b < 100", true)));
        TableExpressions.plan(database, table);
        TableInfo unknownFunction = table.withChecks(List.of(new CheckConstraint("c", "no_such_function(a) > 1",
                true)));
        assertThatThrownBy(() -> TableExpressions.plan(database, unknownFunction)).isInstanceOf(DuetException.class);
    }
}
