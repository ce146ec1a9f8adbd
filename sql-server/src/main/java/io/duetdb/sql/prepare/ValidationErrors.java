package io.duetdb.sql.prepare;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Calcite's validation messages turned into MySQL's errors. */
final class ValidationErrors {
    private static final Pattern UNKNOWN_COLUMN = Pattern.compile("Column '([^']+)' not found in (any table|table '([^']+)')");
    private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found(?: within '([^']+)')?");
    private static final Pattern NOT_GROUPED = Pattern.compile("Expression '(.*)' is not being grouped");
    private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']+)' is ambiguous");

    private ValidationErrors() {
    }

    /** {@code defaultDatabase} (null if none) qualifies an unknown table's name, as MySQL's message does. */
    static DuetException translate(CalciteContextException error, String defaultDatabase,
            List<GroupByRewrite.Violation> groupViolations) {
        String message = error.getCause() != null && error.getCause().getMessage() != null
                ? error.getCause().getMessage() : String.valueOf(error.getMessage());
        Matcher notGrouped = NOT_GROUPED.matcher(message);
        if (notGrouped.matches()) {
            return notGrouped(error, notGrouped.group(1), groupViolations);
        }
        Matcher matcher = UNKNOWN_COLUMN.matcher(message);
        if (matcher.find()) {
            String where = matcher.group(3) == null ? "field list" : matcher.group(3);
            return new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + matcher.group(1) + "' in '"
                    + where + "'", error);
        }
        matcher = UNKNOWN_TABLE.matcher(message);
        if (matcher.find()) {
            String database = matcher.group(2) != null ? matcher.group(2)
                    : matcher.group(1).contains(".") ? null : defaultDatabase;
            return new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + (database == null ? "" : database + ".")
                    + matcher.group(1) + "' doesn't exist", error);
        }
        matcher = AMBIGUOUS.matcher(message);
        if (matcher.find()) {
            return new DuetException(ErrorCode.NON_UNIQUE_COLUMN, "Column '" + matcher.group(1)
                    + "' in field list is ambiguous", error);
        }
        if (message.contains("RANGE clause")) {
            // Calcite's "Data type of ORDER BY prohibits use of RANGE clause" and its kind: MySQL's own error.
            return new DuetException(ErrorCode.WINDOW_RANGE_FRAME_ORDER_TYPE, "A window with a RANGE N PRECEDING or"
                    + " FOLLOWING frame requires exactly one ORDER BY expression, of numeric type: " + message, error);
        }
        return new DuetException(ErrorCode.UNKNOWN_ERROR, message, error);
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
                + " clause and contains nonaggregated column '" + expression + "' which is not functionally dependent"
                + " on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by", error);
    }
}
