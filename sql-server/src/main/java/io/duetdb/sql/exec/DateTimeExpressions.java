package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.function.Function;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * MySQL's date and time functions over non-NULL arguments (typed by {@code prepare.DateTimeFunctions}), and the
 * readings of arguments as date-times or times that YEAR, HOUR, EXTRACT and their kin use: text in MySQL's forms
 * ('2024-01-31', '2024-01-31 10:20:30.5', '20240131', '10:20:30'), numbers by their digits (20240131,
 * 102030), dates and times as they are. An argument that is no valid date or time reads as NULL, as in MySQL.
 */
final class DateTimeExpressions {
    /**
     * MySQL's zero date as a comparison sees it: before every date DuetDB stores (the first it stores is 0000-01-01);
     * it is only ever compared, never returned.
     */
    static final LocalDateTime ZERO_DATE = LocalDateTime.of(-1, 12, 31, 0, 0);

    private static final long SECONDS_PER_DAY = 86_400;

    private DateTimeExpressions() {
    }

    /** The body of function {@code name}, or null when it is not one of these. */
    static Function<Object[], Object> of(String name, SessionFunctions session) {
        return switch (name) {
            case "DUET_DATETIME_ARGUMENT" -> args -> dateTimeOrNull(args[0], session);
            case "DUET_DATETIME_COMPARAND" -> args -> {
                LocalDateTime value = dateTimeOrNull(args[0], session);
                return value == null ? ZERO_DATE : value;
            };
            case "DUET_TIME_ARGUMENT" -> args -> timeOrNull(args[0]);
            case "DUET_TIMESTAMPDIFF" -> args -> {
                LocalDateTime from = dateTimeOrNull(args[1], session);
                LocalDateTime to = dateTimeOrNull(args[2], session);
                return from == null || to == null ? null : difference(Values.toText(args[0]), from, to);
            };
            case "TIME_TO_SEC" -> args -> {
                Duration time = timeOrNull(args[0]);
                return time == null ? null : time.getSeconds() + (time.isNegative() && time.getNano() > 0 ? 1 : 0);
            };
            case "SEC_TO_TIME" -> args -> clamp(Duration.ofNanos(Values.toDecimal(args[0])
                    .movePointRight(9).longValue()));
            case "MAKEDATE" -> args -> {
                long year = Values.toLong(args[0]);
                long day = Values.toLong(args[1]);
                if (day <= 0 || year < 0 || year > 9999) {
                    return null;
                }
                LocalDate date = LocalDate.of((int) (year < 70 ? year + 2000 : year < 100 ? year + 1900 : year), 1, 1)
                        .plusDays(day - 1);
                return date.getYear() > 9999 ? null : date;
            };
            case "MAKETIME" -> args -> {
                long minute = Values.toLong(args[1]);
                BigDecimal second = Values.toDecimal(args[2]);
                if (minute < 0 || minute > 59 || second.signum() < 0 || second.compareTo(BigDecimal.valueOf(60)) >= 0) {
                    return null;
                }
                long hours = Values.toLong(args[0]);
                Duration time = Duration.ofHours(Math.abs(hours)).plusMinutes(minute)
                        .plusNanos(second.movePointRight(9).longValue());
                return clamp(hours < 0 ? time.negated() : time);
            };
            case "TIMESTAMP" -> args -> {
                LocalDateTime value = dateTimeOrNull(args[0], session);
                if (value == null || args.length < 2) {
                    return value;
                }
                Duration time = timeOrNull(args[1]);
                return time == null ? null : value.plus(time);
            };
            case "TIME" -> args -> timeOrNull(args[0]);
            case "ADDTIME" -> args -> shifted(args[0], args[1], false, session);
            case "SUBTIME" -> args -> shifted(args[0], args[1], true, session);
            case "TIMEDIFF" -> args -> {
                if (isDateTime(args[0]) && isDateTime(args[1])) {
                    LocalDateTime from = dateTimeOrNull(args[1], session);
                    LocalDateTime to = dateTimeOrNull(args[0], session);
                    return from == null || to == null ? null : clamp(Duration.between(from, to));
                }
                Duration a = timeOrNull(args[0]);
                Duration b = timeOrNull(args[1]);
                return a == null || b == null ? null : clamp(a.minus(b));
            };
            case "CONVERT_TZ" -> args -> {
                LocalDateTime value = dateTimeOrNull(args[0], session);
                ZoneId from = zone(Values.toText(args[1]));
                ZoneId to = zone(Values.toText(args[2]));
                if (value == null || from == null || to == null) {
                    return null;
                }
                return value.atZone(from).withZoneSameInstant(to).toLocalDateTime();
            };
            case "PERIOD_ADD" -> args -> {
                long months = months(Values.toLong(args[0])) + Values.toLong(args[1]);
                return months / 12 * 100 + months % 12 + 1;
            };
            case "PERIOD_DIFF" -> args -> months(Values.toLong(args[0])) - months(Values.toLong(args[1]));
            case "TO_SECONDS" -> args -> {
                LocalDateTime value = dateTimeOrNull(args[0], session);
                return value == null ? null : (value.toLocalDate().toEpochDay() + CalendarFunctions.EPOCH_DAY_NUMBER)
                        * SECONDS_PER_DAY + value.toLocalTime().toSecondOfDay();
            };
            case "MICROSECOND" -> args -> {
                Duration time = timeOrNull(args[0]);
                return time == null ? null : (long) time.abs().getNano() / 1000;
            };
            case "TIME_FORMAT" -> args -> {
                Duration time = timeOrNull(args[0]);
                return time == null ? null : timeFormat(time, Values.toText(args[1]));
            };
            case "UTC_TIMESTAMP" -> args -> utc(session).withNano(0);
            case "UTC_DATE" -> args -> utc(session).toLocalDate();
            case "UTC_TIME" -> args -> Duration.ofSeconds(utc(session).toLocalTime().toSecondOfDay());
            case "CURTIME" -> args -> Duration.ofSeconds(session.statementTime().toLocalTime().toSecondOfDay());
            case "SYSDATE" -> args -> LocalDateTime.now().withNano(0);
            default -> null;
        };
    }

    /** MySQL's TIMESTAMPDIFF: whole units from {@code from} to {@code to}, truncated toward zero. */
    private static long difference(String unit, LocalDateTime from, LocalDateTime to) {
        return switch (unit) {
            case "MICROSECOND" -> ChronoUnit.MICROS.between(from, to);
            case "SECOND" -> ChronoUnit.SECONDS.between(from, to);
            case "MINUTE" -> ChronoUnit.MINUTES.between(from, to);
            case "HOUR" -> ChronoUnit.HOURS.between(from, to);
            case "DAY" -> ChronoUnit.DAYS.between(from, to);
            case "WEEK" -> ChronoUnit.WEEKS.between(from, to);
            case "MONTH" -> ChronoUnit.MONTHS.between(from, to);
            case "QUARTER" -> ChronoUnit.MONTHS.between(from, to) / 3;
            case "YEAR" -> ChronoUnit.YEARS.between(from, to);
            default -> throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "TIMESTAMPDIFF(" + unit
                    + ", ...) is not supported");
        };
    }

    /** A value read as a date-time, or null when it is none (MySQL's NULL for an invalid date). */
    static LocalDateTime dateTimeOrNull(Object value, SessionFunctions session) {
        if (value instanceof LocalDateTime dateTime) {
            return dateTime;
        }
        if (value instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        if (value instanceof Duration time) {
            // MySQL reads a time as a date-time of the current day.
            return session.statementTime().toLocalDate().atStartOfDay().plus(time);
        }
        try {
            if (Values.isNumber(value)) {
                return Temporals.parseDateTime(digits(value));
            }
            return Temporals.parseDateTime(Values.toText(value));
        } catch (DuetException e) {
            return null;
        }
    }

    /** A value read as a time, or null when it is none: a date-time gives its time of day. */
    static Duration timeOrNull(Object value) {
        if (value instanceof Duration time) {
            return time;
        }
        if (value instanceof LocalDateTime dateTime) {
            return Duration.ofNanos(dateTime.toLocalTime().toNanoOfDay());
        }
        if (value instanceof LocalDate) {
            return Duration.ZERO;
        }
        try {
            if (Values.isNumber(value)) {
                return Temporals.parseTime(digitsAsTime(value));
            }
            String text = Values.toText(value).strip();
            if (text.indexOf('-', 1) > 0) {
                return Duration.ofNanos(Temporals.parseDateTime(text).toLocalTime().toNanoOfDay());
            }
            return Temporals.parseTime(text);
        } catch (DuetException | DateTimeException e) {
            return null;
        }
    }

    private static boolean isDateTime(Object value) {
        if (value instanceof LocalDateTime || value instanceof LocalDate) {
            return true;
        }
        return value instanceof String text && text.strip().indexOf('-', 1) > 0;
    }

    /** ADDTIME / SUBTIME: a date-time (or its text) moved by a time; a time moved by a time. */
    private static Object shifted(Object base, Object amount, boolean subtract, SessionFunctions session) {
        Duration shift = timeOrNull(amount);
        if (shift == null) {
            return null;
        }
        if (subtract) {
            shift = shift.negated();
        }
        if (isDateTime(base)) {
            LocalDateTime value = dateTimeOrNull(base, session);
            if (value == null) {
                return null;
            }
            LocalDateTime result = value.plus(shift);
            return base instanceof String ? Values.toText(result) : result;
        }
        Duration time = timeOrNull(base);
        if (time == null) {
            return null;
        }
        Duration result = clamp(time.plus(shift));
        return base instanceof String ? Values.toText(result) : result;
    }

    /** MySQL's TIME range: -838:59:59 to 838:59:59. */
    private static Duration clamp(Duration time) {
        Duration limit = Duration.ofHours(838).plusMinutes(59).plusSeconds(59);
        if (time.compareTo(limit) > 0) {
            return limit;
        }
        return time.compareTo(limit.negated()) < 0 ? limit.negated() : time;
    }

    /** A zone as MySQL names it: an offset ('+05:30'), SYSTEM, or a name; null when unknown. */
    private static ZoneId zone(String name) {
        String trimmed = name.strip();
        if (trimmed.equalsIgnoreCase("SYSTEM")) {
            return ZoneId.systemDefault();
        }
        try {
            if (trimmed.startsWith("+") || trimmed.startsWith("-")) {
                return ZoneOffset.of(trimmed.length() == 5 ? trimmed.charAt(0) + "0" + trimmed.substring(1) : trimmed);
            }
            return ZoneId.of(trimmed);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static LocalDateTime utc(SessionFunctions session) {
        return session.statementTime().atZone(ZoneId.systemDefault()).withZoneSameInstant(ZoneOffset.UTC)
                .toLocalDateTime();
    }

    /** A period (YYMM or YYYYMM) as months since year 0. */
    private static long months(long period) {
        long year = period / 100;
        if (year < 70) {
            year += 2000;
        } else if (year < 100) {
            year += 1900;
        }
        return year * 12 + period % 100 - 1;
    }

    /** A number's digits as a date-time text: YYYYMMDD, YYMMDD, YYYYMMDDhhmmss or YYMMDDhhmmss. */
    private static String digits(Object number) {
        String text = Values.toDecimal(number).toPlainString();
        int point = text.indexOf('.');
        String whole = point < 0 ? text : text.substring(0, point);
        String fraction = point < 0 ? "" : text.substring(point);
        if (whole.length() == 6 || whole.length() == 12) {
            int year = Integer.parseInt(whole.substring(0, 2));
            whole = (year < 70 ? "20" : "19") + whole;
        }
        if (whole.length() == 8) {
            return whole.substring(0, 4) + "-" + whole.substring(4, 6) + "-" + whole.substring(6);
        }
        if (whole.length() == 14) {
            return whole.substring(0, 4) + "-" + whole.substring(4, 6) + "-" + whole.substring(6, 8) + " "
                    + whole.substring(8, 10) + ":" + whole.substring(10, 12) + ":" + whole.substring(12) + fraction;
        }
        return whole;
    }

    /** A number's digits as a time text: hhmmss, mmss or ss. */
    private static String digitsAsTime(Object number) {
        BigDecimal value = Values.toDecimal(number);
        boolean negative = value.signum() < 0;
        String text = value.abs().toPlainString();
        int point = text.indexOf('.');
        String whole = point < 0 ? text : text.substring(0, point);
        String fraction = point < 0 ? "" : text.substring(point);
        String padded = "0".repeat(Math.max(0, 6 - whole.length())) + whole;
        int hoursEnd = padded.length() - 4;
        return (negative ? "-" : "") + padded.substring(0, hoursEnd) + ":" + padded.substring(hoursEnd, hoursEnd + 2)
                + ":" + padded.substring(hoursEnd + 2) + fraction;
    }

    /** MySQL's TIME_FORMAT: DATE_FORMAT's hour, minute, second and fraction specifiers over a time. */
    private static String timeFormat(Duration time, String format) {
        Duration value = time.abs();
        long hours = value.toHours();
        int minutes = value.toMinutesPart();
        int seconds = value.toSecondsPart();
        long hour12 = hours % 12 == 0 ? 12 : hours % 12;
        StringBuilder text = new StringBuilder(time.isNegative() ? "-" : "");
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                text.append(c);
                continue;
            }
            char specifier = format.charAt(++i);
            switch (specifier) {
                case 'H' -> text.append(String.format(Locale.ROOT, "%02d", hours));
                case 'k' -> text.append(hours);
                case 'h', 'I' -> text.append(String.format(Locale.ROOT, "%02d", hour12));
                case 'l' -> text.append(hour12);
                case 'i' -> text.append(String.format(Locale.ROOT, "%02d", minutes));
                case 's', 'S' -> text.append(String.format(Locale.ROOT, "%02d", seconds));
                case 'f' -> text.append(String.format(Locale.ROOT, "%06d", value.toNanosPart() / 1000));
                case 'p' -> text.append(hours % 24 < 12 ? "AM" : "PM");
                case 'T' -> text.append(String.format(Locale.ROOT, "%02d:%02d:%02d", hours, minutes, seconds));
                case 'r' -> text.append(String.format(Locale.ROOT, "%02d:%02d:%02d %s", hour12, minutes, seconds,
                        hours % 24 < 12 ? "AM" : "PM"));
                default -> text.append(specifier);
            }
        }
        return text.toString();
    }
}
