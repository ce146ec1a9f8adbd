package io.duetdb.sql.protocol;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

/** MySQL's column type codes, column flags and the text form of values. */
final class WireTypes {
    static final int DECIMAL = 0x00;
    static final int TINY = 0x01;
    static final int SHORT = 0x02;
    static final int LONG = 0x03;
    static final int FLOAT = 0x04;
    static final int DOUBLE = 0x05;
    static final int NULL = 0x06;
    static final int TIMESTAMP = 0x07;
    static final int LONGLONG = 0x08;
    static final int INT24 = 0x09;
    static final int DATE = 0x0A;
    static final int TIME = 0x0B;
    static final int DATETIME = 0x0C;
    static final int YEAR = 0x0D;
    static final int VARCHAR = 0x0F;
    static final int BIT = 0x10;
    static final int JSON = 0xF5;
    static final int NEWDECIMAL = 0xF6;
    static final int BLOB = 0xFC;
    static final int VAR_STRING = 0xFD;
    static final int STRING = 0xFE;

    static final int NOT_NULL_FLAG = 1;
    static final int PRIMARY_KEY_FLAG = 2;
    static final int BLOB_FLAG = 16;
    static final int UNSIGNED_FLAG = 32;
    static final int BINARY_FLAG = 128;
    static final int ENUM_FLAG = 256;
    static final int SET_FLAG = 2048;

    static final int UTF8MB4_BIN = 46;
    static final int BINARY_COLLATION = 63;

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private WireTypes() {
    }

    static int typeCode(SqlType type) {
        return switch (type.name()) {
            case TINYINT -> TINY;
            case SMALLINT -> SHORT;
            case MEDIUMINT -> INT24;
            case INT -> LONG;
            case BIGINT -> LONGLONG;
            case DECIMAL -> NEWDECIMAL;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case CHAR, BINARY, ENUM, SET -> STRING;
            case VARCHAR, VARBINARY -> VAR_STRING;
            case TEXT, BLOB -> BLOB;
            case DATE -> DATE;
            case DATETIME -> DATETIME;
            case TIMESTAMP -> TIMESTAMP;
            case TIME -> TIME;
            case YEAR -> YEAR;
            case BIT -> BIT;
            case JSON -> JSON;
            case NULL -> NULL;
        };
    }

    static int collation(SqlType type) {
        return type.name().isString() ? UTF8MB4_BIN : BINARY_COLLATION;
    }

    static int flags(SqlType type, boolean notNull) {
        int flags = notNull ? NOT_NULL_FLAG : 0;
        if (type.unsigned()) {
            flags |= UNSIGNED_FLAG;
        }
        if (type.name() == SqlTypeName.TEXT || type.name() == SqlTypeName.BLOB || type.name() == SqlTypeName.JSON) {
            flags |= BLOB_FLAG;
        }
        if (type.name() == SqlTypeName.ENUM) {
            flags |= ENUM_FLAG;
        } else if (type.name() == SqlTypeName.SET) {
            flags |= SET_FLAG;
        }
        // A BIT column carries no BINARY flag: Connector/J reads BIT(1) as a Boolean only without it, as from MySQL.
        if (type.name().isBinary() || !type.name().isString() && type.name() != SqlTypeName.BIT) {
            flags |= BINARY_FLAG;
        }
        return flags;
    }

    /** The column length clients see: characters times 4 for utf8mb4 strings, display width otherwise. */
    static long displayLength(SqlType type) {
        return switch (type.name()) {
            case CHAR, VARCHAR, TEXT, ENUM, SET -> Math.min(0xFFFFFFFFL, Integer.toUnsignedLong(type.length()) * 4L);
            case JSON -> 0xFFFFFFFFL;
            case DECIMAL -> type.length() + (type.scale() > 0 ? 2 : 1);
            case TINYINT -> type.length() > 0 ? type.length() : 4;
            case DATETIME, TIMESTAMP -> 19 + (type.scale() > 0 ? type.scale() + 1 : 0);
            case DATE -> 10;
            default -> type.length();
        };
    }

    static int decimals(SqlType type) {
        return switch (type.name()) {
            case DECIMAL, DATETIME, TIMESTAMP, TIME -> type.scale();
            case FLOAT, DOUBLE -> 31;
            case CHAR, VARCHAR, TEXT, BINARY, VARBINARY, BLOB -> 0;
            default -> 0;
        };
    }

    /** The text-protocol form of a value. */
    static byte[] text(Object value, SqlType type) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (type.name() == SqlTypeName.BIT && value instanceof Number number) {
            // MySQL sends a BIT value as its bytes, most significant first, in both protocols.
            byte[] bytes = new byte[(type.length() + 7) / 8];
            long bits = number.longValue();
            for (int i = bytes.length - 1; i >= 0; i--, bits >>>= 8) {
                bytes[i] = (byte) bits;
            }
            return bytes;
        }
        return textString(value, type).getBytes(StandardCharsets.UTF_8);
    }

    static String textString(Object value, SqlType type) {
        if (value instanceof Long number) {
            return type.unsigned() ? Long.toUnsignedString(number) : Long.toString(number);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Double number) {
            return formatDouble(number);
        }
        if (value instanceof Float number) {
            return formatDouble(number.doubleValue());
        }
        if (value instanceof Boolean bool) {
            return bool ? "1" : "0";
        }
        if (value instanceof LocalDateTime dateTime) {
            return formatDateTime(dateTime, type.name().isInteger() ? 0 : type.fractionalSeconds());
        }
        if (value instanceof LocalDate date) {
            return date.toString();
        }
        if (value instanceof Duration duration) {
            return formatTime(duration, type.fractionalSeconds());
        }
        return value.toString();
    }

    static String formatDateTime(LocalDateTime value, int fractionalSeconds) {
        String text = DATE_TIME.format(value);
        if (fractionalSeconds > 0) {
            String nanos = String.format("%09d", value.getNano());
            text = text + "." + nanos.substring(0, fractionalSeconds);
        }
        return text;
    }

    static String formatTime(Duration value, int fractionalSeconds) {
        boolean negative = value.isNegative();
        Duration absolute = value.abs();
        long hours = absolute.toHours();
        String text = String.format("%s%02d:%02d:%02d", negative ? "-" : "", hours, absolute.toMinutesPart(),
                absolute.toSecondsPart());
        if (fractionalSeconds > 0) {
            text = text + "." + String.format("%09d", absolute.toNanosPart()).substring(0, fractionalSeconds);
        }
        return text;
    }

    /** MySQL prints doubles in the shortest form that reads back the same, without a trailing ".0". */
    static String formatDouble(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        String text = Double.toString(value);
        int exponent = text.indexOf('E');
        if (exponent >= 0) {
            String mantissa = text.substring(0, exponent);
            if (mantissa.endsWith(".0")) {
                mantissa = mantissa.substring(0, mantissa.length() - 2);
            }
            return mantissa + "e" + text.substring(exponent + 1);
        }
        return text;
    }
}
