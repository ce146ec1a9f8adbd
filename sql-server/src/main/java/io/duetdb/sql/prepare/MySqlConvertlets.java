package io.duetdb.sql.prepare;

import org.apache.calcite.rel.type.RelDataType;
import java.util.Set;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import io.duetdb.common.error.DuetException;
import io.duetdb.sql.exec.Values;
import io.duetdb.sql.parser.MySqlOperators;

/**
 * Calcite's conversion of calls into row expressions, with MySQL's truth values: {@link DuetFunctions#TRUTH} of a
 * truth value is the value, of a number {@code x <> 0} (which Calcite simplifies and the stores evaluate), of
 * anything else the truth function itself (evaluated by the SQL layer); {@code a XOR b} is {@code a <> b} of the
 * two truth values; a date compared with a string that reads as no date compares with MySQL's zero date.
 */
final class MySqlConvertlets implements SqlRexConvertletTable {
    static final MySqlConvertlets INSTANCE = new MySqlConvertlets();

    private static final Set<SqlKind> TEMPORAL_COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_NOT_DISTINCT_FROM,
            SqlKind.IS_DISTINCT_FROM);

    private MySqlConvertlets() {
    }

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (call.getOperator() == DuetFunctions.TRUTH) {
            return (context, truth) -> truth(context.getRexBuilder(), context.convertExpression(truth.operand(0)));
        }
        if (call.getOperator() == MySqlOperators.XOR) {
            return (context, xor) -> context.getRexBuilder().makeCall(SqlStdOperatorTable.NOT_EQUALS,
                    context.convertExpression(xor.operand(0)), context.convertExpression(xor.operand(1)));
        }
        if (call.getOperator() == DateTimeFunctions.DATETIME_ARGUMENT
                || call.getOperator() == DateTimeFunctions.TIME_ARGUMENT) {
            return MySqlConvertlets::temporalArgument;
        }
        if (TEMPORAL_COMPARISONS.contains(call.getKind()) && call.operandCount() == 2) {
            return MySqlConvertlets::comparison;
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }

    /**
     * A comparison of a date or datetime with a string that reads as none ({@code d <> ''}, {@code d = 'abc'}):
     * MySQL compares with the zero date then, which is before every date DuetDB stores (it stores no zero dates) and
     * is not NULL, where an explicit CAST of the string gives NULL. The comparison's outcome is known but for a NULL
     * date.
     */
    private static RexNode comparison(SqlRexContext context, SqlCall call) {
        for (int side = 0; side < 2; side++) {
            if (unreadableTemporal(context, call.operand(side))) {
                RexBuilder builder = context.getRexBuilder();
                RexNode other = context.convertExpression(call.operand(1 - side));
                SqlKind kind = side == 0 ? call.getKind().reverse() : call.getKind();
                RexNode nullBoolean = builder.makeNullLiteral(builder.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN));
                return switch (kind) {
                    case IS_NOT_DISTINCT_FROM -> builder.makeLiteral(false);
                    case IS_DISTINCT_FROM -> builder.makeLiteral(true);
                    // other = zero, other < zero, other <= zero: false for every stored date.
                    case EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL -> builder.makeCall(SqlStdOperatorTable.CASE,
                            builder.makeCall(SqlStdOperatorTable.IS_NULL, other), nullBoolean, builder.makeLiteral(false));
                    default -> builder.makeCall(SqlStdOperatorTable.CASE,
                            builder.makeCall(SqlStdOperatorTable.IS_NULL, other), nullBoolean, builder.makeLiteral(true));
                };
            }
        }
        return StandardConvertletTable.INSTANCE.get(call).convertCall(context, call);
    }

    private static boolean unreadableTemporal(SqlRexContext context, SqlNode operand) {
        if (operand.getKind() != SqlKind.CAST || !(operand instanceof SqlCall cast)
                || !(cast.operand(0) instanceof SqlCharStringLiteral literal)) {
            return false;
        }
        SqlTypeName target = context.getValidator().getValidatedNodeType(cast).getSqlTypeName();
        if (target != SqlTypeName.DATE && target != SqlTypeName.TIMESTAMP) {
            return false;
        }
        try {
            Values.toDateTime(literal.getValueAs(String.class));
            return false;
        } catch (DuetException e) {
            return true;
        }
    }

    /** A date or time argument that already has the type it is read as is the argument itself. */
    private static RexNode temporalArgument(SqlRexContext context, SqlCall call) {
        RexNode operand = context.convertExpression(call.operand(0));
        SqlTypeName type = operand.getType().getSqlTypeName();
        boolean dates = call.getOperator() == DateTimeFunctions.DATETIME_ARGUMENT;
        if (type == SqlTypeName.TIMESTAMP || dates && type == SqlTypeName.DATE || !dates && type == SqlTypeName.TIME) {
            return operand;
        }
        return context.getRexBuilder().makeCall(call.getOperator(), operand);
    }

    private static RexNode truth(RexBuilder builder, RexNode value) {
        RelDataType type = value.getType();
        if (SqlTypeUtil.isBoolean(type)) {
            return value;
        }
        if (SqlTypeUtil.isNull(type)) {
            return builder.makeNullLiteral(builder.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN));
        }
        if (SqlTypeUtil.isNumeric(type) && type.getSqlTypeName() != SqlTypeName.UBIGINT) {
            return builder.makeCall(SqlStdOperatorTable.NOT_EQUALS, value, builder.makeZeroLiteral(type));
        }
        return builder.makeCall(DuetFunctions.TRUTH, value);
    }
}
