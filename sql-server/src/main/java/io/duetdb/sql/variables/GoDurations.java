package io.duetdb.sql.variables;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.OptionalLong;

/** Durations as Go writes them (TiDB's duration variables): "10m0s", "1h30m", "1.5s", "500ms". */
public final class GoDurations {
    private static final Map<String, BigDecimal> MILLIS_PER_UNIT = Map.of(
            "ns", new BigDecimal("0.000001"), "us", new BigDecimal("0.001"), "µs", new BigDecimal("0.001"),
            "ms", BigDecimal.ONE, "s", BigDecimal.valueOf(1_000), "m", BigDecimal.valueOf(60_000),
            "h", BigDecimal.valueOf(3_600_000));

    private GoDurations() {
    }

    /** The duration in milliseconds (rounded), or empty when {@code text} is not a Go duration. */
    public static OptionalLong parseMillis(String text) {
        String rest = text.strip();
        if (rest.isEmpty()) {
            return OptionalLong.empty();
        }
        boolean negative = rest.startsWith("-");
        if (negative || rest.startsWith("+")) {
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return OptionalLong.of(0);
        }
        BigDecimal total = BigDecimal.ZERO;
        int position = 0;
        while (position < rest.length()) {
            int numberEnd = position;
            while (numberEnd < rest.length() && (Character.isDigit(rest.charAt(numberEnd)) || rest.charAt(numberEnd) == '.')) {
                numberEnd++;
            }
            int unitEnd = numberEnd;
            while (unitEnd < rest.length() && !Character.isDigit(rest.charAt(unitEnd)) && rest.charAt(unitEnd) != '.') {
                unitEnd++;
            }
            BigDecimal perUnit = MILLIS_PER_UNIT.get(rest.substring(numberEnd, unitEnd));
            if (numberEnd == position || perUnit == null) {
                return OptionalLong.empty();
            }
            try {
                total = total.add(new BigDecimal(rest.substring(position, numberEnd)).multiply(perUnit));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
            position = unitEnd;
        }
        if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return OptionalLong.of(negative ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
        long millis = total.setScale(0, RoundingMode.HALF_UP).longValueExact();
        return OptionalLong.of(negative ? -millis : millis);
    }

    /** {@code millis} as Go's Duration.String() writes it: "10m0s", "1h0m0s", "1.5s", "500ms", "0s". */
    public static String format(long millis) {
        if (millis == 0) {
            return "0s";
        }
        StringBuilder text = new StringBuilder(millis < 0 ? "-" : "");
        long rest = Math.abs(millis);
        if (rest < 1_000) {
            return text.append(rest).append("ms").toString();
        }
        long hours = rest / 3_600_000;
        long minutes = rest / 60_000 % 60;
        BigDecimal seconds = BigDecimal.valueOf(rest % 60_000).movePointLeft(3).stripTrailingZeros();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        return text.append(seconds.toPlainString()).append('s').toString();
    }
}
