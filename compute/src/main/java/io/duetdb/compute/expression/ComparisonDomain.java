package io.duetdb.compute.expression;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * The representation two values are compared in, as the SQL layer compares them: integers as signed or
 * unsigned 64-bit values, dates and times on one microsecond scale, exact numbers as decimals, anything
 * approximate as doubles, strings and bytes by their bytes.
 */
enum ComparisonDomain {
    SIGNED,
    UNSIGNED,
    DOUBLE,
    DECIMAL,
    BYTES;

    static ComparisonDomain of(ValueType left, ValueType right) {
        if (left == ValueType.UINT64 && right == ValueType.UINT64) {
            return UNSIGNED;
        }
        if (isSigned(left) && isSigned(right)) {
            return SIGNED;
        }
        if (ValueTypes.isTemporal(left) && ValueTypes.isTemporal(right) || left == ValueType.TIME && right == ValueType.TIME) {
            return SIGNED;
        }
        if (ValueTypes.isNumeric(left) && ValueTypes.isNumeric(right)) {
            boolean approximate = left == ValueType.FLOAT32 || left == ValueType.FLOAT64 || right == ValueType.FLOAT32
                    || right == ValueType.FLOAT64;
            return approximate ? DOUBLE : DECIMAL;
        }
        if (isText(left) && isText(right)) {
            return BYTES;
        }
        throw new UnsupportedExpressionException("cannot compare " + left + " with " + right);
    }

    /** Reads a DATE compared with a DATETIME on the microsecond scale. */
    static Operand aligned(Operand operand, ValueType type, ValueType other) {
        if (type == ValueType.DATE && (other == ValueType.DATETIME || other == ValueType.TIMESTAMP)) {
            return Operand.daysAsMicros(operand);
        }
        return operand;
    }

    private static boolean isSigned(ValueType type) {
        return type == ValueType.INT64 || type == ValueType.BOOLEAN;
    }

    private static boolean isText(ValueType type) {
        return type == ValueType.STRING || type == ValueType.BYTES;
    }
}
