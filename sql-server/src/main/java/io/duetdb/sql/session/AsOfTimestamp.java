package io.duetdb.sql.session;

import java.util.function.Function;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
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
 * as a string or computed by any expression without columns, such as {@code NOW() - INTERVAL 5 SECOND}.
 */
final class AsOfTimestamp {
    private AsOfTimestamp() {
    }

    /** {@code evaluate} runs an expression without columns and returns its value. */
    static long of(SqlNode time, Function<SqlNode, Object> evaluate) {
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
