package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.parser.StatementParser;

/** Calcite's validation errors as MySQL 8.0 reports them: its codes and wording, never Calcite's text. */
class ValidationErrorsTest {
    private static final CalciteCatalog CATALOG = new TestSchema()
            .table("t").column("a", SqlType.INT, true).column("b", SqlType.varchar(10), false).primaryKey("a").done()
            .table("u").column("a", SqlType.INT, true).column("c", SqlType.INT, false).primaryKey("a").done()
            .catalog();

    private static DuetException error(String sql) {
        try {
            new QueryPlanner(CATALOG, TestSchema.DATABASE).plan(StatementParser.parse(sql));
        } catch (DuetException e) {
            return e;
        }
        throw new AssertionError("planned: " + sql);
    }

    private static void assertError(String sql, ErrorCode code, String message) {
        DuetException error = error(sql);
        assertThat(error.code()).as(sql).isEqualTo(code);
        assertThat(error.getMessage()).as(sql).isEqualTo(message);
    }

    @Test
    void calciteMessagesAreMatchedToTheirTemplatesWithTheirArguments() {
        assertThat(CalciteMessages.match("Column 'x' not found in table 'T'; did you mean 'y'?")).hasValueSatisfying(
                match -> {
                    assertThat(match.resource()).isEqualTo("columnNotFoundInTableDidYouMean");
                    assertThat(match.arguments()).containsExactly("x", "T", "y");
                });
        assertThat(CalciteMessages.match("Column 'x' not found in any table")).hasValueSatisfying(
                match -> assertThat(match.resource()).isEqualTo("columnNotFound"));
        assertThat(CalciteMessages.match("Invalid number of arguments to function 'ABS'. Was expecting 1 arguments"))
                .hasValueSatisfying(match -> assertThat(match.arguments()).containsExactly("ABS", "1"));
        assertThat(CalciteMessages.match("nothing Calcite says")).isEmpty();
    }

    @Test
    void unknownColumnsNameTheirClause() {
        assertError("SELECT nosuch FROM t", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'nosuch' in 'field list'");
        assertError("SELECT x.nosuch FROM t x", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'x.nosuch' in 'field list'");
        assertError("SELECT y.a FROM t", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'y.a' in 'field list'");
        assertError("SELECT a FROM t WHERE zz = 1", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'zz' in 'where clause'");
        assertError("SELECT a FROM t GROUP BY zz", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'zz' in 'group statement'");
        assertError("SELECT a FROM t ORDER BY zz", ErrorCode.UNKNOWN_COLUMN, "Unknown column 'zz' in 'order clause'");
        assertError("SELECT t.a FROM t JOIN u ON t.a = u.zz", ErrorCode.UNKNOWN_COLUMN,
                "Unknown column 'u.zz' in 'on clause'");
        assertError("SELECT a FROM t WHERE a IN (SELECT zz FROM u)", ErrorCode.UNKNOWN_COLUMN,
                "Unknown column 'zz' in 'field list'");
    }

    @Test
    void tablesAmbiguityAndAliases() {
        assertError("SELECT * FROM nosuch", ErrorCode.UNKNOWN_TABLE, "Table 'db.nosuch' doesn't exist");
        assertError("SELECT a FROM t, u", ErrorCode.NON_UNIQUE_COLUMN, "Column 'a' in field list is ambiguous");
        assertError("SELECT t.a FROM t, u WHERE a = 1", ErrorCode.NON_UNIQUE_COLUMN,
                "Column 'a' in where clause is ambiguous");
        assertError("SELECT x.a FROM t x, u x", ErrorCode.NON_UNIQUE_TABLE, "Not unique table/alias: 'x'");
    }

    @Test
    void functionsUnknownOrCalledWithTheWrongArgumentCount() {
        assertError("SELECT foo(1)", ErrorCode.FUNCTION_DOES_NOT_EXIST, "FUNCTION db.foo does not exist");
        assertThat(error("SELECT foo(1)").code().errorNumber()).isEqualTo(1305);
        assertError("SELECT abs(1, 2)", ErrorCode.WRONG_PARAMETER_COUNT,
                "Incorrect parameter count in the call to native function 'abs'");
        assertThat(error("SELECT abs(1, 2)").code().errorNumber()).isEqualTo(1582);
        assertThat(error("SELECT upper()").code()).isEqualTo(ErrorCode.WRONG_PARAMETER_COUNT);
        assertError("SELECT uncompress('x')", ErrorCode.NOT_SUPPORTED_YET,
                "This version of DuetDB doesn't yet support MySQL's function 'UNCOMPRESS'");
        assertError("SELECT json_extract('{}')", ErrorCode.WRONG_PARAMETER_COUNT,
                "Incorrect parameter count in the call to native function 'json_extract'");
        assertError("SELECT a FROM t WHERE a IN (SELECT a, c FROM u)", ErrorCode.OPERAND_COLUMNS,
                "Operand should contain 1 column(s)");
    }

    @Test
    void aggregatesSetOperationsAndDistinct() {
        assertError("SELECT SUM(SUM(a)) FROM t", ErrorCode.INVALID_GROUP_FUNCTION_USE, "Invalid use of group function");
        assertError("SELECT a FROM t WHERE SUM(a) > 1", ErrorCode.INVALID_GROUP_FUNCTION_USE,
                "Invalid use of group function");
        assertError("SELECT a FROM t UNION SELECT a, c FROM u", ErrorCode.SELECTS_DIFFERENT_COLUMN_COUNTS,
                "The used SELECT statements have a different number of columns");
        assertThat(error("SELECT DISTINCT b FROM t ORDER BY a").code()).isEqualTo(ErrorCode.FIELD_IN_ORDER_NOT_SELECT);
    }

    @Test
    void noMessageCarriesCalcitesWords() {
        for (String sql : List.of("SELECT nosuch FROM t", "SELECT foo(1)", "SELECT abs(1, 2)", "SELECT SUM(SUM(a)) FROM t",
                "SELECT a FROM t UNION SELECT a, c FROM u", "SELECT x.a FROM t x, u x", "SELECT y.a FROM t")) {
            assertThat(error(sql).getMessage()).as(sql).doesNotContain("Calcite", "not found in", "signature",
                    "Was expecting", "cannot be nested", "mismatch");
        }
    }
}
