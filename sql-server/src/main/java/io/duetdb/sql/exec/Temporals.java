package io.duetdb.sql.exec;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Parsing MySQL's date, datetime and time literals ('2024-01-02', '2024-01-02 03:04:05.123456', '12:30:00'). */
final class Temporals {
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{1,4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?");
    /** [-][D ]hh:mm[:ss[.fraction]]: MySQL's time text, with an optional count of days. */
    private static final Pattern TIME = Pattern.compile(
            "(-)?(?:(\\d{1,2}) +)?(\\d{1,3}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?");

    private Temporals() {
    }

    static LocalDateTime parseDateTime(String text) {
        Matcher matcher = DATE_TIME.matcher(text.strip());
        if (!matcher.matches()) {
            throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect datetime value: '" + text + "'");
        }
        try {
            LocalDate date = LocalDate.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                    Integer.parseInt(matcher.group(3)));
            if (matcher.group(4) == null) {
                return date.atStartOfDay();
            }
            int nanos = 0;
            if (matcher.group(7) != null) {
                String fraction = (matcher.group(7) + "000000000").substring(0, 9);
                nanos = Integer.parseInt(fraction);
            }
            return date.atTime(LocalTime.of(Integer.parseInt(matcher.group(4)), Integer.parseInt(matcher.group(5)),
                    matcher.group(6) == null ? 0 : Integer.parseInt(matcher.group(6)), nanos));
        } catch (DateTimeException e) {
            throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect datetime value: '" + text + "'");
        }
    }

    /** A date (at midnight), datetime or datetime text as a datetime. */
    static LocalDateTime toDateTime(Object value) {
        if (value instanceof LocalDateTime dateTime) {
            return dateTime;
        }
        if (value instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        return parseDateTime(Values.toText(value));
    }

    static LocalDate parseDate(String text) {
        return parseDateTime(text).toLocalDate();
    }

    static Duration parseTime(String text) {
        Matcher matcher = TIME.matcher(text.strip());
        if (!matcher.matches()) {
            throw new DuetException(ErrorCode.TRUNCATED_WRONG_VALUE, "Incorrect time value: '" + text + "'");
        }
        long nanos = 0;
        if (matcher.group(6) != null) {
            nanos = Long.parseLong((matcher.group(6) + "000000000").substring(0, 9));
        }
        Duration duration = Duration.ofDays(matcher.group(2) == null ? 0 : Long.parseLong(matcher.group(2)))
                .plusHours(Long.parseLong(matcher.group(3)))
                .plusMinutes(Long.parseLong(matcher.group(4)))
                .plusSeconds(matcher.group(5) == null ? 0 : Long.parseLong(matcher.group(5)))
                .plusNanos(nanos);
        return matcher.group(1) != null ? duration.negated() : duration;
    }
}
