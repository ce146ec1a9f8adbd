package io.duetdb.common.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A byte count as config files write it: "512B", "64KiB", "96MiB", "1GiB" (KB, MB, GB mean the same, as in TiKV). */
public record DataSize(long bytes) {
    private static final Pattern FORMAT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?I?B?)");

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative: " + bytes);
        }
    }

    public static DataSize ofMebibytes(long mebibytes) {
        return new DataSize(mebibytes << 20);
    }

    @JsonCreator
    public static DataSize parse(String text) {
        Matcher matcher = FORMAT.matcher(text.trim().toUpperCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (examples: 512B, 64KiB, 96MiB, 1GiB)");
        }
        double amount = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2).replace("I", "").replace("B", "");
        long multiplier = switch (unit) {
            case "" -> 1L;
            case "K" -> 1L << 10;
            case "M" -> 1L << 20;
            case "G" -> 1L << 30;
            default -> 1L << 40;
        };
        return new DataSize((long) (amount * multiplier));
    }

    @JsonValue
    @Override
    public String toString() {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        long value = bytes;
        int unit = 0;
        while (unit < units.length - 1 && value != 0 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        return value + units[unit];
    }
}
