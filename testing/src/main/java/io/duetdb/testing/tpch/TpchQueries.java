package io.duetdb.testing.tpch;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

import io.duetdb.testing.reference.QuerySet;
import io.duetdb.testing.reference.QueryTexts;

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

    private TpchQueries() {
    }

    /** The 22 queries with the parameters for {@code scaleFactor}, for a comparison with the reference. */
    public static QuerySet forScaleFactor(double scaleFactor) {
        return new Scaled(scaleFactor);
    }

    private record Scaled(double scaleFactor) implements QuerySet {
        @Override
        public String title() {
            return "TPC-H SF " + scaleFactor;
        }

        @Override
        public int count() {
            return COUNT;
        }

        @Override
        public String sql(int number) {
            return TpchQueries.sql(number, scaleFactor);
        }

        @Override
        public String referenceSql(int number) {
            return TpchQueries.referenceSql(number, scaleFactor);
        }

        @Override
        public boolean ordered(int number) {
            return TpchQueries.ordered(number);
        }
    }

    /** Query {@code number} (1-22) for MySQL endpoints, comments removed, parameters for the scale factor. */
    public static String sql(int number, double scaleFactor) {
        return prepare(QueryTexts.resource(TpchQueries.class, String.format("q%02d.sql", number)), scaleFactor);
    }

    /** Query {@code number} for the reference engine: its override if there is one, else the MySQL text. */
    public static String referenceSql(int number, double scaleFactor) {
        String override = QueryTexts.resourceOrNull(TpchQueries.class, String.format("q%02d.duckdb.sql", number));
        return override == null ? sql(number, scaleFactor) : prepare(override, scaleFactor);
    }

    /**
     * Whether the query's result is compared in order: it ends in ORDER BY ... LIMIT (which rows make the cut
     * depends on the order); other results are compared as multisets.
     */
    public static boolean ordered(int number) {
        return QueryTexts.endsInOrderedLimit(sql(number, 1));
    }

    /** Q11's FRACTION for a scale factor: 0.0001 / SF. */
    static String fraction(double scaleFactor) {
        return new BigDecimal("0.0001").divide(BigDecimal.valueOf(scaleFactor), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
    }

    private static String prepare(String text, double scaleFactor) {
        return QueryTexts.strip(text).replace("${FRACTION}", fraction(scaleFactor));
    }

    /** Query numbers from a list such as {@code 1-22}, {@code 1,3,5-7} or {@code all}, in ascending order. */
    public static List<Integer> parseSelection(String selection) {
        return QueryTexts.parseSelection(selection, COUNT);
    }
}
