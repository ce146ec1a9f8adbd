package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Function;

/**
 * MySQL's string, math and date functions whose arguments are all non-NULL (a NULL argument makes the result
 * NULL, except where noted by the caller): each answers the function's body over evaluated arguments, or null
 * when it is not one of them.
 */
final class MySqlFunctions {
    /** max_allowed_packet's default, for a session that does not say. */
    static final long DEFAULT_MAX_RESULT_BYTES = 64L * 1024 * 1024;

    private MySqlFunctions() {
    }

    /** The body of function {@code name} over non-NULL arguments, or null when it is not one of these. */
    static Function<Object[], Object> of(String name, SessionFunctions session) {
        Function<Object[], Object> regular = RegularExpressions.of(name);
        if (regular != null) {
            return regular;
        }
        Function<Object[], Object> encoding = EncodingFunctions.of(name);
        if (encoding != null) {
            return encoding;
        }
        Function<Object[], Object> calendar = CalendarFunctions.of(name);
        if (calendar != null) {
            return calendar;
        }
        Function<Object[], Object> dateTime = DateTimeExpressions.of(name, session);
        if (dateTime != null) {
            return dateTime;
        }
        return switch (name) {
            case "LEFT" -> args -> {
                String text = Values.toText(args[0]);
                return text.substring(0, characters(text, Values.toLong(args[1])));
            };
            case "RIGHT" -> args -> {
                String text = Values.toText(args[0]);
                int keep = text.codePointCount(0, text.length()) - (int) Math.max(0, Math.min(Integer.MAX_VALUE,
                        Values.toLong(args[1])));
                return text.substring(characters(text, keep));
            };
            case "REPEAT" -> args -> repeat(Values.toText(args[0]), Values.toLong(args[1]), maxResultBytes(session));
            case "SPACE" -> args -> repeat(" ", Values.toLong(args[0]), maxResultBytes(session));
            case "REPLACE" -> args -> {
                String from = Values.toText(args[1]);
                return from.isEmpty() ? Values.toText(args[0]) : Values.toText(args[0]).replace(from, Values.toText(args[2]));
            };
            case "REVERSE" -> args -> new StringBuilder(Values.toText(args[0])).reverse().toString();
            case "LTRIM" -> args -> trimSpaces(Values.toText(args[0]), true);
            case "RTRIM" -> args -> trimSpaces(Values.toText(args[0]), false);
            case "LPAD", "RPAD" -> args -> pad(Values.toText(args[0]), Values.toLong(args[1]), Values.toText(args[2]),
                    name.equals("LPAD"), maxResultBytes(session));
            case "SUBSTRING_INDEX" -> args -> substringIndex(Values.toText(args[0]), Values.toText(args[1]),
                    Values.toLong(args[2]));
            // Calcite turns INSTR(s, t) into POSITION(t IN s); LOCATE(t, s[, from]) is the same search.
            case "POSITION", "LOCATE" -> args -> locate(Values.toText(args[0]), Values.toText(args[1]),
                    args.length > 2 ? Values.toLong(args[2]) : 1);
            case "STRCMP" -> args -> (long) Integer.signum(Values.compare(args[0], args[1]));
            case "MD5" -> args -> digest("MD5", args[0]);
            case "SHA1", "SHA" -> args -> digest("SHA-1", args[0]);
            case "SHA2" -> args -> sha2(args[0], Values.toLong(args[1]));
            case "CHAR" -> args -> {
                StringBuilder text = new StringBuilder();
                for (Object arg : args) {
                    text.append((char) (Values.toLong(arg) & 0xFF));
                }
                return text.toString();
            };
            case "EXP" -> args -> finite(Math.exp(Values.toDouble(args[0])));
            case "LN" -> args -> positive(args[0]) ? Math.log(Values.toDouble(args[0])) : null;
            case "LOG10" -> args -> positive(args[0]) ? Math.log10(Values.toDouble(args[0])) : null;
            case "LOG2" -> args -> positive(args[0]) ? Math.log(Values.toDouble(args[0])) / Math.log(2) : null;
            // LOG(x) is the natural logarithm, LOG(b, x) the logarithm of x in base b.
            case "LOG" -> args -> args.length == 1 ? (positive(args[0]) ? Math.log(Values.toDouble(args[0])) : null)
                    : positive(args[0]) && positive(args[1]) && Values.toDouble(args[0]) != 1
                            ? Math.log(Values.toDouble(args[1])) / Math.log(Values.toDouble(args[0])) : null;
            case "POWER", "POW" -> args -> finite(Math.pow(Values.toDouble(args[0]), Values.toDouble(args[1])));
            case "SQRT" -> args -> Values.toDouble(args[0]) < 0 ? null : Math.sqrt(Values.toDouble(args[0]));
            case "PI" -> args -> Math.PI;
            case "SIN" -> args -> Math.sin(Values.toDouble(args[0]));
            case "COS" -> args -> Math.cos(Values.toDouble(args[0]));
            case "TAN" -> args -> Math.tan(Values.toDouble(args[0]));
            case "COT" -> args -> Math.tan(Values.toDouble(args[0])) == 0 ? null : 1 / Math.tan(Values.toDouble(args[0]));
            case "ASIN" -> args -> finite(Math.asin(Values.toDouble(args[0])));
            case "ACOS" -> args -> finite(Math.acos(Values.toDouble(args[0])));
            case "ATAN" -> args -> args.length == 1 ? Math.atan(Values.toDouble(args[0]))
                    : Math.atan2(Values.toDouble(args[0]), Values.toDouble(args[1]));
            case "ATAN2" -> args -> Math.atan2(Values.toDouble(args[0]), Values.toDouble(args[1]));
            case "RADIANS" -> args -> Math.toRadians(Values.toDouble(args[0]));
            case "DEGREES" -> args -> Math.toDegrees(Values.toDouble(args[0]));
            case "SIGN" -> args -> {
                int sign = args[0] instanceof Double number ? (int) Math.signum(number) : Values.toDecimal(args[0]).signum();
                return args[0] instanceof Double ? (Object) (double) sign : args[0] instanceof BigDecimal
                        ? (Object) BigDecimal.valueOf(sign) : (Object) (long) sign;
            };
            case "TRUNCATE" -> args -> truncate(args[0], (int) Math.max(-65, Math.min(30, Values.toLong(args[1]))));
            case "GREATEST", "LEAST" -> args -> {
                Object best = args[0];
                for (Object arg : args) {
                    int order = Values.compare(arg, best);
                    if (name.equals("GREATEST") ? order > 0 : order < 0) {
                        best = arg;
                    }
                }
                return best;
            };
            case "CURDATE" -> args -> session.statementTime().toLocalDate();
            case "DIV" -> args -> {
                BigDecimal divisor = Values.toDecimal(args[1]);
                return divisor.signum() == 0 ? null : Values.toDecimal(args[0]).divideToIntegralValue(divisor).longValueExact();
            };
            case "UUID" -> args -> java.util.UUID.randomUUID().toString();
            case "HEX" -> args -> hex(args[0]);
            case "FORMAT" -> args -> {
                int decimals = (int) Math.max(0, Math.min(30, Values.toLong(args[1])));
                BigDecimal rounded = Values.toDecimal(args[0]).setScale(decimals, RoundingMode.HALF_UP);
                java.text.DecimalFormat format = new java.text.DecimalFormat(decimals == 0 ? "#,##0"
                        : "#,##0." + "0".repeat(decimals), java.text.DecimalFormatSymbols.getInstance(Locale.US));
                return format.format(rounded);
            };
            case "DATE" -> args -> Values.toDateTime(args[0]).toLocalDate();
            case "DAY", "DAYOFMONTH" -> args -> (long) Values.toDateTime(args[0]).getDayOfMonth();
            case "DATEDIFF" -> args -> ChronoUnit.DAYS.between(Values.toDateTime(args[1]).toLocalDate(),
                    Values.toDateTime(args[0]).toLocalDate());
            case "STR_TO_DATE" -> args -> parseDate(Values.toText(args[0]), Values.toText(args[1]));
            case "DATE_FORMAT" -> args -> dateFormat(Values.toDateTime(args[0]), Values.toText(args[1]));
            case "UNIX_TIMESTAMP" -> args -> (args.length == 0 ? session.statementTime() : Values.toDateTime(args[0]))
                    .atZone(ZoneId.systemDefault()).toEpochSecond();
            case "FROM_UNIXTIME" -> args -> LocalDateTime.ofEpochSecond(Values.toLong(args[0]), 0,
                    ZoneId.systemDefault().getRules().getOffset(java.time.Instant.ofEpochSecond(Values.toLong(args[0]))));
            case "DAYNAME" -> args -> Values.toDateTime(args[0]).getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "MONTHNAME" -> args -> Values.toDateTime(args[0]).getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "LAST_DAY" -> args -> {
                LocalDate date = Values.toDateTime(args[0]).toLocalDate();
                return date.withDayOfMonth(date.lengthOfMonth());
            };
            default -> null;
        };
    }

    /** MySQL's LTRIM and RTRIM remove spaces only, not other white space. */
    private static String trimSpaces(String text, boolean leading) {
        int start = 0;
        int end = text.length();
        if (leading) {
            while (start < end && text.charAt(start) == ' ') {
                start++;
            }
        } else {
            while (end > start && text.charAt(end - 1) == ' ') {
                end--;
            }
        }
        return text.substring(start, end);
    }

    /** The offset in {@code text} of its first {@code count} characters (code points), clamped to the text. */
    private static int characters(String text, long count) {
        int total = text.codePointCount(0, text.length());
        return text.offsetByCodePoints(0, (int) Math.max(0, Math.min(total, count)));
    }

    /**
     * The longest string a function builds: max_allowed_packet, as in MySQL, whose REPEAT, SPACE, LPAD and RPAD give
     * NULL past it (building it whole would exhaust memory or, for a repeat count near 2^31, fail outright).
     */
    private static long maxResultBytes(SessionFunctions session) {
        Object value = session.systemVariable("", "max_allowed_packet");
        return value == null ? DEFAULT_MAX_RESULT_BYTES : Values.toLong(value);
    }

    private static String repeat(String text, long count, long maxBytes) {
        if (count <= 0 || text.isEmpty()) {
            return "";
        }
        long bytes = (long) text.getBytes(StandardCharsets.UTF_8).length;
        if (count > maxBytes / bytes) {
            return null;
        }
        return text.repeat((int) count);
    }

    private static String pad(String text, long length, String padding, boolean left, long maxBytes) {
        int total = text.codePointCount(0, text.length());
        if (length < 0) {
            return null;
        }
        if (length <= total) {
            return text.substring(0, characters(text, length));
        }
        if (padding.isEmpty()) {
            return null;
        }
        long needed = length - total;
        // Four bytes per character at most: a result that could pass the limit is refused before it is built.
        if (length > maxBytes / 4) {
            return null;
        }
        int paddingLength = padding.codePointCount(0, padding.length());
        String fill = padding.repeat((int) ((needed + paddingLength - 1) / paddingLength));
        String cut = fill.substring(0, fill.offsetByCodePoints(0, (int) needed));
        return left ? cut + text : text + cut;
    }

    private static String substringIndex(String text, String delimiter, long count) {
        if (delimiter.isEmpty() || count == 0) {
            return "";
        }
        if (count > 0) {
            int position = -delimiter.length();
            for (long i = 0; i < count; i++) {
                position = text.indexOf(delimiter, position + delimiter.length());
                if (position < 0) {
                    return text;
                }
            }
            return text.substring(0, position);
        }
        int position = text.length();
        for (long i = 0; i < -count; i++) {
            position = position - delimiter.length() < 0 ? -1 : text.lastIndexOf(delimiter, position - delimiter.length());
            if (position < 0) {
                return text;
            }
        }
        return text.substring(position + delimiter.length());
    }

    /** MySQL's DATE_FORMAT specifiers (those of the C locale); an unknown one stands for its letter. */
    static String dateFormat(LocalDateTime value, String format) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                text.append(c);
                continue;
            }
            char specifier = format.charAt(++i);
            int hour12 = value.getHour() % 12 == 0 ? 12 : value.getHour() % 12;
            switch (specifier) {
                case 'Y' -> text.append(String.format(Locale.ROOT, "%04d", value.getYear()));
                case 'y' -> text.append(String.format(Locale.ROOT, "%02d", value.getYear() % 100));
                case 'm' -> text.append(String.format(Locale.ROOT, "%02d", value.getMonthValue()));
                case 'c' -> text.append(value.getMonthValue());
                case 'd' -> text.append(String.format(Locale.ROOT, "%02d", value.getDayOfMonth()));
                case 'e' -> text.append(value.getDayOfMonth());
                case 'D' -> text.append(value.getDayOfMonth()).append(ordinalSuffix(value.getDayOfMonth()));
                case 'H' -> text.append(String.format(Locale.ROOT, "%02d", value.getHour()));
                case 'k' -> text.append(value.getHour());
                case 'h', 'I' -> text.append(String.format(Locale.ROOT, "%02d", hour12));
                case 'l' -> text.append(hour12);
                case 'i' -> text.append(String.format(Locale.ROOT, "%02d", value.getMinute()));
                case 's', 'S' -> text.append(String.format(Locale.ROOT, "%02d", value.getSecond()));
                case 'f' -> text.append(String.format(Locale.ROOT, "%06d", value.getNano() / 1000));
                case 'p' -> text.append(value.getHour() < 12 ? "AM" : "PM");
                case 'T' -> text.append(String.format(Locale.ROOT, "%02d:%02d:%02d", value.getHour(), value.getMinute(),
                        value.getSecond()));
                case 'r' -> text.append(String.format(Locale.ROOT, "%02d:%02d:%02d %s", hour12, value.getMinute(),
                        value.getSecond(), value.getHour() < 12 ? "AM" : "PM"));
                case 'M' -> text.append(value.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'b' -> text.append(value.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'W' -> text.append(value.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'a' -> text.append(value.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'w' -> text.append(value.getDayOfWeek().getValue() % 7);
                case 'j' -> text.append(String.format(Locale.ROOT, "%03d", value.getDayOfYear()));
                default -> text.append(specifier);
            }
        }
        return text.toString();
    }

    /**
     * MySQL's STR_TO_DATE: the text read by the format's specifiers (the same as DATE_FORMAT's numeric ones, and
     * month names); a DATE unless the format reads a time. Null when the text does not match or is no valid date.
     */
    static Object parseDate(String text, String format) {
        int[] at = {0};
        int year = 0;
        int month = 0;
        int day = 0;
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        boolean time = false;
        boolean pm = false;
        boolean twelveHour = false;
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                if (at[0] >= text.length() || text.charAt(at[0]) != c) {
                    if (Character.isWhitespace(c)) {
                        continue;
                    }
                    return null;
                }
                at[0]++;
                continue;
            }
            char specifier = format.charAt(++i);
            Integer value;
            switch (specifier) {
                case 'Y' -> value = year = orMinus(number(text, at, 4));
                case 'y' -> {
                    value = number(text, at, 2);
                    year = value == null ? -1 : value < 70 ? 2000 + value : 1900 + value;
                }
                case 'm', 'c' -> value = month = orMinus(number(text, at, 2));
                case 'd', 'e' -> value = day = orMinus(number(text, at, 2));
                case 'H', 'k' -> {
                    value = hour = orMinus(number(text, at, 2));
                    time = true;
                }
                case 'h', 'I', 'l' -> {
                    value = hour = orMinus(number(text, at, 2));
                    time = true;
                    twelveHour = true;
                }
                case 'i' -> {
                    value = minute = orMinus(number(text, at, 2));
                    time = true;
                }
                case 's', 'S' -> {
                    value = second = orMinus(number(text, at, 2));
                    time = true;
                }
                case 'f' -> {
                    int start = at[0];
                    value = number(text, at, 6);
                    micros = value == null ? 0 : value * (int) Math.pow(10, 6 - (at[0] - start));
                    time = true;
                }
                case 'p' -> {
                    String marker = text.length() >= at[0] + 2 ? text.substring(at[0], at[0] + 2).toUpperCase(Locale.ROOT) : "";
                    value = marker.equals("AM") || marker.equals("PM") ? 0 : null;
                    pm = marker.equals("PM");
                    at[0] += 2;
                    time = true;
                }
                case 'M', 'b' -> {
                    value = null;
                    for (java.time.Month candidate : java.time.Month.values()) {
                        String name = candidate.getDisplayName(specifier == 'M' ? TextStyle.FULL : TextStyle.SHORT,
                                Locale.ENGLISH);
                        if (text.regionMatches(true, at[0], name, 0, name.length())) {
                            month = candidate.getValue();
                            value = month;
                            at[0] += name.length();
                            break;
                        }
                    }
                }
                case 'T' -> {
                    Object parsed = parseDate(text.substring(at[0]), "%H:%i:%s");
                    if (!(parsed instanceof LocalDateTime clock)) {
                        return null;
                    }
                    hour = clock.getHour();
                    minute = clock.getMinute();
                    second = clock.getSecond();
                    at[0] = text.length();
                    value = 0;
                    time = true;
                }
                case '%' -> {
                    value = at[0] < text.length() && text.charAt(at[0]) == '%' ? 0 : null;
                    at[0]++;
                }
                default -> value = null;
            }
            if (value == null || value < 0) {
                return null;
            }
        }
        if (twelveHour) {
            if (hour < 1 || hour > 12) {
                return null;
            }
            hour = hour % 12 + (pm ? 12 : 0);
        }
        try {
            LocalDate date = LocalDate.of(year, month, day);
            return time ? date.atTime(hour, minute, second, micros * 1000) : date;
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    /** Up to {@code digits} digits at {@code at}, or null when there is none. */
    private static Integer number(String text, int[] at, int digits) {
        int start = at[0];
        int value = 0;
        while (at[0] < text.length() && at[0] - start < digits && Character.isDigit(text.charAt(at[0]))) {
            value = value * 10 + (text.charAt(at[0]++) - '0');
        }
        return at[0] == start ? null : value;
    }

    private static int orMinus(Integer value) {
        return value == null ? -1 : value;
    }

    private static String ordinalSuffix(int day) {
        if (day >= 11 && day <= 13) {
            return "th";
        }
        return switch (day % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
    }

    /**
     * MySQL's LOCATE: the 1-based character position of {@code needle} in {@code text} from {@code from}, 0 if
     * absent; compared byte-wise, as DuetDB's strings are.
     */
    static long locate(String needle, String text, long from) {
        int total = text.codePointCount(0, text.length());
        if (from < 1 || from > total + 1) {
            return 0;
        }
        int start = text.offsetByCodePoints(0, (int) from - 1);
        int found = text.indexOf(needle, start);
        return found < 0 ? 0 : text.codePointCount(0, found) + 1;
    }

    /** SHA2(text, bits): SHA-224, 256, 384 or 512 in hex (0 means 256); NULL for other lengths, as MySQL. */
    private static Object sha2(Object text, long bits) {
        return switch ((int) Math.max(-1, Math.min(Integer.MAX_VALUE, bits))) {
            case 0, 256 -> digest("SHA-256", text);
            case 224 -> digest("SHA-224", text);
            case 384 -> digest("SHA-384", text);
            case 512 -> digest("SHA-512", text);
            default -> null;
        };
    }

    private static String digest(String algorithm, Object value) {
        byte[] bytes = value instanceof byte[] raw ? raw : Values.toText(value).getBytes(StandardCharsets.UTF_8);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from the JDK", e);
        }
    }

    /** MySQL's HEX: a number as its 64-bit two's complement integer in base 16, else the UTF-8 bytes. */
    private static String hex(Object value) {
        if (value instanceof byte[] bytes) {
            return HexFormat.of().withUpperCase().formatHex(bytes);
        }
        if (value instanceof String text) {
            return HexFormat.of().withUpperCase().formatHex(text.getBytes(StandardCharsets.UTF_8));
        }
        long number = value instanceof Long whole ? whole
                : Values.toDecimal(value).setScale(0, RoundingMode.HALF_UP).longValue();
        return Long.toHexString(number).toUpperCase(Locale.ROOT);
    }

    private static boolean positive(Object value) {
        return Values.toDouble(value) > 0;
    }

    /** MySQL gives NULL where the result is not a finite number. */
    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static Object truncate(Object value, int digits) {
        if (value instanceof Double number) {
            return BigDecimal.valueOf(number).setScale(digits, RoundingMode.DOWN).doubleValue();
        }
        BigDecimal truncated = Values.toDecimal(value).setScale(digits, RoundingMode.DOWN);
        if (value instanceof Long) {
            return truncated.setScale(0, RoundingMode.DOWN).longValue();
        }
        return digits < 0 ? truncated.setScale(0, RoundingMode.DOWN) : truncated;
    }
}
