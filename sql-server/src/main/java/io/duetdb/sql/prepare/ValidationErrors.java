package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Calcite's validation errors as MySQL's: the message is matched to its {@code CalciteResource} template
 * ({@link CalciteMessages}) and answered with MySQL's code and wording, naming the column, table, function or
 * clause the way MySQL does (from the query at the error's position). A message without a MySQL counterpart is
 * 1235, naming the SQL that is not supported; no Calcite text reaches the client.
 */
final class ValidationErrors {
    /** The query being validated and what its messages need: the session's database and the known functions. */
    record Context(SqlNode query, String defaultDatabase, List<GroupByRewrite.Violation> groupViolations,
            SqlOperatorTable operators) {
        Context {
            requireNonNull(query, "query is null");
            groupViolations = List.copyOf(requireNonNull(groupViolations, "groupViolations is null"));
            requireNonNull(operators, "operators is null");
        }
    }

    private static final int LONGEST_QUOTED_SQL = 200;

    private ValidationErrors() {
    }

    static DuetException translate(CalciteContextException error, Context context) {
        String message = error.getCause() != null && error.getCause().getMessage() != null
                ? error.getCause().getMessage() : String.valueOf(error.getMessage());
        Optional<CalciteMessages.Match> match = CalciteMessages.match(message);
        if (match.isEmpty()) {
            return unsupported(error, context);
        }
        CalciteMessages.Match found = match.get();
        int line = error.getPosLine();
        int column = error.getPosColumn();
        return switch (found.resource()) {
            case "columnNotFound", "columnNotFoundDidYouMean", "columnNotFoundInTable",
                    "columnNotFoundInTableDidYouMean", "tableNameNotFound", "tableNameNotFoundDidYouMean",
                    "tableNotFound", "unknownIdentifier", "unknownField" -> new DuetException(ErrorCode.UNKNOWN_COLUMN,
                    "Unknown column '" + written(context, line, column, found.argument(0)) + "' in '"
                            + QueryPositions.clauseAt(context.query(), line, column) + "'", error);
            // Calcite says "Table 'x' not found" of the qualifier of a column (x.c); of a FROM item "Object 'x' ...".
            case "objectNotFound", "objectNotFoundWithin", "objectNotFoundDidYouMean", "objectNotFoundWithinDidYouMean"
                    -> unknownTable(error, context, found);
            case "columnAmbiguous" -> new DuetException(ErrorCode.NON_UNIQUE_COLUMN, "Column '"
                    + written(context, line, column, found.argument(0)) + "' in "
                    + QueryPositions.clauseAt(context.query(), line, column) + " is ambiguous", error);
            case "fromAliasDuplicate", "aliasListDuplicate" -> new DuetException(ErrorCode.NON_UNIQUE_TABLE,
                    "Not unique table/alias: '" + found.argument(0) + "'", error);
            case "validatorUnknownFunction" -> unknownFunction(error, context, found.argument(0));
            case "invalidArgCount" -> wrongArgumentCount(error, found.argument(0));
            case "canNotApplyOp2Type", "incompatibleValueType" -> subQueryOfSeveralColumns(context, line, column)
                    ? new DuetException(ErrorCode.OPERAND_COLUMNS, "Operand should contain 1 column(s)", error)
                    : new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to "
                            + operation(context, line, column), error);
            case "typeNotComparable", "typeNotComparableNear", "typeNotComparableEachOther",
                    "needSameTypeParameter", "wrongNumOfArguments", "illegalMixingOfTypes", "incompatibleTypesInList", "cannotCastValue" -> new DuetException(ErrorCode.WRONG_ARGUMENTS,
                    "Incorrect arguments to " + operation(context, line, column), error);
            case "notGroupExpr" -> notGrouped(error, found.argument(0), context.groupViolations());
            case "notSelectDistinctExpr" -> new DuetException(ErrorCode.FIELD_IN_ORDER_NOT_SELECT, "Expression #1 of"
                    + " ORDER BY clause is not in SELECT list, references column '" + found.argument(0).replace("`", "")
                    + "' which is not in SELECT list; this is incompatible with DISTINCT", error);
            case "aggregateIllegalInClause", "nestedAggIllegal", "windowedAggregateIllegalInClause",
                    "aggregateIllegalInOrderBy", "aggregateInFilterIllegal" -> new DuetException(
                    ErrorCode.INVALID_GROUP_FUNCTION_USE, "Invalid use of group function", error);
            case "columnCountMismatchInSetop" -> new DuetException(ErrorCode.SELECTS_DIFFERENT_COLUMN_COUNTS,
                    "The used SELECT statements have a different number of columns", error);
            case "windowNotFound" -> new DuetException(ErrorCode.WINDOW_NOT_DEFINED, "Window name '"
                    + found.argument(0) + "' is not defined.", error);
            case "orderByDataTypeProhibitsRange", "orderByRangeMismatch", "dateRequiresInterval" -> new DuetException(
                    ErrorCode.WINDOW_RANGE_FRAME_ORDER_TYPE, "Window '<unnamed window>' with RANGE N PRECEDING/FOLLOWING"
                    + " frame requires exactly one ORDER BY expression, of numeric or temporal type", error);
            default -> unsupported(error, context);
        };
    }

    /** The identifier at the error as the query writes it (qualified as written), else the message's name. */
    private static String written(Context context, int line, int column, String fallback) {
        return QueryPositions.identifierAt(context.query(), line, column)
                .map(identifier -> String.join(".", identifier.names)).orElse(fallback);
    }

    private static DuetException unknownTable(CalciteContextException error, Context context,
            CalciteMessages.Match found) {
        String name = found.argument(0);
        String database = found.resource().startsWith("objectNotFoundWithin") ? found.argument(1)
                : name.contains(".") ? null : context.defaultDatabase();
        return new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + (database == null ? "" : database + ".") + name
                + "' doesn't exist", error);
    }

    /**
     * No function of the name at all is MySQL's 1305 (FUNCTION db.name does not exist); one of the name with other
     * arguments is 1582 (wrong parameter count); one of MySQL's that DuetDB lacks is 1235.
     */
    private static DuetException unknownFunction(CalciteContextException error, Context context, String signature) {
        int parenthesis = signature.indexOf('(');
        String name = parenthesis < 0 ? signature : signature.substring(0, parenthesis);
        List<SqlOperator> overloads = new ArrayList<>();
        context.operators().lookupOperatorOverloads(new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, overloads,
                SqlNameMatchers.withCaseSensitive(false));
        if (!overloads.isEmpty()) {
            return wrongArgumentCount(error, name);
        }
        if (MySqlBuiltinFunctions.contains(name)) {
            return new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support"
                    + " MySQL's function '" + name.toUpperCase(Locale.ROOT) + "'", error);
        }
        String database = context.defaultDatabase();
        return new DuetException(ErrorCode.FUNCTION_DOES_NOT_EXIST, "FUNCTION " + (database == null ? "" : database + ".")
                + name + " does not exist", error);
    }

    private static DuetException wrongArgumentCount(CalciteContextException error, String name) {
        return new DuetException(ErrorCode.WRONG_PARAMETER_COUNT, "Incorrect parameter count in the call to native"
                + " function '" + name.toLowerCase(Locale.ROOT) + "'", error);
    }

    /** Whether the call at the error compares a value with a sub-query of more than one column (x IN (SELECT a, b)). */
    private static boolean subQueryOfSeveralColumns(Context context, int line, int column) {
        return QueryPositions.callAt(context.query(), line, column).filter(call -> call.operandCount() == 2
                && call.operand(0).getKind() != org.apache.calcite.sql.SqlKind.ROW
                && call.operand(1) instanceof org.apache.calcite.sql.SqlSelect select
                && select.getSelectList().size() > 1).isPresent();
    }

    /** The operator or function at the error, by name. */
    private static String operation(Context context, int line, int column) {
        SqlNode node = QueryPositions.callAt(context.query(), line, column).orElse(null);
        return node instanceof org.apache.calcite.sql.SqlCall call ? call.getOperator().getName() : "this expression";
    }

    /** MySQL's 1235 for a query Calcite failed on outside validation, naming the query. */
    static DuetException unsupported(SqlNode query, RuntimeException cause) {
        String text = query.toSqlString(MysqlSqlDialect.DEFAULT).getSql().replaceAll("\\s+", " ");
        if (text.length() > LONGEST_QUOTED_SQL) {
            text = text.substring(0, LONGEST_QUOTED_SQL) + "...";
        }
        return new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support '" + text
                + "'", cause);
    }

    /** MySQL's 1235 naming what is not supported: the SQL at the error's position. */
    private static DuetException unsupported(CalciteContextException error, Context context) {
        String what = QueryPositions.callAt(context.query(), error.getPosLine(), error.getPosColumn())
                .map(node -> node.toSqlString(MysqlSqlDialect.DEFAULT).getSql().replaceAll("\\s+", " "))
                .orElse("this statement");
        return new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support '" + what
                + "'", error);
    }

    /** MySQL's 1055 (or 1140) for the column the validator found ungrouped, as {@link GroupByRewrite} saw it. */
    private static DuetException notGrouped(CalciteContextException error, String expression,
            List<GroupByRewrite.Violation> violations) {
        for (GroupByRewrite.Violation violation : violations) {
            if (violation.position().getLineNum() == error.getPosLine()
                    && violation.position().getColumnNum() == error.getPosColumn()) {
                return violation.error();
            }
        }
        if (!violations.isEmpty()) {
            return violations.get(0).error();
        }
        return new DuetException(ErrorCode.WRONG_FIELD_WITH_GROUP, "Expression #1 of SELECT list is not in GROUP BY"
                + " clause and contains nonaggregated column '" + expression.replace("`", "") + "' which is not"
                + " functionally dependent on columns in GROUP BY clause; this is incompatible with"
                + " sql_mode=only_full_group_by", error);
    }
}
