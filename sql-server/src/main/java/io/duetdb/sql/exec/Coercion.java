package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.json.Json;
import io.duetdb.common.json.JsonParser;
import io.duetdb.common.json.JsonSyntaxException;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

/**
 * Converts a value into a column's type as MySQL's strict mode does: out-of-range numbers fail with 1264,
 * strings longer than the column with 1406, values that are no number or date with 1366 / 1292. Given
 * {@link Lenient} (non-strict sql_mode, INSERT IGNORE), numbers are clamped to the type's range (1264), strings
 * cut to the column (1265) and text that is not a number read by its numeric prefix, else 0 (1265 / 1366), each
 * with a warning, as MySQL does. The result is the executor's form of the column type (BIGINT UNSIGNED as
 * BigDecimal, FLOAT and DOUBLE as Double).
 */
public final class Coercion {
    /** Receives the warnings of a lenient conversion (messages end "at row 1"). */
    public interface Lenient {
        void warn(ErrorCode code, String message);
    }

    private static final java.util.regex.Pattern NUMERIC_PREFIX = java.util.regex.Pattern.compile(
            "\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    private Coercion() {
    }

    public static Object toColumn(Object value, ColumnInfo column) {
        return toColumn(value, column, null);
    }

    public static Object toColumn(Object value, ColumnInfo column, Lenient lenient) {
        if (value == null) {
            return null;
        }
        SqlType type = column.type();
        if (lenient != null && value instanceof String text && !Values.isWholeString(text) && isNumeric(type)) {
            value = numericPrefix(text, type, column.name(), lenient);
        }
        try {
            return switch (type.name()) {
                case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR -> integer(value, type, column.name(), lenient);
                case DECIMAL -> decimal(value, type, column.name(), lenient);
                case FLOAT, DOUBLE -> approximate(value, column.name());
                case CHAR, VARCHAR, TEXT -> text(value, type, column.name(), lenient);
                case BINARY, VARBINARY, BLOB -> binary(value, type, column.name(), lenient);
                case DATE -> date(value);
                case DATETIME, TIMESTAMP -> dateTime(value, type);
                case TIME -> time(value);
                case JSON -> json(value, column.name());
                case BIT -> bit(value, type, column.name(), lenient);
                case ENUM -> enumValue(value, type, column.name(), lenient);
                case SET -> setValue(value, type, column.name(), lenient);
                case NULL -> null;
            };
        } catch (DuetException e) {
            if (e.code() == ErrorCode.TRUNCATED_WRONG_VALUE || e.code() == ErrorCode.INCORRECT_VALUE) {
                throw new DuetException(e.code(), e.getMessage() + " for column '" + column.name() + "' at row 1");
            }
            throw e;
        }
    }

    /**
     * An ENUM takes one of its values (matched regardless of case, kept as the column spells it) or its number,
     * counted from 1. Anything else is MySQL's 1265; leniently the empty string, MySQL's error value, with a warning.
     */
    private static String enumValue(Object value, SqlType type, String column, Lenient lenient) {
        List<String> elements = type.elements();
        if (value instanceof String text) {
            String wanted = text.stripTrailing();
            for (String element : elements) {
                if (element.equalsIgnoreCase(wanted)) {
                    return element;
                }
            }
        } else if (isWholeNumber(value)) {
            long index = Values.toDecimal(value).longValue();
            if (index >= 1 && index <= elements.size()) {
                return elements.get((int) index - 1);
            }
        }
        return badElement(column, lenient);
    }

    /** A SET takes a comma-separated list of its values (each once, in the column's order) or their bit mask. */
    private static String setValue(Object value, SqlType type, String column, Lenient lenient) {
        List<String> elements = type.elements();
        long mask = 0;
        if (value instanceof String text) {
            if (!text.isEmpty()) {
                for (String part : text.split(",", -1)) {
                    int index = indexOfIgnoringCase(elements, part.stripTrailing());
                    if (index < 0) {
                        return badElement(column, lenient);
                    }
                    mask |= 1L << index;
                }
            }
        } else if (isWholeNumber(value)) {
            mask = Values.toDecimal(value).longValue();
            if (mask < 0 || elements.size() < 64 && mask >= 1L << elements.size()) {
                return badElement(column, lenient);
            }
        } else {
            return badElement(column, lenient);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < elements.size(); i++) {
            if ((mask & 1L << i) != 0) {
                text.append(text.length() > 0 ? "," : "").append(elements.get(i));
            }
        }
        return text.toString();
    }

    private static boolean isWholeNumber(Object value) {
        return value instanceof Long || value instanceof Integer
                || value instanceof BigDecimal decimal && decimal.stripTrailingZeros().scale() <= 0;
    }

    private static int indexOfIgnoringCase(List<String> elements, String wanted) {
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i).equalsIgnoreCase(wanted)) {
                return i;
            }
        }
        return -1;
    }

    private static String badElement(String column, Lenient lenient) {
        String message = "Data truncated for column '" + column + "' at row 1";
        if (lenient == null) {
            throw new DuetException(ErrorCode.DATA_TRUNCATED, message);
        }
        lenient.warn(ErrorCode.DATA_TRUNCATED, message);
        return "";
    }

    /** A JSON column takes text that is a JSON document, in its normal form; other values need a CAST, as in MySQL. */
    private static String json(Object value, String column) {
        if (!(value instanceof String text)) {
            throw new DuetException(ErrorCode.INVALID_JSON_TEXT, "Invalid JSON text: \"not a JSON text, may need CAST\""
                    + " at position 0 in value for column '" + column + "'.");
        }
        try {
            return Json.write(JsonParser.parse(text));
        } catch (JsonSyntaxException e) {
            throw new DuetException(ErrorCode.INVALID_JSON_TEXT, "Invalid JSON text: \"" + e.reason()
                    + "\" at position " + e.position() + " in value for column '" + column + "'.");
        }
    }

    private static boolean isNumeric(SqlType type) {
        return switch (type.name()) {
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, DECIMAL, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    /** MySQL's reading of text that is not a number: its numeric prefix, else 0, with a warning. */
    private static String numericPrefix(String text, SqlType type, String column, Lenient lenient) {
        java.util.regex.Matcher prefix = NUMERIC_PREFIX.matcher(text);
        if (prefix.lookingAt()) {
            lenient.warn(ErrorCode.DATA_TRUNCATED, "Data truncated for column '" + column + "' at row 1");
            return prefix.group().strip();
        }
        String kind = switch (type.name()) {
            case DECIMAL -> "decimal";
            case FLOAT, DOUBLE -> "double";
            default -> "integer";
        };
        lenient.warn(ErrorCode.INCORRECT_VALUE, "Incorrect " + kind + " value: '" + text + "' for column '" + column
                + "' at row 1");
        return "0";
    }

    /** BIT(M) takes numbers, truth values and byte strings (b'101', X'05') below 2^M; more is MySQL's 1406. */
    /** A column's default, kept as text in the catalog, as a value of the column. */
    public static Object defaultToColumn(ColumnInfo column) {
        // A BIT default is kept as its number: as a string it would read as the bytes of a binary string.
        Object text = column.type().name() == SqlTypeName.BIT ? new BigDecimal(column.defaultValue())
                : column.defaultValue();
        return toColumn(text, column);
    }

    private static Object bit(Object value, SqlType type, String column, Lenient lenient) {
        // MySQL reads a string stored into a BIT column as the bytes of a binary string ('a' is 97).
        Object number = value instanceof Boolean bool ? (bool ? 1L : 0L)
                : value instanceof byte[] bytes ? new BigDecimal(new BigInteger(1, bytes))
                : value instanceof String text ? new BigDecimal(new BigInteger(1, text.getBytes(StandardCharsets.UTF_8)))
                : value;
        try {
            return integer(number, type, column, null);
        } catch (DuetException e) {
            if (e.code() != ErrorCode.OUT_OF_RANGE_VALUE) {
                throw e;
            }
            String message = "Data too long for column '" + column + "' at row 1";
            if (lenient == null) {
                throw new DuetException(ErrorCode.DATA_TOO_LONG, message);
            }
            lenient.warn(ErrorCode.DATA_TOO_LONG, message);
            return type.maximum().longValue();
        }
    }

    private static Object integer(Object value, SqlType type, String column, Lenient lenient) {
        BigInteger number;
        if (value instanceof Long longValue) {
            number = BigInteger.valueOf(longValue);
        } else if (value instanceof String text) {
            if (!Values.isWholeString(text)) {
                throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect integer value: '" + text + "'");
            }
            number = Values.toDecimal(text).setScale(0, RoundingMode.HALF_UP).toBigInteger();
        } else if (value instanceof Double || value instanceof Float) {
            double doubleValue = ((Number) value).doubleValue();
            if (Double.isNaN(doubleValue) || Double.isInfinite(doubleValue)) {
                throw outOfRange(column);
            }
            number = BigDecimal.valueOf(Math.rint(doubleValue)).toBigInteger();
        } else {
            number = Values.toDecimal(value).setScale(0, RoundingMode.HALF_UP).toBigInteger();
        }
        if (number.compareTo(type.minimum()) < 0 || number.compareTo(type.maximum()) > 0) {
            if (lenient == null) {
                throw outOfRange(column);
            }
            lenient.warn(ErrorCode.OUT_OF_RANGE_VALUE, outOfRange(column).getMessage());
            number = number.signum() < 0 ? type.minimum() : type.maximum();
        }
        if (type.unsigned() && type.name() == SqlTypeName.BIGINT) {
            return new BigDecimal(number);
        }
        return number.longValue();
    }

    private static Object decimal(Object value, SqlType type, String column, Lenient lenient) {
        if (value instanceof String text && !Values.isWholeString(text)) {
            throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect decimal value: '" + text + "'");
        }
        BigDecimal decimal = Values.toDecimal(value).setScale(type.scale(), RoundingMode.HALF_UP);
        if (decimal.precision() - decimal.scale() > type.precision() - type.scale()
                || (type.unsigned() && decimal.signum() < 0)) {
            if (lenient == null) {
                throw outOfRange(column);
            }
            lenient.warn(ErrorCode.OUT_OF_RANGE_VALUE, outOfRange(column).getMessage());
            BigDecimal largest = BigDecimal.TEN.pow(type.precision() - type.scale()).subtract(BigDecimal.ONE.movePointLeft(
                    type.scale())).setScale(type.scale(), RoundingMode.UNNECESSARY);
            return decimal.signum() < 0 ? type.unsigned() ? BigDecimal.ZERO.setScale(type.scale()) : largest.negate()
                    : largest;
        }
        return decimal;
    }

    private static Object approximate(Object value, String column) {
        if (value instanceof String text && !Values.isWholeString(text)) {
            throw new DuetException(ErrorCode.INCORRECT_VALUE, "Incorrect double value: '" + text + "'");
        }
        double number = Values.toDouble(value);
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            throw outOfRange(column);
        }
        return number;
    }

    private static Object text(Object value, SqlType type, String column, Lenient lenient) {
        String text = Values.toText(value);
        if (type.name() == SqlTypeName.CHAR) {
            // MySQL drops a CHAR value's trailing spaces: it reads back (and counts) without them.
            int end = text.length();
            while (end > 0 && text.charAt(end - 1) == ' ') {
                end--;
            }
            text = text.substring(0, end);
        }
        if (text.codePointCount(0, text.length()) > type.length()) {
            if (lenient == null) {
                throw new DuetException(ErrorCode.DATA_TOO_LONG, "Data too long for column '" + column + "' at row 1");
            }
            lenient.warn(ErrorCode.DATA_TRUNCATED, "Data truncated for column '" + column + "' at row 1");
            return text.substring(0, text.offsetByCodePoints(0, (int) type.length()));
        }
        return text;
    }

    private static Object binary(Object value, SqlType type, String column, Lenient lenient) {
        byte[] bytes = value instanceof byte[] raw ? raw : Values.toText(value).getBytes(StandardCharsets.UTF_8);
        if (bytes.length > type.length()) {
            if (lenient == null) {
                throw new DuetException(ErrorCode.DATA_TOO_LONG, "Data too long for column '" + column + "' at row 1");
            }
            lenient.warn(ErrorCode.DATA_TRUNCATED, "Data truncated for column '" + column + "' at row 1");
            return java.util.Arrays.copyOf(bytes, (int) type.length());
        }
        return bytes;
    }

    private static Object date(Object value) {
        if (value instanceof LocalDate date) {
            return date;
        }
        if (value instanceof LocalDateTime dateTime) {
            return dateTime.toLocalDate();
        }
        if (value instanceof String text) {
            return Temporals.parseDate(text);
        }
        throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect date value: '" + Values.toText(value) + "'");
    }

    private static Object dateTime(Object value, SqlType type) {
        LocalDateTime dateTime;
        if (value instanceof LocalDateTime given) {
            dateTime = given;
        } else if (value instanceof LocalDate date) {
            dateTime = date.atStartOfDay();
        } else if (value instanceof String text) {
            dateTime = Temporals.parseDateTime(text);
        } else {
            throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect datetime value: '"
                    + Values.toText(value) + "'");
        }
        return roundFraction(dateTime, type.fractionalSeconds());
    }

    static LocalDateTime roundFraction(LocalDateTime dateTime, int digits) {
        long unit = (long) Math.pow(10, 9 - digits);
        long nanos = dateTime.getNano();
        long rounded = (nanos + unit / 2) / unit * unit;
        return dateTime.withNano(0).plusNanos(rounded);
    }

    private static Object time(Object value) {
        if (value instanceof Duration duration) {
            return duration;
        }
        if (value instanceof LocalDateTime dateTime) {
            return Duration.ofNanos(dateTime.toLocalTime().toNanoOfDay());
        }
        return Temporals.parseTime(Values.toText(value));
    }

    private static DuetException outOfRange(String column) {
        return new DuetException(ErrorCode.OUT_OF_RANGE_VALUE, "Out of range value for column '" + column
                + "' at row 1");
    }
}
