package io.duetdb.spark.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.json.Json;
import io.duetdb.common.json.JsonParser;
import io.duetdb.common.json.JsonSyntaxException;
import io.duetdb.common.types.SqlType;

/**
 * A Spark value of a row being written, in the stored form of its DuetDB column (the row codec's Java types), checked
 * as MySQL's strict mode checks an INSERT: out-of-range integers and decimals, strings longer than the column and
 * NULL in a NOT NULL column are refused with the column named. Spark hands values in the table's Spark types (it
 * casts the DataFrame's columns to them before writing).
 */
final class SparkValues {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final BigInteger UNSIGNED_BIGINT_LIMIT = BigInteger.ONE.shiftLeft(64);

    private SparkValues() {
    }

    static Object stored(ColumnInfo column, DataType sparkType, InternalRow row, int ordinal) {
        if (row.isNullAt(ordinal)) {
            return null;
        }
        SqlType type = column.type();
        return switch (type.name()) {
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, BIT -> integer(column, sparkType, row, ordinal);
            case DECIMAL -> decimal(column, sparkType == DataTypes.StringType
                    ? new BigDecimal(row.getUTF8String(ordinal).toString())
                    : row.getDecimal(ordinal, ((DecimalType) sparkType).precision(), ((DecimalType) sparkType).scale())
                            .toJavaBigDecimal());
            case FLOAT -> row.getFloat(ordinal);
            case DOUBLE -> row.getDouble(ordinal);
            case CHAR, VARCHAR, TEXT -> text(column, row.getUTF8String(ordinal).toString());
            case ENUM, SET -> elements(column, row.getUTF8String(ordinal).toString());
            case BINARY, VARBINARY, BLOB -> bytes(column, row.getBinary(ordinal));
            case JSON -> json(column, row.getUTF8String(ordinal).toString());
            case DATE -> LocalDate.ofEpochDay(row.getInt(ordinal));
            case DATETIME, TIMESTAMP -> dateTime(row.getLong(ordinal), type.scale());
            case TIME -> time(row.getLong(ordinal), type.scale());
            case NULL -> null;
        };
    }

    private static Object integer(ColumnInfo column, DataType sparkType, InternalRow row, int ordinal) {
        SqlType type = column.type();
        if (type.unsigned() && type.name() == io.duetdb.common.types.SqlTypeName.BIGINT) {
            BigInteger value = row.getDecimal(ordinal, 20, 0).toJavaBigDecimal().toBigIntegerExact();
            if (value.signum() < 0 || value.compareTo(UNSIGNED_BIGINT_LIMIT) >= 0) {
                throw outOfRange(column, value.toString());
            }
            return value.longValue();
        }
        long value;
        if (sparkType == DataTypes.ByteType) {
            value = row.getByte(ordinal);
        } else if (sparkType == DataTypes.ShortType) {
            value = row.getShort(ordinal);
        } else if (sparkType == DataTypes.IntegerType) {
            value = row.getInt(ordinal);
        } else {
            value = row.getLong(ordinal);
        }
        BigInteger exact = BigInteger.valueOf(value);
        if (exact.compareTo(type.minimum()) < 0 || exact.compareTo(type.maximum()) > 0) {
            throw outOfRange(column, Long.toString(value));
        }
        return value;
    }

    private static BigDecimal decimal(ColumnInfo column, BigDecimal value) {
        BigDecimal scaled = value.setScale(column.type().scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > column.type().length() - column.type().scale()) {
            throw outOfRange(column, value.toPlainString());
        }
        return scaled;
    }

    private static String text(ColumnInfo column, String value) {
        if (column.type().length() > 0 && value.codePointCount(0, value.length()) > column.type().length()) {
            throw new IllegalArgumentException("Data too long for column '" + column.name() + "' (" + column.type().toSql()
                    + "): a value of " + value.codePointCount(0, value.length()) + " characters");
        }
        return value;
    }

    /** An ENUM takes one of its values, a SET a comma-separated list of them, kept as the column spells them. */
    private static String elements(ColumnInfo column, String value) {
        List<String> elements = column.type().elements();
        List<String> parts = column.type().name() == io.duetdb.common.types.SqlTypeName.SET
                ? (value.isEmpty() ? List.of() : Arrays.asList(value.split(",", -1))) : List.of(value);
        StringBuilder text = new StringBuilder();
        for (String element : elements) {
            for (String part : parts) {
                if (element.equalsIgnoreCase(part.stripTrailing())) {
                    text.append(text.length() > 0 ? "," : "").append(element);
                    break;
                }
            }
        }
        long known = parts.stream().filter(part -> elements.stream().anyMatch(e -> e.equalsIgnoreCase(part.stripTrailing())))
                .count();
        if (known != parts.size()) {
            throw new IllegalArgumentException("Data truncated for column '" + column.name() + "': '" + value
                    + "' is not a value of " + column.type().toSql());
        }
        return text.toString();
    }

    /** A JSON column takes a JSON document, kept in MySQL's normal form as the SQL layer keeps it. */
    private static String json(ColumnInfo column, String value) {
        try {
            return Json.write(JsonParser.parse(value));
        } catch (JsonSyntaxException e) {
            throw new IllegalArgumentException("Invalid JSON text: \"" + e.reason() + "\" at position " + e.position()
                    + " in value for column '" + column.name() + "'");
        }
    }

    private static byte[] bytes(ColumnInfo column, byte[] value) {
        if (column.type().length() > 0 && value.length > column.type().length()) {
            throw new IllegalArgumentException("Data too long for column '" + column.name() + "' (" + column.type().toSql()
                    + "): a value of " + value.length + " bytes");
        }
        return value;
    }

    private static LocalDateTime dateTime(long micros, int fractionalDigits) {
        long rounded = roundMicros(micros, fractionalDigits);
        return LocalDateTime.ofEpochSecond(Math.floorDiv(rounded, MICROS_PER_SECOND),
                (int) Math.floorMod(rounded, MICROS_PER_SECOND) * 1000, ZoneOffset.UTC);
    }

    private static Duration time(long micros, int fractionalDigits) {
        long rounded = roundMicros(micros, fractionalDigits);
        return Duration.ofSeconds(Math.floorDiv(rounded, MICROS_PER_SECOND), Math.floorMod(rounded, MICROS_PER_SECOND) * 1000);
    }

    /** Microseconds rounded half up to the column's fractional digits, as MySQL stores a more precise value. */
    private static long roundMicros(long micros, int fractionalDigits) {
        long unit = 1;
        for (int i = fractionalDigits; i < 6; i++) {
            unit *= 10;
        }
        return unit == 1 ? micros : Math.floorDiv(micros + unit / 2, unit) * unit;
    }

    private static IllegalArgumentException outOfRange(ColumnInfo column, String value) {
        return new IllegalArgumentException("Out of range value for column '" + column.name() + "' ("
                + column.type().toSql() + "): " + value);
    }

    /** The stored form of a DEFAULT CURRENT_TIMESTAMP at the write's time. */
    static LocalDateTime currentTimestamp(long epochMillis) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000L), (int) Math.floorMod(epochMillis, 1000L) * 1_000_000,
                ZoneOffset.UTC);
    }
}
