package io.duetdb.sql.prepare;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.BitString;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

import io.duetdb.common.error.DuetException;
import io.duetdb.sql.exec.Values;
import io.duetdb.sql.parser.MySqlOperators;

/**
 * MySQL's implicit conversions where Calcite's validator unifies or compares types. Several expressions that
 * give one value (UNION, CASE, COALESCE, VALUES) take {@link MySqlTypes}' aggregated type. A comparison (=, <>, <,
 * <=, >, >=, <=>, IN) of a number with a string compares both as DOUBLE, as MySQL does, except that a string
 * literal becomes the number MySQL reads from it ('12abc' is 12), so that {@code id = '5'} and {@code id IN ('1',
 * '2')} stay comparisons of the key with numbers; a truth value compares as the integer it is in MySQL; a date
 * or time with a number compares as a number (DATE '2026-01-01' = 20260101); a string with a binary string as
 * binary strings. Arithmetic reads strings as numbers the same way, and functions that take numbers take truth
 * values as integers.
 */
final class MySqlTypeCoercion extends TypeCoercionImpl {
    private static final Set<SqlKind> ARITHMETIC = EnumSet.of(SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.DIVIDE,
            SqlKind.MOD);

    MySqlTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public RelDataType getWiderTypeForTwo(RelDataType type1, RelDataType type2, boolean stringPromotion) {
        if (type1 != null && type2 != null) {
            RelDataType aggregated = MySqlTypes.aggregate(factory, type1, type2);
            if (aggregated != null) {
                return aggregated;
            }
        }
        return super.getWiderTypeForTwo(type1, type2, stringPromotion);
    }

    @Override
    public RelDataType getWiderTypeFor(List<RelDataType> typeList, boolean stringPromotion) {
        RelDataType aggregated = MySqlTypes.aggregate(factory, typeList);
        return aggregated != null ? aggregated : super.getWiderTypeFor(typeList, stringPromotion);
    }

    /** Calcite's common type, keeping the collation a comparison of the two would use (MySqlCollations). */
    @Override
    public RelDataType commonTypeForBinaryComparison(RelDataType type1, RelDataType type2) {
        RelDataType common = super.commonTypeForBinaryComparison(type1, type2);
        if (common != null && type1 != null && type2 != null && SqlTypeUtil.inCharFamily(common)) {
            return MySqlCollations.unified(factory, common, List.of(type1, type2));
        }
        return common;
    }

    @Override
    public RelDataType implicitCast(RelDataType in, SqlTypeFamily expected) {
        if (SqlTypeUtil.isBoolean(in) && (expected == SqlTypeFamily.NUMERIC || expected == SqlTypeFamily.INTEGER
                || expected == SqlTypeFamily.EXACT_NUMERIC || expected == SqlTypeFamily.APPROXIMATE_NUMERIC)) {
            return MySqlTypes.asNumber(factory, in);
        }
        return super.implicitCast(in, expected);
    }

    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        SqlKind kind = binding.getOperator().getKind();
        if (binding.getOperandCount() == 2 && kind.belongsTo(SqlKind.BINARY_COMPARISON)) {
            SqlCall call = binding.getCall();
            SqlValidatorScope scope = binding.getScope();
            boolean coerced = numbersForStringLiterals(scope, call);
            Boolean compared = compareAsMySql(scope, call);
            return compared != null ? compared || coerced : super.binaryComparisonCoercion(binding) || coerced;
        }
        if (kind == SqlKind.BETWEEN) {
            numbersForStringLiterals(binding.getScope(), binding.getCall());
        }
        return super.binaryComparisonCoercion(binding);
    }

    @Override
    public boolean binaryArithmeticCoercion(SqlCallBinding binding) {
        SqlCall call = binding.getCall();
        if (binding.getOperandCount() != 2 || !ARITHMETIC.contains(binding.getOperator().getKind())
                && binding.getOperator() != MySqlOperators.INTEGER_DIVIDE) {
            return super.binaryArithmeticCoercion(binding);
        }
        SqlValidatorScope scope = binding.getScope();
        boolean coerced = false;
        for (int i = 0; i < 2; i++) {
            RelDataType type = type(scope, call.operand(i));
            if (SqlTypeUtil.isCharacter(type)) {
                coerced |= isStringLiteral(call.operand(i)) ? replaceWithNumber(scope, call, i)
                        : cast(scope, call, i, factory.createSqlType(SqlTypeName.DOUBLE));
            } else if (SqlTypeUtil.isBoolean(type)) {
                coerced |= cast(scope, call, i, MySqlTypes.asNumber(factory, type));
            } else if (call.operand(i) instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BINARY) {
                // A hexadecimal or bit literal (X'41', 0x41, b'101') in arithmetic is the unsigned number of its bits.
                SqlLiteral number = SqlLiteral.createExactNumeric(new BigInteger(1, literal.getValueAs(BitString.class)
                        .getAsByteArray()).toString(), literal.getParserPosition());
                updateInferredType(number, validator.deriveType(scope, number));
                call.setOperand(i, number);
                coerced = true;
            } else if (SqlTypeUtil.isDatetime(type) && !SqlTypeUtil.isInterval(type(scope, call.operand(1 - i)))) {
                // A date or time in arithmetic with anything but an interval is the number it reads as.
                coerced |= temporalAsNumber(scope, call, i);
            }
        }
        return coerced || super.binaryArithmeticCoercion(binding);
    }

    @Override
    public boolean inOperationCoercion(SqlCallBinding binding) {
        SqlCall call = binding.getCall();
        SqlValidatorScope scope = binding.getScope();
        RelDataType leftType = type(scope, call.operand(0));
        if (leftType.isStruct()) {
            return super.inOperationCoercion(binding);
        }
        if (!(call.operand(1) instanceof SqlNodeList list)) {
            RelDataType rightType = validator.deriveType(scope, call.operand(1));
            RelDataType column = rightType.isStruct() && rightType.getFieldCount() == 1
                    ? rightType.getFieldList().get(0).getType() : null;
            if (column != null && isNumberAndString(leftType, column)) {
                RelDataType target = factory.createSqlType(SqlTypeName.DOUBLE);
                SqlNode query = call.operand(1);
                SqlValidatorScope queryScope = query instanceof SqlSelect select ? validator.getSelectScope(select)
                        : scope;
                boolean coerced = cast(scope, call, 0, target);
                return rowTypeCoercion(queryScope, query, 0, target) || coerced;
            }
            return super.inOperationCoercion(binding);
        }
        boolean coerced = false;
        boolean numbers = MySqlTypes.isNumber(leftType);
        for (SqlNode element : list) {
            numbers |= MySqlTypes.isNumber(type(scope, element));
        }
        if (numbers) {
            if (isStringLiteral(call.operand(0))) {
                coerced |= replaceWithNumber(scope, call, 0);
            }
            for (int i = 0; i < list.size(); i++) {
                if (isStringLiteral(list.get(i))) {
                    list.set(i, number(scope, (SqlLiteral) list.get(i)));
                    coerced = true;
                }
            }
        }
        List<Integer> operands = new ArrayList<>();
        operands.add(-1);
        for (int i = 0; i < list.size(); i++) {
            operands.add(i);
        }
        List<RelDataType> types = new ArrayList<>();
        for (int operand : operands) {
            types.add(type(scope, operand < 0 ? call.operand(0) : list.get(operand)));
        }
        boolean anyNumber = types.stream().anyMatch(MySqlTypes::isNumber);
        boolean anyString = types.stream().anyMatch(SqlTypeUtil::isCharacter);
        boolean anyBoolean = types.stream().anyMatch(SqlTypeUtil::isBoolean);
        boolean allNumbers = types.stream().allMatch(type -> MySqlTypes.isNumber(type) || SqlTypeUtil.isNull(type));
        RelDataType target = null;
        if (allNumbers && anyBoolean && !types.stream().allMatch(SqlTypeUtil::isBoolean)) {
            target = MySqlTypes.asNumber(factory, factory.createSqlType(SqlTypeName.BOOLEAN));
        } else if (anyNumber && anyString) {
            target = factory.createSqlType(SqlTypeName.DOUBLE);
        }
        if (target == null) {
            if (allNumbers) {
                if (coerced) {
                    updateInferredType(list, listType(scope, list));
                }
                return coerced;
            }
            return super.inOperationCoercion(binding) || coerced;
        }
        for (int operand : operands) {
            RelDataType type = types.get(operands.indexOf(operand));
            boolean convert = SqlTypeUtil.isBoolean(type) || SqlTypeUtil.isCharacter(type)
                    || target.getSqlTypeName() == SqlTypeName.DOUBLE && !SqlTypeUtil.isNull(type);
            if (!convert) {
                continue;
            }
            if (operand < 0) {
                coerced |= cast(scope, call, 0, target);
            } else {
                coerced |= castElement(scope, list, operand, target);
            }
        }
        updateInferredType(list, listType(scope, list));
        return coerced;
    }

    private RelDataType listType(SqlValidatorScope scope, SqlNodeList list) {
        List<RelDataType> types = new ArrayList<>();
        for (SqlNode element : list) {
            types.add(type(scope, element));
        }
        RelDataType type = factory.leastRestrictive(types);
        return type != null ? type : MySqlTypes.aggregate(factory, types);
    }

    /**
     * Compares the two operands as MySQL does where Calcite would not (numbers with strings as DOUBLE, truth values as
     * integers, dates with numbers as numbers, strings with binary strings as binary): whether it cast anything, or
     * null when the pair is Calcite's to unify (strings, dates and times among themselves).
     */
    private Boolean compareAsMySql(SqlValidatorScope scope, SqlCall call) {
        RelDataType left = type(scope, call.operand(0));
        RelDataType right = type(scope, call.operand(1));
        if (MySqlTypes.isNumber(left) && MySqlTypes.isNumber(right)) {
            if (SqlTypeUtil.isBoolean(left) == SqlTypeUtil.isBoolean(right)) {
                return false;
            }
            int truth = SqlTypeUtil.isBoolean(left) ? 0 : 1;
            return cast(scope, call, truth, MySqlTypes.asNumber(factory, type(scope, call.operand(truth))));
        }
        if (isNumberAndString(left, right)) {
            RelDataType target = factory.createSqlType(SqlTypeName.DOUBLE);
            return cast(scope, call, 0, target) | cast(scope, call, 1, target);
        }
        if (SqlTypeUtil.isDatetime(left) && MySqlTypes.isNumber(right)
                || MySqlTypes.isNumber(left) && SqlTypeUtil.isDatetime(right)) {
            boolean coerced = false;
            for (int i = 0; i < 2; i++) {
                RelDataType type = type(scope, call.operand(i));
                if (SqlTypeUtil.isDatetime(type)) {
                    coerced |= temporalAsNumber(scope, call, i);
                } else if (SqlTypeUtil.isBoolean(type)) {
                    coerced |= cast(scope, call, i, MySqlTypes.asNumber(factory, type));
                }
            }
            return coerced;
        }
        for (int i = 0; i < 2; i++) {
            RelDataType temporal = type(scope, call.operand(1 - i));
            if (temporal.getSqlTypeName() == SqlTypeName.DATE && isStringLiteral(call.operand(i))
                    && hasTimeOfDay(((SqlLiteral) call.operand(i)).getValueAs(String.class))) {
                // A date with a date-time constant compares as date-times (d = '2024-01-31 10:20:30' is false for
                // 2024-01-31), where a CAST of the constant to DATE would drop its time.
                cast(scope, call, 1 - i, factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.TIMESTAMP, 0),
                        temporal.isNullable()));
                cast(scope, call, i, factory.createSqlType(SqlTypeName.TIMESTAMP, 6));
                return true;
            }
            if (SqlTypeUtil.isCharacter(type(scope, call.operand(i))) && !isStringLiteral(call.operand(i))
                    && (temporal.getSqlTypeName() == SqlTypeName.DATE
                            || temporal.getSqlTypeName() == SqlTypeName.TIMESTAMP)) {
                // A date with a string that is not a constant: the string is read row by row as MySQL's comparison
                // reads it (the zero date when it reads as no date), and both compare as date-times.
                SqlNode text = call.operand(i);
                SqlNode comparand = DateTimeFunctions.DATETIME_COMPARAND.createCall(text.getParserPosition(), text);
                updateInferredType(comparand, validator.deriveType(scope, comparand));
                call.setOperand(i, comparand);
                if (temporal.getSqlTypeName() == SqlTypeName.DATE) {
                    cast(scope, call, 1 - i, factory.createTypeWithNullability(
                            factory.createSqlType(SqlTypeName.TIMESTAMP, 0), temporal.isNullable()));
                }
                return true;
            }
        }
        if (SqlTypeUtil.isBinary(left) && SqlTypeUtil.isCharacter(right)) {
            return cast(scope, call, 1, factory.createSqlType(SqlTypeName.VARBINARY));
        }
        if (SqlTypeUtil.isCharacter(left) && SqlTypeUtil.isBinary(right)) {
            return cast(scope, call, 0, factory.createSqlType(SqlTypeName.VARBINARY));
        }
        return null;
    }

    private static boolean hasTimeOfDay(String text) {
        try {
            return !Values.toDateTime(text).toLocalTime().equals(LocalTime.MIDNIGHT);
        } catch (DuetException e) {
            return false;
        }
    }

    /** Operand {@code index}, a date or time, as the number MySQL reads it as. */
    private boolean temporalAsNumber(SqlValidatorScope scope, SqlCall call, int index) {
        if (call.operand(index) instanceof SqlLiteral literal) {
            // Calcite would fold a CAST of the literal by its own reading of dates (days since 1970).
            SqlLiteral number = SqlLiteral.createExactNumeric(literal.toValue().replaceAll("[-: ]", ""),
                    literal.getParserPosition());
            updateInferredType(number, validator.deriveType(scope, number));
            call.setOperand(index, number);
            return true;
        }
        return cast(scope, call, index, temporalNumber(type(scope, call.operand(index))));
    }

    /** A date or time as the number MySQL compares it as (20260101, 20260101103000.5, 103000). */
    private RelDataType temporalNumber(RelDataType type) {
        int fraction = type.getSqlTypeName() == SqlTypeName.DATE ? 0 : Math.max(0, type.getPrecision());
        int digits = switch (type.getSqlTypeName()) {
            case DATE -> 8;
            case TIME -> 7;
            default -> 14;
        };
        return factory.createSqlType(SqlTypeName.DECIMAL, digits + fraction, fraction);
    }

    private static boolean isNumberAndString(RelDataType left, RelDataType right) {
        return MySqlTypes.isNumber(left) && SqlTypeUtil.isCharacter(right)
                || SqlTypeUtil.isCharacter(left) && MySqlTypes.isNumber(right);
    }

    /** Replaces string literals compared with a number by the number MySQL reads from them. */
    private boolean numbersForStringLiterals(SqlValidatorScope scope, SqlCall call) {
        boolean anyNumber = false;
        for (SqlNode operand : call.getOperandList()) {
            anyNumber |= operand != null && MySqlTypes.isNumber(type(scope, operand));
        }
        if (!anyNumber) {
            return false;
        }
        boolean replaced = false;
        for (int i = 0; i < call.operandCount(); i++) {
            if (isStringLiteral(call.operand(i))) {
                replaced |= replaceWithNumber(scope, call, i);
            }
        }
        return replaced;
    }

    private static boolean isStringLiteral(SqlNode node) {
        return node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.CHAR;
    }

    private boolean replaceWithNumber(SqlValidatorScope scope, SqlCall call, int index) {
        call.setOperand(index, number(scope, (SqlLiteral) call.operand(index)));
        return true;
    }

    private SqlLiteral number(SqlValidatorScope scope, SqlLiteral text) {
        SqlLiteral number = numberOf(text.getValueAs(String.class), text.getParserPosition());
        updateInferredType(number, validator.deriveType(scope, number));
        return number;
    }

    /**
     * The number MySQL reads from a string: its longest numeric prefix after leading spaces (an exponent makes it
     * approximate), 0 when it has none.
     */
    static SqlLiteral numberOf(String text, SqlParserPos position) {
        String value = text.stripLeading();
        int end = 0;
        if (end < value.length() && (value.charAt(end) == '-' || value.charAt(end) == '+')) {
            end++;
        }
        int digits = end;
        while (end < value.length() && Character.isDigit(value.charAt(end))) {
            end++;
        }
        int integerEnd = end;
        if (end < value.length() && value.charAt(end) == '.') {
            end++;
            while (end < value.length() && Character.isDigit(value.charAt(end))) {
                end++;
            }
        }
        if (end == digits || end == digits + 1 && integerEnd == digits) {
            return SqlLiteral.createExactNumeric("0", position);
        }
        String mantissa = value.substring(0, end);
        if (end < value.length() && (value.charAt(end) == 'e' || value.charAt(end) == 'E')) {
            int exponent = end + 1;
            if (exponent < value.length() && (value.charAt(exponent) == '-' || value.charAt(exponent) == '+')) {
                exponent++;
            }
            int exponentDigits = exponent;
            while (exponent < value.length() && Character.isDigit(value.charAt(exponent))) {
                exponent++;
            }
            if (exponent > exponentDigits) {
                return SqlLiteral.createApproxNumeric(new BigDecimal(value.substring(0, exponent)).toString(), position);
            }
        }
        BigDecimal number = new BigDecimal(mantissa);
        return SqlLiteral.createExactNumeric(number.toPlainString(), position);
    }

    private RelDataType type(SqlValidatorScope scope, SqlNode node) {
        return validator.deriveType(scope, node);
    }

    /** Wraps operand {@code index} of {@code call} in a CAST to {@code target} (its nullability kept). */
    private boolean cast(SqlValidatorScope scope, SqlCall call, int index, RelDataType target) {
        SqlNode operand = call.operand(index);
        SqlNode cast = castNode(scope, operand, target);
        if (cast == null) {
            return false;
        }
        call.setOperand(index, cast);
        return true;
    }

    private boolean castElement(SqlValidatorScope scope, SqlNodeList list, int index, RelDataType target) {
        SqlNode cast = castNode(scope, list.get(index), target);
        if (cast == null) {
            return false;
        }
        list.set(index, cast);
        return true;
    }

    private SqlNode castNode(SqlValidatorScope scope, SqlNode operand, RelDataType target) {
        if (operand instanceof SqlDynamicParam) {
            return null;
        }
        RelDataType type = type(scope, operand);
        if (SqlTypeUtil.isNull(type) || SqlTypeUtil.equalSansNullability(factory, type, target)) {
            return null;
        }
        RelDataType nullable = factory.createTypeWithNullability(target, type.isNullable());
        SqlNode cast = SqlStdOperatorTable.CAST.createCall(operand.getParserPosition(), operand,
                SqlTypeUtil.convertTypeToSpec(nullable).withNullable(nullable.isNullable()));
        updateInferredType(cast, nullable);
        return cast;
    }
}
