package io.duetdb.common.codec;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * MySQL's packed form of a date and time in one non-negative 64-bit number whose numeric order is the
 * chronological order: ((year * 13 + month) << 5 | day) << 17 | hour << 12 | minute << 6 | second, then
 * shifted left by 24 bits and or-ed with the microseconds.
 */
public final class PackedTime {
    private PackedTime() {
    }

    public static long pack(LocalDateTime value) {
        checkYear(value.getYear());
        long yearMonth = value.getYear() * 13L + value.getMonthValue();
        long date = yearMonth << 5 | value.getDayOfMonth();
        long time = (long) value.getHour() << 12 | (long) value.getMinute() << 6 | value.getSecond();
        return (date << 17 | time) << 24 | value.getNano() / 1000;
    }

    public static long pack(LocalDate value) {
        return pack(value.atStartOfDay());
    }

    public static LocalDateTime unpackDateTime(long packed) {
        if (packed < 0) {
            throw new IllegalArgumentException("packed time is negative: " + packed);
        }
        int micros = (int) (packed & 0xFFFFFF);
        long dateTime = packed >>> 24;
        long time = dateTime & 0x1FFFF;
        long date = dateTime >>> 17;
        int day = (int) (date & 0x1F);
        long yearMonth = date >>> 5;
        int year = (int) (yearMonth / 13);
        int month = (int) (yearMonth % 13);
        int second = (int) (time & 0x3F);
        int minute = (int) (time >>> 6 & 0x3F);
        int hour = (int) (time >>> 12);
        return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
    }

    public static LocalDate unpackDate(long packed) {
        return unpackDateTime(packed).toLocalDate();
    }

    private static void checkYear(int year) {
        if (year < 0 || year > 9999) {
            throw new IllegalArgumentException("year " + year + " is outside MySQL's range 0..9999");
        }
    }
}
