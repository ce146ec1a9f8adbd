package io.duetdb.common.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as TiDB's config files write them: "500ms", "3s", "10m", "1h30m", "2d". */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|us|s|m|h|d)");

    private Durations() {
    }

    public static Duration parse(String text) {
        String trimmed = text.trim();
        if (trimmed.equals("0")) {
            return Duration.ZERO;
        }
        Matcher matcher = PART.matcher(trimmed);
        long nanos = 0;
        int position = 0;
        while (position < trimmed.length()) {
            if (!matcher.find(position) || matcher.start() != position) {
                throw new IllegalArgumentException("'" + text + "' is not a duration (examples: 500ms, 3s, 10m, 1h30m)");
            }
            double amount = Double.parseDouble(matcher.group(1));
            long unitNanos = switch (matcher.group(2)) {
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                default -> 86_400_000_000_000L;
            };
            nanos = Math.addExact(nanos, (long) (amount * unitNanos));
            position = matcher.end();
        }
        if (position == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (examples: 500ms, 3s, 10m, 1h30m)");
        }
        return Duration.ofNanos(nanos);
    }

    /** The shortest spelling that {@link #parse} reads back. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        if (millis % 86_400_000L == 0) {
            return millis / 86_400_000L + "d";
        }
        if (millis % 3_600_000L == 0) {
            return millis / 3_600_000L + "h";
        }
        if (millis % 60_000L == 0) {
            return millis / 60_000L + "m";
        }
        if (millis % 1_000L == 0) {
            return millis / 1_000L + "s";
        }
        return millis + "ms";
    }
}
