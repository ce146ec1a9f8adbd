package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.List;
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
     * {@code evaluate} runs expressions without columns in one SELECT and returns their values; {@code resolved}
     * gives the learners' lowest resolved timestamp.
     */
    static long of(SqlNode time, Function<List<SqlNode>, Object[]> evaluate, LongSupplier resolved) {
        if (time instanceof SqlCall call && call.getOperator().getName().equalsIgnoreCase(BOUNDED_STALENESS)) {
            if (call.operandCount() != 2) {
                throw new DuetException(ErrorCode.WRONG_PARAMETER_COUNT,
                        "Incorrect parameter count in the call to native function 'tidb_bounded_staleness'");
            }
            long[] bounds = dateTimes(List.of(call.operand(0), call.operand(1)), evaluate);
            return BoundedStaleness.between(bounds[0], bounds[1], resolved.getAsLong());
        }
        return dateTimes(List.of(time), evaluate)[0];
    }

    /** The timestamps of the times: strings as they are, other expressions evaluated together. */
    private static long[] dateTimes(List<SqlNode> times, Function<List<SqlNode>, Object[]> evaluate) {
        String[] texts = new String[times.size()];
        List<SqlNode> expressions = new ArrayList<>();
        List<Integer> evaluated = new ArrayList<>();
        SqlParserPos pos = SqlParserPos.ZERO;
        for (int i = 0; i < times.size(); i++) {
            if (times.get(i) instanceof SqlLiteral literal && literal.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
                texts[i] = literal.getValueAs(String.class);
            } else {
                expressions.add(SqlStdOperatorTable.CAST.createCall(pos, times.get(i),
                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos)));
                evaluated.add(i);
            }
        }
        if (!expressions.isEmpty()) {
            Object[] values = evaluate.apply(expressions);
            for (int k = 0; k < evaluated.size(); k++) {
                if (values[k] == null) {
                    throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP, "invalid as of timestamp: the time is NULL");
                }
                texts[evaluated.get(k)] = values[k].toString();
            }
        }
        long[] timestamps = new long[texts.length];
        for (int i = 0; i < texts.length; i++) {
            timestamps[i] = PastReadTimestamp.ofDateTime(texts[i], "'" + texts[i] + "' is not a date and time");
        }
        return timestamps;
    }
}
