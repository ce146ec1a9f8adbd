package io.duetdb.sql.variables;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * A system variable with a type: its name, scope, type, default (in canonical form) and, for numbers and
 * durations, bounds (durations in milliseconds; null where unbounded). {@code automatic}: -1 is accepted as
 * TiDB's "decide automatically". {@code choices}: the words a {@link VariableType#CHOICE} takes.
 */
public record TypedVariable(String name, VariableScope scope, VariableType type, String defaultValue,
        BigDecimal minimum, BigDecimal maximum, boolean automatic, List<String> choices) {
    private static final Pattern TIME_OF_DAY = Pattern.compile("(\\d{1,2}):(\\d{2})(?:\\s*([+-])(\\d{2}):?(\\d{2}))?");
    private static final Pattern DATETIME = Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}( \\d{1,2}:\\d{1,2}:\\d{1,2}(\\.\\d+)?)?");
    private static final List<String> ENGINES = List.of("tikv", "tiflash", "tidb");

    public TypedVariable {
        requireNonNull(name, "name is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(type, "type is null");
        requireNonNull(defaultValue, "defaultValue is null");
        choices = List.copyOf(requireNonNull(choices, "choices is null"));
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("variable names are lower case: " + name);
        }
    }

    /** Whether queries read the variable as a BIGINT (MySQL's integer variables). */
    public boolean readsAsInteger() {
        return type == VariableType.INTEGER;
    }

    /**
     * What SET stores for {@code text}: 1232 when it is not of the variable's type, 1231 when it is not one of its
     * values; a number or duration outside the bounds is clamped, with MySQL's warning.
     */
    public Assignment assign(String text) {
        String value = text.strip();
        return switch (type) {
            case SWITCH -> Assignment.exact(switchValue(value));
            case INTEGER -> integer(value);
            case DECIMAL -> decimal(value);
            case CHOICE -> Assignment.exact(choice(value));
            case TEXT -> Assignment.exact(text);
            case DURATION -> duration(value);
            case TIME_OF_DAY -> Assignment.exact(timeOfDay(value));
            case ENGINE_LIST -> Assignment.exact(engines(value));
            case SNAPSHOT -> Assignment.exact(snapshot(value));
        };
    }

    private String switchValue(String value) {
        return switch (value.toUpperCase(Locale.ROOT)) {
            case "1", "ON", "TRUE" -> "ON";
            case "0", "OFF", "FALSE" -> "OFF";
            default -> throw wrongValue(value);
        };
    }

    private Assignment integer(String value) {
        BigInteger number;
        try {
            number = new BigInteger(value);
        } catch (NumberFormatException e) {
            throw wrongType();
        }
        if (automatic && number.equals(BigInteger.ONE.negate())) {
            return Assignment.exact("-1");
        }
        return clamped(new BigDecimal(number), value, bound -> bound.toBigInteger().toString());
    }

    private Assignment decimal(String value) {
        BigDecimal number;
        try {
            number = new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw wrongType();
        }
        return clamped(number, value, bound -> bound.stripTrailingZeros().toPlainString());
    }

    private Assignment duration(String value) {
        OptionalLong millis = GoDurations.parseMillis(value);
        if (millis.isEmpty()) {
            throw wrongType();
        }
        return clamped(BigDecimal.valueOf(millis.getAsLong()), value, bound -> GoDurations.format(bound.longValue()));
    }

    private Assignment clamped(BigDecimal number, String written, java.util.function.Function<BigDecimal, String> form) {
        if (minimum != null && number.compareTo(minimum) < 0) {
            return new Assignment(form.apply(minimum), Optional.of(truncated(written)));
        }
        if (maximum != null && number.compareTo(maximum) > 0) {
            return new Assignment(form.apply(maximum), Optional.of(truncated(written)));
        }
        return Assignment.exact(form.apply(number));
    }

    private String choice(String value) {
        for (String choice : choices) {
            if (choice.equalsIgnoreCase(value)) {
                return choice;
            }
        }
        throw wrongValue(value);
    }

    private String timeOfDay(String value) {
        java.util.regex.Matcher matcher = TIME_OF_DAY.matcher(value);
        if (!matcher.matches() || Integer.parseInt(matcher.group(1)) > 23 || Integer.parseInt(matcher.group(2)) > 59) {
            throw wrongValue(value);
        }
        String zone = matcher.group(3) == null ? "+0000" : matcher.group(3) + matcher.group(4) + matcher.group(5);
        return String.format(Locale.ROOT, "%02d:%s %s", Integer.parseInt(matcher.group(1)), matcher.group(2), zone);
    }

    private String engines(String value) {
        StringBuilder list = new StringBuilder();
        for (String engine : value.split(",")) {
            String name = engine.strip().toLowerCase(Locale.ROOT);
            if (!ENGINES.contains(name)) {
                throw wrongValue(value);
            }
            list.append(list.length() > 0 ? "," : "").append(name);
        }
        return list.toString();
    }

    private String snapshot(String value) {
        if (value.isEmpty() || DATETIME.matcher(value).matches() || value.chars().allMatch(Character::isDigit)) {
            return value;
        }
        throw wrongValue(value);
    }

    private String truncated(String written) {
        return "Truncated incorrect " + name + " value: '" + written + "'";
    }

    private DuetException wrongType() {
        return new DuetException(ErrorCode.WRONG_TYPE_FOR_VARIABLE, "Incorrect argument type to variable '" + name + "'");
    }

    private DuetException wrongValue(String value) {
        return new DuetException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "Variable '" + name
                + "' can't be set to the value of '" + value + "'");
    }
}
