package io.duetdb.sql.session;

import java.util.function.Function;
import java.util.function.LongSupplier;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The timestamp TiDB's {@code AS OF TIMESTAMP expr} names: a date and time in UTC (as NOW() gives them), written
 * as a string or computed by any expression without columns, such as {@code NOW() - INTERVAL 5 SECOND}, or
 * {@code TIDB_BOUNDED_STALENESS(oldest, newest)}: the newest time between the two that the learners serve alone.
 */
final class AsOfTimestamp {
    private AsOfTimestamp() {
    }

    private static final String BOUNDED_STALENESS = "TIDB_BOUNDED_STALENESS";

    /**
     * {@code evaluate} runs an expression without columns and returns its value; {@code resolved} gives the
     * learners' lowest resolved timestamp.
     */
    static long of(SqlNode time, Function<SqlNode, Object> evaluate, LongSupplier resolved) {
        if (time instanceof SqlCall call && call.getOperator().getName().equalsIgnoreCase(BOUNDED_STALENESS)) {
            if (call.operandCount() != 2) {
                throw new DuetException(ErrorCode.WRONG_PARAMETER_COUNT,
                        "Incorrect parameter count in the call to native function 'tidb_bounded_staleness'");
            }
            long oldest = dateTime(call.operand(0), evaluate);
            long newest = dateTime(call.operand(1), evaluate);
            return BoundedStaleness.between(oldest, newest, resolved.getAsLong());
        }
        return dateTime(time, evaluate);
    }

    private static long dateTime(SqlNode time, Function<SqlNode, Object> evaluate) {
        String text;
        if (time instanceof SqlLiteral literal && literal.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
            text = literal.getValueAs(String.class);
        } else {
            SqlParserPos pos = SqlParserPos.ZERO;
            Object value = evaluate.apply(SqlStdOperatorTable.CAST.createCall(pos, time,
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos)));
            if (value == null) {
                throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP, "invalid as of timestamp: the time is NULL");
            }
            text = value.toString();
        }
        return PastReadTimestamp.ofDateTime(text, "'" + text + "' is not a date and time");
    }
}
