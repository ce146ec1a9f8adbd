package io.duetdb.sql.exec;

import java.time.LocalDate;
import java.time.Year;
import java.util.function.Function;

/**
 * MySQL's week and day-number functions over non-NULL arguments: WEEK(date[, mode]) and YEARWEEK(date[, mode]) with
 * MySQL's eight modes, WEEKDAY, TO_DAYS and FROM_DAYS. The week computation follows MySQL's definition (calc_week):
 * a mode says whether weeks start on Monday, whether week 1 is the first with a start day or with four days or more
 * in the year, and whether days before week 1 belong to week 0 or to the last week of the year before.
 */
final class CalendarFunctions {
    /** MySQL's day number of 1970-01-01 (TO_DAYS). */
    static final long EPOCH_DAY_NUMBER = 719528L;
    private static final int MONDAY_FIRST = 1;
    private static final int WEEK_YEAR = 2;
    private static final int FIRST_WEEKDAY = 4;

    private CalendarFunctions() {
    }

    /** The body of function {@code name}, or null when it is not one of these. */
    static Function<Object[], Object> of(String name) {
        return switch (name) {
            case "WEEK" -> args -> (long) week(date(args[0]), weekMode(args.length > 1 ? Values.toLong(args[1]) : 0))[0];
            case "YEARWEEK" -> args -> {
                int[] week = week(date(args[0]), weekMode(args.length > 1 ? Values.toLong(args[1]) : 0) | WEEK_YEAR);
                return week[1] * 100L + week[0];
            };
            case "WEEKDAY" -> args -> (long) date(args[0]).getDayOfWeek().getValue() - 1;
            case "TO_DAYS" -> args -> date(args[0]).toEpochDay() + EPOCH_DAY_NUMBER;
            case "FROM_DAYS" -> args -> {
                long days = Values.toLong(args[0]);
                // MySQL's calendar starts at day 366 (0001-01-01); earlier numbers are its zero date.
                return days < 366 ? null : LocalDate.ofEpochDay(days - EPOCH_DAY_NUMBER);
            };
            default -> null;
        };
    }

    private static LocalDate date(Object value) {
        return value instanceof LocalDate date ? date : Values.toDateTime(value).toLocalDate();
    }

    /** MySQL's week_mode: the mode's bits, with the first-weekday bit flipped for Sunday-first modes. */
    private static int weekMode(long mode) {
        int format = (int) (mode & 7);
        if ((format & MONDAY_FIRST) == 0) {
            format ^= FIRST_WEEKDAY;
        }
        return format;
    }

    /** The week of {@code date} and the year it belongs to, as MySQL's calc_week counts them. */
    static int[] week(LocalDate date, int behaviour) {
        boolean mondayFirst = (behaviour & MONDAY_FIRST) != 0;
        boolean weekYear = (behaviour & WEEK_YEAR) != 0;
        boolean firstWeekday = (behaviour & FIRST_WEEKDAY) != 0;
        long dayNumber = date.toEpochDay();
        LocalDate januaryFirst = LocalDate.of(date.getYear(), 1, 1);
        long firstDayNumber = januaryFirst.toEpochDay();
        int weekday = weekday(januaryFirst, !mondayFirst);
        int year = date.getYear();
        if (date.getMonthValue() == 1 && date.getDayOfMonth() <= 7 - weekday) {
            if (!weekYear && (firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4)) {
                return new int[] {0, year};
            }
            weekYear = true;
            year--;
            int days = Year.of(year).length();
            firstDayNumber -= days;
            weekday = (weekday + 53 * 7 - days) % 7;
        }
        long days;
        if (firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4) {
            days = dayNumber - (firstDayNumber + (7 - weekday));
        } else {
            days = dayNumber - (firstDayNumber - weekday);
        }
        if (weekYear && days >= 52 * 7) {
            weekday = (weekday + Year.of(year).length()) % 7;
            if (!firstWeekday && weekday < 4 || firstWeekday && weekday == 0) {
                return new int[] {1, year + 1};
            }
        }
        return new int[] {(int) (days / 7 + 1), year};
    }

    /** The day of the week, 0 for the week's first day (Sunday when {@code sundayFirst}, else Monday). */
    private static int weekday(LocalDate date, boolean sundayFirst) {
        int mondayBased = date.getDayOfWeek().getValue() - 1;
        return sundayFirst ? (mondayBased + 1) % 7 : mondayBased;
    }
}
