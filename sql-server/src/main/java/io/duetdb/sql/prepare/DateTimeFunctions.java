package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * MySQL's date and time functions beyond Calcite's, typed as MySQL types them (evaluated by
 * {@code exec.DateTimeExpressions}), and the arguments MySQL reads as dates or times: a string or a number given to
 * YEAR, HOUR, EXTRACT, TIMESTAMPDIFF and their kin is read as a date-time ({@link #DATETIME_ARGUMENT}) or a time
 * ({@link #TIME_ARGUMENT}), as MySQL converts it; a date or time argument stays as it is (the convertlets drop the
 * wrapper, so such calls still reach the stores).
 */
public final class DateTimeFunctions {
    private static final SqlReturnTypeInference NULLABLE_BIGINT = ReturnTypes.BIGINT
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);
    /** A TIME with microseconds when an argument may have them (not a literal, or a literal with a fraction). */
    private static final SqlReturnTypeInference NULLABLE_TIME = binding -> nullable(binding.getTypeFactory(),
            binding.getTypeFactory().createSqlType(SqlTypeName.TIME, fractionalDigits(binding)));
    private static final SqlReturnTypeInference NULLABLE_DATETIME_FRACTION = binding -> nullable(
            binding.getTypeFactory(), binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP,
                    fractionalDigits(binding)));
    private static final SqlReturnTypeInference NULLABLE_DATE = ReturnTypes.explicit(SqlTypeName.DATE)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlReturnTypeInference NULLABLE_DATETIME = ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 0)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlReturnTypeInference NULLABLE_VARCHAR = ReturnTypes.explicit(SqlTypeName.VARCHAR)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);

    /** An argument read as a date-time: dates and date-times stay, anything else becomes a DATETIME(6). */
    public static final SqlFunction DATETIME_ARGUMENT = pure("DUET_DATETIME_ARGUMENT", binding -> {
        RelDataType type = binding.getOperandType(0);
        if (type.getSqlTypeName() == SqlTypeName.DATE || type.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            return type;
        }
        return nullable(binding.getTypeFactory(), binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 6));
    }, OperandTypes.ANY);
    /**
     * A string compared with a date or date-time, read as MySQL's comparison reads it: a DATETIME(6), and MySQL's
     * zero date (before every date DuetDB stores) when it reads as none, where a CAST would give NULL. Literals take
     * a CAST instead, which folds (MySqlConvertlets handles the ones that read as no date).
     */
    public static final SqlFunction DATETIME_COMPARAND = pure("DUET_DATETIME_COMPARAND", binding -> nullable(
            binding.getTypeFactory(), binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 6)), OperandTypes.ANY);
    /** An argument read as a time: times stay, date-times give their time, strings are read as times. */
    public static final SqlFunction TIME_ARGUMENT = pure("DUET_TIME_ARGUMENT", binding -> {
        RelDataType type = binding.getOperandType(0);
        if (type.getSqlTypeName() == SqlTypeName.TIME || type.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            return type;
        }
        return nullable(binding.getTypeFactory(), binding.getTypeFactory().createSqlType(SqlTypeName.TIME, 6));
    }, OperandTypes.ANY);

    public static final SqlFunction TIME_TO_SEC = pure("TIME_TO_SEC", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction SEC_TO_TIME = pure("SEC_TO_TIME", NULLABLE_TIME, OperandTypes.ANY);
    /** MAKEDATE(year, day of year): NULL for a day below 1. */
    public static final SqlFunction MAKEDATE = pure("MAKEDATE", NULLABLE_DATE, OperandTypes.ANY_ANY);
    public static final SqlFunction MAKETIME = pure("MAKETIME", NULLABLE_TIME,
            OperandTypes.repeat(SqlOperandCountRanges.of(3), OperandTypes.ANY));
    /** TIMESTAMP(expression [, time]): the date-time, plus the time when given. */
    public static final SqlFunction TIMESTAMP = new SqlFunction("TIMESTAMP", SqlKind.OTHER_FUNCTION,
            NULLABLE_DATETIME_FRACTION, null,
            OperandTypes.repeat(SqlOperandCountRanges.between(1, 2), OperandTypes.ANY), SqlFunctionCategory.TIMEDATE);
    /** TIME(expression): the time part of a time, date-time or their text. */
    public static final SqlFunction TIME = new SqlFunction("TIME", SqlKind.OTHER_FUNCTION, NULLABLE_TIME, null,
            OperandTypes.ANY, SqlFunctionCategory.TIMEDATE);
    /** ADDTIME and SUBTIME: a date-time stays a date-time, a time a time, text gives text. */
    public static final SqlFunction ADDTIME = pure("ADDTIME", DateTimeFunctions::shiftedType, OperandTypes.ANY_ANY);
    public static final SqlFunction SUBTIME = pure("SUBTIME", DateTimeFunctions::shiftedType, OperandTypes.ANY_ANY);
    public static final SqlFunction TIMEDIFF = pure("TIMEDIFF", NULLABLE_TIME, OperandTypes.ANY_ANY);
    /** CONVERT_TZ(date-time, from zone, to zone): zones as offsets ('+01:00'), names ('Europe/Oslo') or SYSTEM. */
    public static final SqlFunction CONVERT_TZ = pure("CONVERT_TZ", NULLABLE_DATETIME_FRACTION,
            OperandTypes.repeat(SqlOperandCountRanges.of(3),
            OperandTypes.ANY));
    public static final SqlFunction PERIOD_ADD = pure("PERIOD_ADD", NULLABLE_BIGINT, OperandTypes.ANY_ANY);
    public static final SqlFunction PERIOD_DIFF = pure("PERIOD_DIFF", NULLABLE_BIGINT, OperandTypes.ANY_ANY);
    public static final SqlFunction TO_SECONDS = pure("TO_SECONDS", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction MICROSECOND = pure("MICROSECOND", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction TIME_FORMAT = pure("TIME_FORMAT", NULLABLE_VARCHAR, OperandTypes.ANY_ANY);
    // Clocks: the statement's time, as NOW is, except SYSDATE (the moment it runs, as MySQL's).
    public static final SqlFunction UTC_TIMESTAMP = clock("UTC_TIMESTAMP", NULLABLE_DATETIME);
    public static final SqlFunction UTC_DATE = clock("UTC_DATE", NULLABLE_DATE);
    public static final SqlFunction UTC_TIME = clock("UTC_TIME", ReturnTypes.explicit(SqlTypeName.TIME, 0));
    public static final SqlFunction CURTIME = clock("CURTIME", ReturnTypes.explicit(SqlTypeName.TIME, 0));
    public static final SqlFunction SYSDATE = clock("SYSDATE", NULLABLE_DATETIME);

    /** TIMESTAMPDIFF(unit, from, to) as the convertlets write it: the unit's name, then the two date-times. */
    public static final SqlFunction TIMESTAMP_DIFFERENCE = pure("DUET_TIMESTAMPDIFF", NULLABLE_BIGINT,
            OperandTypes.repeat(SqlOperandCountRanges.of(3), OperandTypes.ANY));

    static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(DATETIME_ARGUMENT, DATETIME_COMPARAND, TIME_ARGUMENT, TIMESTAMP_DIFFERENCE, TIME_TO_SEC,
            SEC_TO_TIME, MAKEDATE, MAKETIME, TIMESTAMP, TIME, ADDTIME, SUBTIME, TIMEDIFF, CONVERT_TZ, PERIOD_ADD,
            PERIOD_DIFF, TO_SECONDS, MICROSECOND, TIME_FORMAT, UTC_TIMESTAMP, UTC_DATE, UTC_TIME, CURTIME, SYSDATE);

    /** Which arguments of a function MySQL reads as date-times (D) or times (T), by position. */
    private static final Map<String, String> TEMPORAL_ARGUMENTS = Map.ofEntries(Map.entry("YEAR", "D"),
            Map.entry("MONTH", "D"), Map.entry("QUARTER", "D"), Map.entry("DAYOFMONTH", "D"),
            Map.entry("DAYOFWEEK", "D"), Map.entry("DAYOFYEAR", "D"), Map.entry("DAYNAME", "D"),
            Map.entry("MONTHNAME", "D"), Map.entry("LAST_DAY", "D"), Map.entry("HOUR", "T"), Map.entry("MINUTE", "T"),
            Map.entry("SECOND", "T"), Map.entry("TIMESTAMPADD", "--D"));

    private DateTimeFunctions() {
    }

    /** Whether {@link #withTemporalArguments} rewrites {@code call} (a test that visits no operand). */
    static boolean rewrites(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        return name.equals("LOCALTIME") || name.equals("CURRENT_TIME") || call.getKind() == SqlKind.TIMESTAMP_DIFF
                || call.getKind() == SqlKind.EXTRACT || TEMPORAL_ARGUMENTS.containsKey(name)
                || castsNumberToTemporal(call) != null;
    }

    /** D or T when {@code call} casts a number literal to a date or date-time, or to a time; else null. */
    private static String castsNumberToTemporal(SqlCall call) {
        if (call.getKind() != SqlKind.CAST || !(call.operand(0) instanceof SqlNumericLiteral)
                || !(call.operand(1) instanceof SqlDataTypeSpec type)) {
            return null;
        }
        String target = type.getTypeNameSpec().getTypeName().getSimple().toUpperCase(Locale.ROOT);
        return target.equals("DATE") || target.equals("TIMESTAMP") ? "D" : target.equals("TIME") ? "T" : null;
    }

    /**
     * {@code call} with the arguments MySQL reads as dates or times wrapped in {@link #DATETIME_ARGUMENT} or
     * {@link #TIME_ARGUMENT} (operands already rewritten).
     */
    static SqlCall withTemporalArguments(SqlCall call, List<SqlNode> operands) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("LOCALTIME")) {
            // MySQL's LOCALTIME is NOW (a date-time), not the SQL standard's time of day.
            return DuetFunctions.NOW.createCall(call.getParserPosition(), operands);
        }
        if (name.equals("CURRENT_TIME")) {
            return CURTIME.createCall(call.getParserPosition());
        }
        if (call.getKind() == SqlKind.TIMESTAMP_DIFF) {
            // MySQL's TIMESTAMPDIFF: a BIGINT, NULL when an argument is no valid date-time.
            SqlParserPos position = call.getParserPosition();
            return TIMESTAMP_DIFFERENCE.createCall(position,
                    SqlLiteral.createCharString(operands.get(0).toString().toUpperCase(Locale.ROOT), position),
                    DATETIME_ARGUMENT.createCall(position, operands.get(1)),
                    DATETIME_ARGUMENT.createCall(position, operands.get(2)));
        }
        String pattern;
        if (call.getKind() == SqlKind.CAST) {
            // CAST of a number to a date or time reads its digits, as MySQL does (20240131 is 2024-01-31).
            pattern = castsNumberToTemporal(call);
        } else if (call.getKind() == SqlKind.EXTRACT) {
            String unit = call.operand(0).toString().toUpperCase(Locale.ROOT);
            pattern = unit.equals("HOUR") || unit.equals("MINUTE") || unit.equals("SECOND")
                    || unit.equals("MICROSECOND") ? "-T" : "-D";
        } else {
            pattern = TEMPORAL_ARGUMENTS.get(name);
        }
        if (pattern == null) {
            return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    operands.toArray(new SqlNode[0]));
        }
        List<SqlNode> wrapped = new ArrayList<>(operands);
        for (int i = 0; i < pattern.length() && i < wrapped.size(); i++) {
            SqlNode operand = wrapped.get(i);
            if (pattern.charAt(i) == '-' || operand == null || SqlUtil.isNullLiteral(operand, false)
                    || operand instanceof SqlCall wrappedAlready && (wrappedAlready.getOperator() == DATETIME_ARGUMENT
                    || wrappedAlready.getOperator() == TIME_ARGUMENT)) {
                continue;
            }
            SqlFunction wrapper = pattern.charAt(i) == 'D' ? DATETIME_ARGUMENT : TIME_ARGUMENT;
            wrapped.set(i, wrapper.createCall(operand.getParserPosition(), operand));
        }
        return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                wrapped.toArray(new SqlNode[0]));
    }

    private static RelDataType shiftedType(SqlOperatorBinding binding) {
        RelDataType first = binding.getOperandType(0);
        RelDataTypeFactory factory = binding.getTypeFactory();
        if (first.getSqlTypeName() == SqlTypeName.TIMESTAMP || first.getSqlTypeName() == SqlTypeName.DATE) {
            return nullable(factory, factory.createSqlType(SqlTypeName.TIMESTAMP, 6));
        }
        if (first.getSqlTypeName() == SqlTypeName.TIME) {
            return nullable(factory, factory.createSqlType(SqlTypeName.TIME, 6));
        }
        return nullable(factory, factory.createSqlType(SqlTypeName.VARCHAR, 29));
    }

    /** MySQL's fractional digits of a result: 0 when every argument is a literal without a fraction, else 6. */
    private static int fractionalDigits(SqlOperatorBinding binding) {
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType type = binding.getOperandType(i);
            if (SqlTypeUtil.isDatetime(type)) {
                if (type.getPrecision() > 0 && type.getSqlTypeName() != SqlTypeName.DATE) {
                    return 6;
                }
                continue;
            }
            if (!binding.isOperandLiteral(i, true)) {
                return 6;
            }
            Object value = binding.getOperandLiteralValue(i, Object.class);
            if (value != null && String.valueOf(value).contains(".")) {
                return 6;
            }
        }
        return 0;
    }

    private static RelDataType nullable(RelDataTypeFactory factory, RelDataType type) {
        return factory.createTypeWithNullability(type, true);
    }

    private static SqlFunction pure(String name, SqlReturnTypeInference returnType,
            SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, SqlFunctionCategory.SYSTEM);
    }

    private static SqlFunction clock(String name, SqlReturnTypeInference returnType) {
        return DuetFunctions.function(name, returnType, OperandTypes.NILADIC, SqlFunctionCategory.TIMEDATE);
    }
}
