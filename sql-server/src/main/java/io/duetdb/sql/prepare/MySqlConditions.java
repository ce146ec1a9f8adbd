package io.duetdb.sql.prepare;

import java.util.EnumSet;
import java.util.Set;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import io.duetdb.sql.parser.MySqlOperators;

/**
 * MySQL's truth values on the parsed query, before validation: wherever MySQL expects a condition (WHERE, ON,
 * HAVING, the operands of AND, OR, NOT, XOR and IS [NOT] TRUE/FALSE, CASE WHEN; IF is a CASE by then) an expression that is not a truth
 * value by its form (a column, a number, a string, a function call) is wrapped in {@link DuetFunctions#TRUTH},
 * which the validator types as a truth value and the converter turns into {@code x <> 0} for numbers
 * ({@code MySqlConvertlets}). Comparisons, IS, LIKE, IN, BETWEEN, EXISTS and the logical operators are left as
 * they are.
 */
public final class MySqlConditions {
    private static final Set<SqlKind> TRUTH_VALUED = EnumSet.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT,
            SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.IS_NULL,
            SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_FALSE,
            SqlKind.IS_UNKNOWN, SqlKind.LIKE, SqlKind.SIMILAR, SqlKind.RLIKE, SqlKind.BETWEEN,
            SqlKind.IN, SqlKind.NOT_IN, SqlKind.SOME, SqlKind.ALL, SqlKind.EXISTS, SqlKind.POSIX_REGEX_CASE_SENSITIVE,
            SqlKind.POSIX_REGEX_CASE_INSENSITIVE);

    /** Calls whose operands are conditions. */
    private static final Set<SqlKind> WRAPPING_OPERANDS = EnumSet.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT,
            SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_FALSE);

    private MySqlConditions() {
    }

    /** Wraps the conditions of {@code query} (every SELECT, join and expression in it) in place. */
    static void wrapConditions(SqlNode query) {
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                wrapOperands(call);
                return super.visit(call);
            }
        });
    }

    /** {@code condition} as a truth value: itself when it is one by its form, else wrapped in the truth function. */
    public static SqlNode condition(SqlNode condition) {
        if (condition == null || isTruthValued(condition)) {
            return condition;
        }
        return DuetFunctions.TRUTH.createCall(condition.getParserPosition(), condition);
    }

    private static void wrapOperands(SqlCall call) {
        if (call instanceof SqlSelect select) {
            select.setWhere(condition(select.getWhere()));
            select.setHaving(condition(select.getHaving()));
        } else if (call instanceof SqlJoin join) {
            if (join.getConditionType() == JoinConditionType.ON) {
                join.setOperand(5, condition(join.getCondition()));
            }
        } else if (call instanceof SqlCase sqlCase) {
            if (sqlCase.getValueOperand() == null) {
                SqlNodeList whens = sqlCase.getWhenOperands();
                for (int i = 0; i < whens.size(); i++) {
                    whens.set(i, condition(whens.get(i)));
                }
            }
        } else if (WRAPPING_OPERANDS.contains(call.getKind()) || call.getOperator() == MySqlOperators.XOR) {
            for (int i = 0; i < call.operandCount(); i++) {
                call.setOperand(i, condition(call.operand(i)));
            }
        }
    }

    private static boolean isTruthValued(SqlNode node) {
        if (node instanceof SqlLiteral literal) {
            return literal.getTypeName() == SqlTypeName.BOOLEAN;
        }
        if (!(node instanceof SqlCall call)) {
            return false;
        }
        return TRUTH_VALUED.contains(call.getKind()) || call.getOperator() == MySqlOperators.XOR
                || call.getOperator() == DuetFunctions.TRUTH;
    }
}
