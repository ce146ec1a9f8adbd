package io.duetdb.testing.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries in MySQL dialect with the specification's validation parameters, one resource per query
 * ({@code queries/q01.sql} ... {@code q22.sql} beside this class; each file's leading comment names its parameters
 * and any rewriting). Rewritten for MySQL: Q13's derived-table column list becomes aliases inside the derived
 * table, Q15's view becomes a common table expression. Everything else is the specification's text: date
 * arithmetic as {@code date '1998-12-01' - interval '90' day} (which MySQL, MariaDB and DuckDB all accept),
 * {@code extract(year from ...)}, {@code substring(... from 1 for 2)}. Q11's FRACTION is 0.0001 / SF.
 *
 * <p>The reference engine (DuckDB) runs the same text; a file {@code qNN.duckdb.sql} would override it for
 * DuckDB, and none is needed today.
 */
public final class TpchQueries {
    public static final int COUNT = 22;
    private static final Pattern LIMIT = Pattern.compile("(?is).*\\border\\s+by\\b.*\\blimit\\s+\\d+\\s*$");

    private TpchQueries() {
    }

    /** Query {@code number} (1-22) for MySQL endpoints, comments removed, parameters for the scale factor. */
    public static String sql(int number, double scaleFactor) {
        return prepare(resource(String.format("q%02d.sql", number)), scaleFactor);
    }

    /** Query {@code number} for the reference engine: its override if there is one, else the MySQL text. */
    public static String referenceSql(int number, double scaleFactor) {
        String override = resourceOrNull(String.format("q%02d.duckdb.sql", number));
        return override == null ? sql(number, scaleFactor) : prepare(override, scaleFactor);
    }

    /**
     * Whether the query's result is compared in order: it ends in ORDER BY ... LIMIT (which rows make the cut
     * depends on the order); other results are compared as multisets.
     */
    public static boolean ordered(int number) {
        return LIMIT.matcher(sql(number, 1)).matches();
    }

    /** Q11's FRACTION for a scale factor: 0.0001 / SF. */
    static String fraction(double scaleFactor) {
        return new BigDecimal("0.0001").divide(BigDecimal.valueOf(scaleFactor), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
    }

    private static String prepare(String text, double scaleFactor) {
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
        return result.replace("${FRACTION}", fraction(scaleFactor));
    }

    private static String resource(String name) {
        String text = resourceOrNull(name);
        if (text == null) {
            throw new IllegalArgumentException("no TPC-H query resource " + name);
        }
        return text;
    }

    private static String resourceOrNull(String name) {
        try (InputStream in = TpchQueries.class.getResourceAsStream("queries/" + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Query numbers from a list such as {@code 1-22}, {@code 1,3,5-7} or {@code all}, in ascending order. */
    public static List<Integer> parseSelection(String selection) {
        TreeSet<Integer> numbers = new TreeSet<>();
        for (String part : selection.split(",")) {
            String item = part.strip().toLowerCase(java.util.Locale.ROOT).replace("q", "");
            if (item.isEmpty()) {
                continue;
            }
            if (item.equals("all")) {
                item = "1-" + COUNT;
            }
            int dash = item.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? item : item.substring(0, dash).strip());
            int to = dash < 0 ? from : Integer.parseInt(item.substring(dash + 1).strip());
            if (from < 1 || to > COUNT || from > to) {
                throw new IllegalArgumentException("query numbers are 1-" + COUNT + ": " + part);
            }
            for (int q = from; q <= to; q++) {
                numbers.add(q);
            }
        }
        return new ArrayList<>(numbers);
    }
}
