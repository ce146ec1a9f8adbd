package io.duetdb.testing.reference;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Reading query texts from resource files, and choosing queries by number. */
public final class QueryTexts {
    private static final Pattern ORDERED_LIMIT = Pattern.compile("(?is).*\\border\\s+by\\b.*\\blimit\\s+\\d+\\s*$");

    private QueryTexts() {
    }

    /** The resource {@code queries/name} beside {@code anchor}, or null if there is none. */
    public static String resourceOrNull(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream("queries/" + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resource {@code queries/name} beside {@code anchor}, which must exist. */
    public static String resource(Class<?> anchor, String name) {
        String text = resourceOrNull(anchor, name);
        if (text == null) {
            throw new IllegalArgumentException("no query resource " + name + " beside " + anchor.getSimpleName());
        }
        return text;
    }

    /** The statement without its comment lines, blank lines and trailing semicolons. */
    public static String strip(String text) {
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("--") && !line.isBlank()) {
                sql.append(line.stripTrailing()).append('\n');
            }
        }
        String result = sql.toString().strip();
        while (result.endsWith(";")) {
            result = result.substring(0, result.length() - 1).strip();
        }
        return result;
    }

    /**
     * Whether a query ends in ORDER BY ... LIMIT, so that which rows make the cut depends on the order and its
     * result must be compared in order.
     */
    public static boolean endsInOrderedLimit(String sql) {
        return ORDERED_LIMIT.matcher(sql).matches();
    }

    /** Query numbers from a list such as {@code 1-22}, {@code 1,3,5-7} or {@code all}, in ascending order. */
    public static List<Integer> parseSelection(String selection, int count) {
        TreeSet<Integer> numbers = new TreeSet<>();
        for (String part : selection.split(",")) {
            String item = part.strip().toLowerCase(Locale.ROOT).replace("q", "");
            if (item.isEmpty()) {
                continue;
            }
            if (item.equals("all")) {
                item = "1-" + count;
            }
            int dash = item.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? item : item.substring(0, dash).strip());
            int to = dash < 0 ? from : Integer.parseInt(item.substring(dash + 1).strip());
            if (from < 1 || to > count || from > to) {
                throw new IllegalArgumentException("query numbers are 1-" + count + ": " + part);
            }
            for (int q = from; q <= to; q++) {
                numbers.add(q);
            }
        }
        return new ArrayList<>(numbers);
    }
}
