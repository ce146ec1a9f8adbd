package io.duetdb.sql.prepare;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;

import io.duetdb.sql.parser.MySqlOperators;

/**
 * MySQL functions Calcite lacks: the session's (evaluated by DuetDB's executor from the session's state), MySQL's
 * division, LENGTH, DATE_ADD with its kin, and string and date functions MySQL applications use; and some Calcite
 * defines only for other dialects. The executor evaluates them all (`ExpressionCompiler`, `MySqlFunctions`).
 */
public final class DuetFunctions {
    private static final SqlReturnTypeInference NULLABLE_VARCHAR = ReturnTypes.explicit(SqlTypeName.VARCHAR)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);

    /** {@code @@[scope.]name}: the parser reads system variable references as calls of this (VariableReferences). */
    public static final SqlFunction SYSTEM_VARIABLE = function("DUET_SYSTEM_VARIABLE", NULLABLE_VARCHAR,
            OperandTypes.STRING_STRING);
    /** {@code @@[scope.]name} of a variable MySQL types as BIGINT (SystemVariables.isInteger). */
    public static final SqlFunction INTEGER_SYSTEM_VARIABLE = function("DUET_INTEGER_SYSTEM_VARIABLE",
            ReturnTypes.BIGINT.andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.STRING_STRING);
    /** {@code @name}: the parser reads user variable references as calls of this (values as text). */
    public static final SqlFunction USER_VARIABLE = function("DUET_USER_VARIABLE", NULLABLE_VARCHAR, OperandTypes.STRING);
    /** DUET_SET_USER_VARIABLE(name, value): {@code @name := value}, the value, which the variable takes. */
    public static final SqlFunction SET_USER_VARIABLE = function("DUET_SET_USER_VARIABLE",
            ReturnTypes.ARG1.andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.ANY_ANY);
    public static final SqlFunction DATABASE = function("DATABASE", NULLABLE_VARCHAR, OperandTypes.NILADIC);
    public static final SqlFunction SCHEMA = function("SCHEMA", NULLABLE_VARCHAR, OperandTypes.NILADIC);
    public static final SqlFunction VERSION = function("VERSION", ReturnTypes.explicit(SqlTypeName.VARCHAR),
            OperandTypes.NILADIC);
    public static final SqlFunction CONNECTION_ID = function("CONNECTION_ID", ReturnTypes.BIGINT,
            OperandTypes.NILADIC);
    public static final SqlFunction LAST_INSERT_ID = function("LAST_INSERT_ID", ReturnTypes.BIGINT,
            OperandTypes.NILADIC);
    public static final SqlFunction ROW_COUNT = function("ROW_COUNT", ReturnTypes.BIGINT, OperandTypes.NILADIC);
    public static final SqlFunction FOUND_ROWS = function("FOUND_ROWS", ReturnTypes.BIGINT, OperandTypes.NILADIC);
    public static final SqlFunction USER = function("USER", ReturnTypes.explicit(SqlTypeName.VARCHAR),
            OperandTypes.NILADIC);
    public static final SqlFunction CURRENT_USER = function("CURRENT_USER", ReturnTypes.explicit(SqlTypeName.VARCHAR),
            OperandTypes.NILADIC);
    /** MySQL's NOW([fsp]): the statement's time with fsp (0 to 6) digits of fractional seconds. */
    public static final SqlFunction NOW = function("NOW", binding -> binding.getTypeFactory().createSqlType(
                    SqlTypeName.TIMESTAMP, fractionalDigits(binding.getOperandCount() == 0 ? 0
                            : binding.getOperandLiteralValue(0, Integer.class))),
            OperandTypes.or(OperandTypes.NILADIC, OperandTypes.INTEGER));

    public static final SqlFunction SLEEP = function("SLEEP", ReturnTypes.BIGINT, OperandTypes.NUMERIC);
    /** BENCHMARK(count, expression): evaluates the expression count times; 0. */
    public static final SqlFunction BENCHMARK = function("BENCHMARK", ReturnTypes.BIGINT, OperandTypes.ANY_ANY);

    /**
     * MySQL's truth of a value where a condition stands (WHERE, ON, HAVING, AND, OR, NOT, XOR, CASE WHEN, IF): a
     * number is true when it is not zero, a string by the number it starts with, a date or time when it is not
     * zero; NULL stays unknown. The planner puts it around conditions that are not truth values already
     * ({@code MySqlConditions}); numbers become {@code x <> 0} when converted, the rest is evaluated as it stands.
     */
    public static final SqlFunction TRUTH = new SqlFunction("DUET_TRUTH", SqlKind.OTHER_FUNCTION,
            ReturnTypes.BOOLEAN_NULLABLE, org.apache.calcite.sql.type.InferTypes.BOOLEAN, OperandTypes.ANY,
            SqlFunctionCategory.SYSTEM);

    /**
     * MySQL's division: exact operands give a DECIMAL with four more digits of scale (div_precision_increment),
     * not Calcite's integer division; approximate ones a DOUBLE. Division by zero is NULL.
     */
    public static final org.apache.calcite.sql.SqlBinaryOperator DIVIDE = new org.apache.calcite.sql.SqlBinaryOperator(
            "/", SqlKind.DIVIDE, 60, true, opBinding -> {
                org.apache.calcite.rel.type.RelDataType left = opBinding.getOperandType(0);
                org.apache.calcite.rel.type.RelDataType right = opBinding.getOperandType(1);
                org.apache.calcite.rel.type.RelDataTypeFactory factory = opBinding.getTypeFactory();
                org.apache.calcite.rel.type.RelDataType type;
                if (org.apache.calcite.sql.type.SqlTypeUtil.isExactNumeric(left)
                        && org.apache.calcite.sql.type.SqlTypeUtil.isExactNumeric(right)) {
                    int scale = Math.min(30, Math.max(0, left.getScale()) + 4);
                    type = factory.createSqlType(SqlTypeName.DECIMAL, 65, scale);
                } else {
                    type = factory.createSqlType(SqlTypeName.DOUBLE);
                }
                return factory.createTypeWithNullability(type, true);
            }, org.apache.calcite.sql.type.InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC_NUMERIC);

    /** MySQL's LENGTH: the length in bytes of a string's UTF-8 encoding or of a binary string. */
    public static final SqlFunction LENGTH = new SqlFunction("LENGTH", SqlKind.OTHER_FUNCTION,
            ReturnTypes.BIGINT_NULLABLE, null, OperandTypes.or(OperandTypes.STRING, OperandTypes.BINARY),
            SqlFunctionCategory.STRING);

    public static final SqlFunction DATE_ADD = dateArithmetic("DATE_ADD", false);
    public static final SqlFunction DATE_SUB = dateArithmetic("DATE_SUB", false);
    /** ADDDATE and SUBDATE also take a number of days in place of the interval. */
    public static final SqlFunction ADDDATE = dateArithmetic("ADDDATE", true);
    public static final SqlFunction SUBDATE = dateArithmetic("SUBDATE", true);

    private static final SqlReturnTypeInference NULLABLE_BIGINT = ReturnTypes.BIGINT.andThen(SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlOperandTypeChecker DATE_LIKE = OperandTypes.or(OperandTypes.family(SqlTypeFamily.DATE),
            OperandTypes.family(SqlTypeFamily.TIMESTAMP), OperandTypes.family(SqlTypeFamily.CHARACTER));

    /** LOCATE(substring, string [, position]): the 1-based position of the substring, 0 when absent. */
    public static final SqlFunction LOCATE = pure("LOCATE", NULLABLE_BIGINT, OperandTypes.or(OperandTypes.STRING_STRING,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER)));
    /** DATEDIFF(a, b): the days from b to a, times ignored. */
    public static final SqlFunction DATEDIFF = pure("DATEDIFF", NULLABLE_BIGINT, OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
            OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.CHARACTER),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME)));
    public static final SqlFunction DATE_FORMAT = pure("DATE_FORMAT", NULLABLE_VARCHAR, OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.CHARACTER),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
    public static final SqlFunction DAY = pure("DAY", NULLABLE_BIGINT, DATE_LIKE);
    /**
     * DATE(expression): the date part of a date, datetime or date text. The parser reads {@code DATE(...)} as a
     * date-time constructor call, whose lookup is among TIMEDATE functions.
     */
    public static final SqlFunction DATE = new SqlFunction("DATE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.DATE).andThen(SqlTypeTransforms.FORCE_NULLABLE), null, DATE_LIKE,
            SqlFunctionCategory.TIMEDATE);
    /** HEX(number or string): an integer's digits in base 16, or a string's UTF-8 bytes, in upper case. */
    public static final SqlFunction HEX = pure("HEX", NULLABLE_VARCHAR, OperandTypes.or(OperandTypes.NUMERIC,
            OperandTypes.STRING, OperandTypes.BINARY));
    /** FORMAT(number, decimals): the number rounded, with thousands separators, as MySQL's en_US locale writes it. */
    public static final SqlFunction FORMAT = pure("FORMAT", NULLABLE_VARCHAR, OperandTypes.NUMERIC_INTEGER);
    public static final SqlFunction UUID = function("UUID", ReturnTypes.explicit(SqlTypeName.VARCHAR, 36),
            OperandTypes.NILADIC);
    /**
     * STR_TO_DATE(text, format): a DATETIME when the format (a constant) has time parts, else a DATE; NULL when the
     * text does not match.
     */
    public static final SqlFunction STR_TO_DATE = pure("STR_TO_DATE", binding -> {
        RelDataTypeFactory factory = binding.getTypeFactory();
        String format = binding.isOperandLiteral(1, false) ? binding.getOperandLiteralValue(1, String.class) : null;
        boolean time = format == null || format.matches("(?s).*%[HkhIlisSfTrp].*");
        return factory.createTypeWithNullability(time ? factory.createSqlType(SqlTypeName.TIMESTAMP, 0)
                : factory.createSqlType(SqlTypeName.DATE), true);
    }, OperandTypes.STRING_STRING);
    public static final SqlFunction CURDATE = function("CURDATE", ReturnTypes.explicit(SqlTypeName.DATE),
            OperandTypes.NILADIC);
    public static final SqlFunction UNIX_TIMESTAMP = function("UNIX_TIMESTAMP", NULLABLE_BIGINT,
            OperandTypes.or(OperandTypes.NILADIC, DATE_LIKE));
    public static final SqlFunction FROM_UNIXTIME = pure("FROM_UNIXTIME", ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 0)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.NUMERIC);

    /** REGEXP_INSTR(text, pattern[, position[, occurrence[, return_option[, match_type]]]]). */
    public static final SqlFunction REGEXP_INSTR = pure("REGEXP_INSTR", NULLABLE_BIGINT,
            OperandTypes.repeat(SqlOperandCountRanges.between(2, 6), OperandTypes.ANY));
    /** REGEXP_SUBSTR(text, pattern[, position[, occurrence[, match_type]]]): NULL when nothing matches. */
    public static final SqlFunction REGEXP_SUBSTR = pure("REGEXP_SUBSTR", NULLABLE_VARCHAR,
            OperandTypes.repeat(SqlOperandCountRanges.between(2, 5), OperandTypes.ANY));
    /** SHA2(text, bits): the SHA-2 digest in hex, NULL for a length other than 224, 256, 384, 512 or 0. */
    public static final SqlFunction SHA2 = pure("SHA2", NULLABLE_VARCHAR, OperandTypes.ANY_NUMERIC);

    private static final SqlReturnTypeInference NULLABLE_VARBINARY = ReturnTypes.explicit(SqlTypeName.VARBINARY)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlOperandTypeChecker ONE_OR_TWO = OperandTypes.repeat(SqlOperandCountRanges.between(1, 2),
            OperandTypes.ANY);

    // Encoding functions (`exec.EncodingFunctions`).
    public static final SqlFunction UNHEX = pure("UNHEX", NULLABLE_VARBINARY, OperandTypes.ANY);
    public static final SqlFunction TO_BASE64 = pure("TO_BASE64", NULLABLE_VARCHAR, OperandTypes.ANY);
    public static final SqlFunction FROM_BASE64 = pure("FROM_BASE64", NULLABLE_VARBINARY, OperandTypes.ANY);
    public static final SqlFunction CRC32 = pure("CRC32", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction INET_ATON = pure("INET_ATON", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction INET_NTOA = pure("INET_NTOA", NULLABLE_VARCHAR, OperandTypes.ANY);
    public static final SqlFunction BIN = pure("BIN", NULLABLE_VARCHAR, OperandTypes.ANY);
    public static final SqlFunction OCT = pure("OCT", NULLABLE_VARCHAR, OperandTypes.ANY);
    public static final SqlFunction FIND_IN_SET = pure("FIND_IN_SET", NULLABLE_BIGINT, OperandTypes.ANY_ANY);
    /** FIELD(x, a, b, ...): the place of x among the others, 0 when absent or NULL; never NULL. */
    public static final SqlFunction FIELD = pure("FIELD", ReturnTypes.BIGINT, OperandTypes.VARIADIC);
    /** ELT(n, a, b, ...): the n-th of the others, NULL when there is none. */
    public static final SqlFunction ELT = pure("ELT", NULLABLE_VARCHAR, OperandTypes.VARIADIC);
    // Week and day numbers (`exec.CalendarFunctions`).
    public static final SqlFunction WEEK = pure("WEEK", NULLABLE_BIGINT, ONE_OR_TWO);
    public static final SqlFunction YEARWEEK = pure("YEARWEEK", NULLABLE_BIGINT, ONE_OR_TWO);
    public static final SqlFunction WEEKDAY = pure("WEEKDAY", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction TO_DAYS = pure("TO_DAYS", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction FROM_DAYS = pure("FROM_DAYS", ReturnTypes.explicit(SqlTypeName.DATE)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.ANY);

    /**
     * {@code LPAD(str, len, padstr)} and {@code RPAD}: NULL when an argument is NULL or len is negative (Calcite's own
     * are typed NOT NULL, so that {@code LPAD(c, 3, '*') IS NULL} folded to FALSE).
     */
    public static final SqlFunction LPAD = pure("LPAD", NULLABLE_VARCHAR, OperandTypes.family(SqlTypeFamily.ANY,
            SqlTypeFamily.ANY, SqlTypeFamily.ANY));
    public static final SqlFunction RPAD = pure("RPAD", NULLABLE_VARCHAR, OperandTypes.family(SqlTypeFamily.ANY,
            SqlTypeFamily.ANY, SqlTypeFamily.ANY));

    static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(SYSTEM_VARIABLE, INTEGER_SYSTEM_VARIABLE, USER_VARIABLE, SET_USER_VARIABLE, DATABASE,
            SCHEMA, VERSION, CONNECTION_ID, LAST_INSERT_ID, ROW_COUNT, FOUND_ROWS, USER, CURRENT_USER, NOW, SLEEP, BENCHMARK, TRUTH,
            MySqlOperators.XOR, DIVIDE,
            LENGTH, DATE_ADD, DATE_SUB, ADDDATE, SUBDATE, LOCATE, DATEDIFF, DATE_FORMAT, STR_TO_DATE, DATE, DAY, HEX, FORMAT, UUID, CURDATE,
            UNIX_TIMESTAMP, FROM_UNIXTIME, MySqlOperators.INTEGER_DIVIDE, REGEXP_INSTR, REGEXP_SUBSTR,
            SHA2, UNHEX, TO_BASE64, FROM_BASE64, CRC32, INET_ATON, INET_NTOA, BIN, OCT, FIND_IN_SET, FIELD, ELT, WEEK,
            YEARWEEK, WEEKDAY, TO_DAYS, FROM_DAYS,
            // MySQL functions Calcite defines for other dialects, with the types MySQL gives them.
            SqlLibraryOperators.IF, SqlLibraryOperators.IFNULL,
            SqlLibraryOperators.GREATEST, SqlLibraryOperators.LEAST,
            LPAD, RPAD,
            SqlLibraryOperators.LTRIM, SqlLibraryOperators.RTRIM,
            SqlLibraryOperators.SUBSTRING_INDEX,
            SqlLibraryOperators.POW);

    private DuetFunctions() {
    }

    /**
     * {@code DATE_ADD(date, INTERVAL n unit)} and its kin, typed as MySQL types them: a DATE stays a DATE when the
     * unit is days or longer, else the result is a DATETIME; a string argument gives a string. NULL when the
     * argument is not a valid date.
     */
    private static SqlFunction dateArithmetic(String name, boolean daysAllowed) {
        SqlOperandTypeChecker withInterval = OperandTypes.or(
                OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.DATETIME_INTERVAL),
                OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.DATETIME_INTERVAL),
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME_INTERVAL));
        SqlOperandTypeChecker operands = daysAllowed ? OperandTypes.or(withInterval,
                OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.NUMERIC),
                OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.NUMERIC),
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.NUMERIC)) : withInterval;
        SqlReturnTypeInference returnType = binding -> {
            RelDataType date = binding.getOperandType(0);
            RelDataType amount = binding.getOperandType(1);
            RelDataTypeFactory factory = binding.getTypeFactory();
            boolean wholeDays = !SqlTypeUtil.isInterval(amount)
                    || SqlTypeName.YEAR_INTERVAL_TYPES.contains(amount.getSqlTypeName())
                    || amount.getSqlTypeName() == SqlTypeName.INTERVAL_DAY;
            RelDataType type;
            if (SqlTypeUtil.isCharacter(date)) {
                type = factory.createSqlType(SqlTypeName.VARCHAR, 29);
            } else if (date.getSqlTypeName() == SqlTypeName.DATE && wholeDays) {
                type = factory.createSqlType(SqlTypeName.DATE);
            } else {
                type = factory.createSqlType(SqlTypeName.TIMESTAMP, date.getSqlTypeName() == SqlTypeName.TIMESTAMP
                        ? date.getPrecision() : 0);
            }
            return factory.createTypeWithNullability(type, true);
        };
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands,
                SqlFunctionCategory.TIMEDATE);
    }

    /** A function of its arguments alone. */
    private static SqlFunction pure(String name, SqlReturnTypeInference returnType, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, SqlFunctionCategory.SYSTEM);
    }

    /** MySQL's fractional seconds precision, 0 to 6 (0 when not a constant). */
    public static int fractionalDigits(Integer fsp) {
        return fsp == null ? 0 : Math.max(0, Math.min(6, fsp));
    }

    private static SqlFunction function(String name, SqlReturnTypeInference returnType,
            SqlOperandTypeChecker operands) {
        return function(name, returnType, operands, SqlFunctionCategory.SYSTEM);
    }

    /** A function whose value may change between calls (the clock, the session): never folded into a constant. */
    static SqlFunction function(String name, SqlReturnTypeInference returnType, SqlOperandTypeChecker operands,
            SqlFunctionCategory category) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, category) {
            @Override
            public boolean isDynamicFunction() {
                return true;
            }

            @Override
            public boolean isDeterministic() {
                return false;
            }
        };
    }
}
