package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.LocalDate;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.json.Json;

/**
 * CAST as MySQL converts: to SIGNED from a string by its integer prefix ('1.9' is 1, as MySQL reads it), from an exact
 * number rounded half away from zero and from a DOUBLE to the nearest (halves to even), clamped to BIGINT; to UNSIGNED the same, a negative value wrapping around
 * 2^64 (-1 is 18446744073709551615) and larger ones clamped; to DECIMAL rounded half away from zero; to a date or
 * time NULL when the text is none (MySQL warns); to a string of a given length cut to it.
 */
final class Casts {
    private static final BigInteger TWO_TO_THE_64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger UNSIGNED_MAXIMUM = TWO_TO_THE_64.subtract(BigInteger.ONE);
    private static final BigInteger SIGNED_MINIMUM = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger SIGNED_MAXIMUM = BigInteger.valueOf(Long.MAX_VALUE);
    private static final int LONGEST_LIMITED_STRING = 65535;

    private Casts() {
    }

    /** {@code from}, the operand's type, sets the fractional digits a DATETIME keeps as text (MySQL's fsp). */
    static RowExpression cast(RowExpression operand, RelDataType from, RelDataType type) {
        SqlTypeName target = type.getSqlTypeName();
        int fractionalDigits = from.getSqlTypeName() == SqlTypeName.TIMESTAMP ? Math.max(0, from.getPrecision()) : -1;
        int scale = type.getScale();
        int precision = type.getPrecision();
        return row -> {
            Object value = operand.evaluate(row);
            if (value == null) {
                return null;
            }
            return switch (target) {
                case TINYINT, SMALLINT, INTEGER, BIGINT -> signed(value);
                case UBIGINT -> new BigDecimal(unsigned(value));
                case DECIMAL -> Values.toDecimal(value).setScale(Math.max(scale, 0), RoundingMode.HALF_UP);
                case DOUBLE, FLOAT, REAL -> Values.toDouble(value);
                case CHAR, VARCHAR -> {
                    String text = value instanceof Double number ? formatDouble(number)
                            : value instanceof LocalDateTime dateTime && fractionalDigits >= 0
                                    ? Values.toText(dateTime, fractionalDigits) : Values.toText(value);
                    yield precision > 0 && text.length() > precision && precision <= LONGEST_LIMITED_STRING
                            ? text.substring(0, text.offsetByCodePoints(0, Math.min(precision,
                                    text.codePointCount(0, text.length())))) : text;
                }
                case BINARY, VARBINARY -> value instanceof byte[] ? value
                        : Values.toText(value).getBytes(StandardCharsets.UTF_8);
                case DATE -> value instanceof LocalDate ? value : temporal(() -> Values.toDateTime(value).toLocalDate());
                case TIMESTAMP -> temporal(() -> Values.toDateTime(value));
                case TIME -> value instanceof Duration ? value : temporal(() -> Temporals.parseTime(Values.toText(value)));
                case BOOLEAN -> Values.truth(value);
                default -> value;
            };
        };
    }

    /** MySQL's conversion of a value to BIGINT (CAST ... AS SIGNED). */
    static long signed(Object value) {
        BigInteger number = integer(value);
        return number.max(SIGNED_MINIMUM).min(SIGNED_MAXIMUM).longValueExact();
    }

    /** MySQL's conversion of a value to BIGINT UNSIGNED (CAST ... AS UNSIGNED). */
    static BigInteger unsigned(Object value) {
        BigInteger number = integer(value);
        if (number.signum() < 0) {
            number = number.compareTo(SIGNED_MINIMUM) >= 0 ? number.add(TWO_TO_THE_64) : BigInteger.ZERO;
        }
        return number.min(UNSIGNED_MAXIMUM);
    }

    private static BigInteger integer(Object value) {
        if (value instanceof Long number) {
            return BigInteger.valueOf(number);
        }
        if (value instanceof String || value instanceof byte[]) {
            return integerPrefix(Values.toText(value));
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number)) {
                return BigInteger.ZERO;
            }
            if (Double.isInfinite(number)) {
                return number > 0 ? TWO_TO_THE_64 : SIGNED_MINIMUM.subtract(BigInteger.ONE);
            }
            // MySQL rounds a DOUBLE to the nearest integer, halves to even (rint).
            return BigDecimal.valueOf(Math.rint(number)).toBigInteger();
        }
        return Values.toDecimal(value).setScale(0, RoundingMode.HALF_UP).toBigInteger();
    }

    /** The integer a string starts with after leading spaces ('12.9abc' is 12), 0 when none. */
    private static BigInteger integerPrefix(String text) {
        String value = text.stripLeading();
        int end = 0;
        if (end < value.length() && (value.charAt(end) == '-' || value.charAt(end) == '+')) {
            end++;
        }
        int digits = end;
        while (end < value.length() && Character.isDigit(value.charAt(end))) {
            end++;
        }
        return end == digits ? BigInteger.ZERO : new BigInteger(value.substring(0, end));
    }

    private interface Temporal {
        Object value();
    }

    private static Object temporal(Temporal conversion) {
        try {
            return conversion.value();
        } catch (DuetException e) {
            return null;
        }
    }

    /** A DOUBLE as MySQL prints it: whole values without a fraction, exponents as 1e20. */
    static String formatDouble(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Json.formatDouble(value);
    }
}
