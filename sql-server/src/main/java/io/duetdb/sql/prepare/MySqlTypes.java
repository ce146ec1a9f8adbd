package io.duetdb.sql.prepare;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * MySQL's aggregation of types, where several expressions give one column or value (UNION branches, CASE, IF,
 * IFNULL and COALESCE branches, VALUES rows): NULL takes the other type; numbers give the widest number (any
 * DOUBLE makes a DOUBLE, else any DECIMAL a DECIMAL); dates and times the wider temporal type (DATE with DATETIME
 * or TIME is DATETIME); binary strings with anything a binary string; and any other mix (a number with a string
 * or a date, a date with a string) a VARCHAR long enough for each value's text. Calcite's truth values count as
 * integers, as MySQL's are.
 */
final class MySqlTypes {
    private static final int INTEGER_WIDTH = 20;
    private static final int DOUBLE_WIDTH = 23;
    private static final int DATE_WIDTH = 10;
    private static final int TIME_WIDTH = 8;
    private static final int DATETIME_WIDTH = 19;

    private MySqlTypes() {
    }

    /** The aggregated type, or null when a type is none MySQL aggregates (rows, intervals, collections). */
    static RelDataType aggregate(RelDataTypeFactory factory, List<RelDataType> types) {
        RelDataType result = null;
        for (RelDataType type : types) {
            result = result == null ? type : aggregate(factory, result, type);
            if (result == null) {
                return null;
            }
        }
        return result;
    }

    static RelDataType aggregate(RelDataTypeFactory factory, RelDataType first, RelDataType second) {
        if (!isScalar(first) || !isScalar(second)) {
            return null;
        }
        boolean nullable = first.isNullable() || second.isNullable();
        if (SqlTypeUtil.isNull(first)) {
            return factory.createTypeWithNullability(second, true);
        }
        if (SqlTypeUtil.isNull(second)) {
            return factory.createTypeWithNullability(first, true);
        }
        RelDataType type;
        if (SqlTypeUtil.isBoolean(first) && SqlTypeUtil.isBoolean(second)) {
            type = first;
        } else if (isNumber(first) && isNumber(second)) {
            type = widestNumber(factory, first, second);
        } else if (SqlTypeUtil.isDatetime(first) && SqlTypeUtil.isDatetime(second)) {
            SqlTypeName name = first.getSqlTypeName() == second.getSqlTypeName() ? first.getSqlTypeName()
                    : SqlTypeName.TIMESTAMP;
            type = name == SqlTypeName.DATE ? factory.createSqlType(name)
                    : factory.createSqlType(name, Math.max(fraction(first), fraction(second)));
        } else if (SqlTypeUtil.isBinary(first) || SqlTypeUtil.isBinary(second)) {
            type = factory.createSqlType(SqlTypeName.VARBINARY);
        } else {
            int width = SqlTypeUtil.isCharacter(first) && first.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                    || SqlTypeUtil.isCharacter(second) && second.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                    ? RelDataType.PRECISION_NOT_SPECIFIED : Math.max(textWidth(first), textWidth(second));
            type = width == RelDataType.PRECISION_NOT_SPECIFIED ? factory.createSqlType(SqlTypeName.VARCHAR)
                    : factory.createSqlType(SqlTypeName.VARCHAR, width);
            type = MySqlCollations.unified(factory, type, List.of(first, second));
        }
        return factory.createTypeWithNullability(type, nullable);
    }

    /** Any DOUBLE makes a DOUBLE; else any DECIMAL a DECIMAL holding both; else the wider integer. */
    private static RelDataType widestNumber(RelDataTypeFactory factory, RelDataType first, RelDataType second) {
        RelDataType a = asNumber(factory, first);
        RelDataType b = asNumber(factory, second);
        if (SqlTypeUtil.isApproximateNumeric(a) || SqlTypeUtil.isApproximateNumeric(b)) {
            return factory.createSqlType(SqlTypeName.DOUBLE);
        }
        boolean unsignedMix = (a.getSqlTypeName() == SqlTypeName.UBIGINT) != (b.getSqlTypeName() == SqlTypeName.UBIGINT);
        if (SqlTypeUtil.isDecimal(a) || SqlTypeUtil.isDecimal(b) || unsignedMix) {
            int scale = Math.max(scale(a), scale(b));
            int digits = Math.max(integerDigits(a), integerDigits(b));
            int maxPrecision = factory.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL);
            int maxScale = factory.getTypeSystem().getMaxScale(SqlTypeName.DECIMAL);
            scale = Math.min(scale, maxScale);
            return factory.createSqlType(SqlTypeName.DECIMAL, Math.min(maxPrecision, digits + scale), scale);
        }
        return integerDigits(a) >= integerDigits(b) ? a : b;
    }

    private static int scale(RelDataType type) {
        return SqlTypeUtil.isDecimal(type) ? Math.max(0, type.getScale()) : 0;
    }

    /** The digits before the point a value of an exact type may have. */
    private static int integerDigits(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, UTINYINT -> 3;
            case SMALLINT, USMALLINT -> 5;
            case INTEGER, UINTEGER -> 10;
            case BIGINT -> 19;
            case UBIGINT -> 20;
            case DECIMAL -> type.getPrecision() - Math.max(0, type.getScale());
            default -> 19;
        };
    }

    /** A number or a truth value (MySQL's truth values are integers). */
    static boolean isNumber(RelDataType type) {
        return SqlTypeUtil.isNumeric(type) || SqlTypeUtil.isBoolean(type);
    }

    /** A truth value as the integer MySQL has for it; other types as they are. */
    static RelDataType asNumber(RelDataTypeFactory factory, RelDataType type) {
        if (SqlTypeUtil.isBoolean(type)) {
            return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.BIGINT), type.isNullable());
        }
        return type;
    }

    private static boolean isScalar(RelDataType type) {
        return SqlTypeUtil.isNull(type) || isNumber(type) || SqlTypeUtil.isString(type)
                || SqlTypeUtil.isDatetime(type);
    }

    private static int fraction(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.DATE ? 0 : Math.max(0, type.getPrecision());
    }

    /** The longest text of a value of the type (unspecified for strings of any length). */
    private static int textWidth(RelDataType type) {
        if (SqlTypeUtil.isCharacter(type)) {
            return type.getPrecision();
        }
        int fraction = fraction(type) > 0 ? fraction(type) + 1 : 0;
        return switch (type.getSqlTypeName()) {
            case DECIMAL -> type.getPrecision() + 2;
            case DOUBLE, FLOAT, REAL -> DOUBLE_WIDTH;
            case DATE -> DATE_WIDTH;
            case TIME -> TIME_WIDTH + fraction;
            case TIMESTAMP -> DATETIME_WIDTH + fraction;
            default -> INTEGER_WIDTH;
        };
    }
}
