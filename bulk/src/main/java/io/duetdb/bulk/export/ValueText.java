package io.duetdb.bulk.export;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.duetdb.common.types.SqlType;

/**
 * A column value as the coprocessor's vectors hold it, written as MySQL writes it in text (SELECT ... INTO OUTFILE,
 * mysqldump): dates as YYYY-MM-DD, date-times with the column's fractional digits, decimals in plain notation,
 * whole doubles without a fraction. What it writes, IMPORT INTO and LOAD DATA read back to the same value.
 */
final class ValueText {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private ValueText() {
    }

    static String format(Object value, SqlType type) {
        if (value == null) {
            return null;
        }
        return switch (type.storageType()) {
            case INT64 -> Long.toString(((Number) value).longValue());
            case UINT64 -> Long.toUnsignedString(((Number) value).longValue());
            case FLOAT32 -> approximate(((Number) value).floatValue(), Float.toString(((Number) value).floatValue()));
            case FLOAT64 -> approximate(((Number) value).doubleValue(), Double.toString(((Number) value).doubleValue()));
            case DECIMAL -> ((BigDecimal) value).toPlainString();
            case STRING -> value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
            case BYTES -> value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
            case DATE -> LocalDate.ofEpochDay(((Number) value).longValue()).toString();
            case DATETIME, TIMESTAMP -> dateTime(((Number) value).longValue(), type.scale());
            case TIME -> time(((Number) value).longValue(), type.scale());
        };
    }

    private static String approximate(double value, String text) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return text;
    }

    static String dateTime(long micros, int fractionalDigits) {
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
                (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000, ZoneOffset.UTC);
        String text = String.format("%04d-%02d-%02d %02d:%02d:%02d", dateTime.getYear(), dateTime.getMonthValue(),
                dateTime.getDayOfMonth(), dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond());
        return text + fraction(Math.floorMod(micros, MICROS_PER_SECOND), fractionalDigits);
    }

    static String time(long micros, int fractionalDigits) {
        String sign = micros < 0 ? "-" : "";
        long magnitude = Math.abs(micros);
        long seconds = magnitude / MICROS_PER_SECOND;
        return String.format("%s%02d:%02d:%02d", sign, seconds / 3600, seconds / 60 % 60, seconds % 60)
                + fraction(magnitude % MICROS_PER_SECOND, fractionalDigits);
    }

    private static String fraction(long micros, int digits) {
        if (digits <= 0) {
            return "";
        }
        return "." + String.format("%06d", micros).substring(0, Math.min(6, digits));
    }
}
