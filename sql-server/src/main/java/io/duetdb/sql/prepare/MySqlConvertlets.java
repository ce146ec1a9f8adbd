package io.duetdb.sql.prepare;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import io.duetdb.sql.parser.MySqlOperators;

/**
 * Calcite's conversion of calls into row expressions, with MySQL's truth values: {@link DuetFunctions#TRUTH} of a
 * truth value is the value, of a number {@code x <> 0} (which Calcite simplifies and the stores evaluate), of
 * anything else the truth function itself (evaluated by the SQL layer); {@code a XOR b} is {@code a <> b} of the
 * two truth values.
 */
final class MySqlConvertlets implements SqlRexConvertletTable {
    static final MySqlConvertlets INSTANCE = new MySqlConvertlets();

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
        return StandardConvertletTable.INSTANCE.get(call);
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
