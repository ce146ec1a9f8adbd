package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * MySQL's value semantics on the executor's Java values (Long, BigDecimal, Double, String, byte[], LocalDate,
 * LocalDateTime, Duration, Boolean): comparison with numeric promotion, truth, and conversions.
 */
public final class Values {
    private Values() {
    }

    /** Compares two non-null values; numbers compare as numbers across types, strings byte-wise (utf8mb4_bin). */
    public static int compare(Object left, Object right) {
        if (left instanceof Boolean bool) {
            left = bool ? 1L : 0L;
        }
        if (right instanceof Boolean bool) {
            right = bool ? 1L : 0L;
        }
        if (left instanceof Long a && right instanceof Long b) {
            return Long.compare(a, b);
        }
        if (isNumber(left) || isNumber(right)) {
            if (left instanceof Double || right instanceof Double || left instanceof Float || right instanceof Float) {
                return Double.compare(toDouble(left), toDouble(right));
            }
            return toDecimal(left).compareTo(toDecimal(right));
        }
        if (left instanceof String a && right instanceof String b) {
            return compareUtf8(a, b);
        }
        if (left instanceof byte[] a && right instanceof byte[] b) {
            return Arrays.compareUnsigned(a, b);
        }
        if (left instanceof LocalDate || left instanceof LocalDateTime || right instanceof LocalDate
                || right instanceof LocalDateTime) {
            return toDateTime(left).compareTo(toDateTime(right));
        }
        if (left instanceof Duration a && right instanceof Duration b) {
            return a.compareTo(b);
        }
        return compareUtf8(toText(left), toText(right));
    }

    private static int compareUtf8(String a, String b) {
        return io.duetdb.compute.ValueOrdering.compareCodePoints(a, b);
    }

    public static boolean isNumber(Object value) {
        return value instanceof Long || value instanceof BigDecimal || value instanceof Double
                || value instanceof Float || value instanceof Integer;
    }

    /**
     * MySQL truth: null stays unknown, numbers are true when non-zero, strings by their numeric prefix, dates and times
     * when not zero.
     */
    public static Boolean truth(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Boolean bool) {
            return bool;
        }
        if (value instanceof Long number) {
            return number != 0;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.signum() != 0;
        }
        if (value instanceof Double number) {
            return number != 0;
        }
        if (value instanceof Duration duration) {
            return !duration.isZero();
        }
        return toDouble(value) != 0;
    }

    public static long toLong(Object value) {
        if (value instanceof Long number) {
            return number;
        }
        if (value instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        if (value instanceof Integer number) {
            return number;
        }
        BigDecimal decimal = toDecimal(value).setScale(0, java.math.RoundingMode.HALF_UP);
        try {
            return decimal.longValueExact();
        } catch (ArithmeticException e) {
            throw new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "BIGINT value is out of range in '" + value + "'");
        }
    }

    public static double toDouble(Object value) {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        if (value instanceof String text) {
            return parseNumericPrefix(text).doubleValue();
        }
        if (value instanceof byte[] bytes) {
            return parseNumericPrefix(new String(bytes, StandardCharsets.UTF_8)).doubleValue();
        }
        if (value instanceof LocalDate date) {
            return date.getYear() * 10000.0 + date.getMonthValue() * 100 + date.getDayOfMonth();
        }
        if (value instanceof LocalDateTime dateTime) {
            return toDecimal(dateTime).doubleValue();
        }
        throw new DuetException(ErrorCode.INCORRECT_VALUE, "cannot use " + value + " as a number");
    }

    public static BigDecimal toDecimal(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Long number) {
            return BigDecimal.valueOf(number);
        }
        if (value instanceof Integer number) {
            return BigDecimal.valueOf(number);
        }
        if (value instanceof Double number) {
            if (number.isNaN() || number.isInfinite()) {
                throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect decimal value: '" + number + "'");
            }
            return BigDecimal.valueOf(number);
        }
        if (value instanceof Float number) {
            return new BigDecimal(Float.toString(number));
        }
        if (value instanceof Boolean bool) {
            return bool ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (value instanceof String text) {
            return parseNumericPrefix(text);
        }
        if (value instanceof byte[] bytes) {
            return parseNumericPrefix(new String(bytes, StandardCharsets.UTF_8));
        }
        if (value instanceof LocalDate date) {
            return BigDecimal.valueOf(date.getYear() * 10000L + date.getMonthValue() * 100L + date.getDayOfMonth());
        }
        if (value instanceof LocalDateTime dateTime) {
            long whole = ((dateTime.getYear() * 100L + dateTime.getMonthValue()) * 100 + dateTime.getDayOfMonth())
                    * 1000000L + dateTime.getHour() * 10000L + dateTime.getMinute() * 100L + dateTime.getSecond();
            return BigDecimal.valueOf(whole);
        }
        throw new DuetException(ErrorCode.INCORRECT_VALUE, "cannot use " + value + " as a number");
    }

    /** The longest numeric prefix of a string, as MySQL reads '12abc' as 12 (0 when there is none). */
    public static BigDecimal parseNumericPrefix(String text) {
        String trimmed = text.strip();
        int end = 0;
        int length = trimmed.length();
        if (end < length && (trimmed.charAt(end) == '-' || trimmed.charAt(end) == '+')) {
            end++;
        }
        int digitsStart = end;
        while (end < length && Character.isDigit(trimmed.charAt(end))) {
            end++;
        }
        if (end < length && trimmed.charAt(end) == '.') {
            end++;
            while (end < length && Character.isDigit(trimmed.charAt(end))) {
                end++;
            }
        }
        if (end == digitsStart || (end == digitsStart + 1 && trimmed.charAt(digitsStart) == '.')) {
            return BigDecimal.ZERO;
        }
        int mantissaEnd = end;
        if (end < length && (trimmed.charAt(end) == 'e' || trimmed.charAt(end) == 'E')) {
            int exponent = end + 1;
            if (exponent < length && (trimmed.charAt(exponent) == '-' || trimmed.charAt(exponent) == '+')) {
                exponent++;
            }
            int exponentDigits = exponent;
            while (exponent < length && Character.isDigit(trimmed.charAt(exponent))) {
                exponent++;
            }
            if (exponent > exponentDigits) {
                end = exponent;
            }
        }
        try {
            return new BigDecimal(trimmed.substring(0, end));
        } catch (NumberFormatException e) {
            return new BigDecimal(trimmed.substring(0, mantissaEnd));
        }
    }

    public static boolean isWholeString(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return false;
        }
        try {
            new BigDecimal(trimmed);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public static String toText(Object value) {
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Double number) {
            if (number == Math.rint(number) && Math.abs(number) < 1e15) {
                return Long.toString(number.longValue());
            }
            return number.toString();
        }
        if (value instanceof Boolean bool) {
            return bool ? "1" : "0";
        }
        if (value instanceof LocalDateTime dateTime) {
            return toText(dateTime, dateTime.getNano() != 0 ? 6 : 0);
        }
        if (value instanceof Duration time) {
            return toText(time);
        }
        return String.valueOf(value);
    }

    /** A TIME as MySQL writes it: [-]hh:mm:ss, with microseconds when it has any. */
    public static String toText(Duration time) {
        Duration magnitude = time.abs();
        String text = String.format("%s%02d:%02d:%02d", time.isNegative() ? "-" : "", magnitude.toHours(),
                magnitude.toMinutesPart(), magnitude.toSecondsPart());
        return magnitude.toNanosPart() == 0 ? text : text + String.format(".%06d", magnitude.toNanosPart() / 1000);
    }

    /** A DATETIME as MySQL writes it with {@code fractionalDigits} (0 to 6) digits of fractional seconds. */
    public static String toText(LocalDateTime dateTime, int fractionalDigits) {
        String text = dateTime.toLocalDate() + " " + String.format("%02d:%02d:%02d", dateTime.getHour(),
                dateTime.getMinute(), dateTime.getSecond());
        if (fractionalDigits <= 0) {
            return text;
        }
        return text + "." + String.format("%06d", dateTime.getNano() / 1000).substring(0, Math.min(6, fractionalDigits));
    }

    public static LocalDateTime toDateTime(Object value) {
        if (value instanceof LocalDateTime dateTime) {
            return dateTime;
        }
        if (value instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        if (value instanceof String text) {
            return Temporals.parseDateTime(text);
        }
        throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect datetime value: '" + value + "'");
    }

    static BigInteger toBigInteger(Object value) {
        return toDecimal(value).setScale(0, java.math.RoundingMode.HALF_UP).toBigIntegerExact();
    }
}
