package io.duetdb.testing.chbench;

import static java.util.Objects.requireNonNull;

import io.duetdb.testing.reference.QuerySet;
import io.duetdb.testing.reference.QueryTexts;

/**
 * The 22 analytical queries of CH-benCHmark (Cole et al., "The mixed workload CH-benCHmark", DBTest 2011) in MySQL
 * dialect, one resource per query ({@code queries/q01.sql} ... {@code q22.sql} beside this class; each file's
 * leading comment says what the query asks and any rewriting). Rewritten for MySQL: Q13's derived-table column
 * list becomes aliases inside the derived table and Q15's view a common table expression; the timestamps the
 * queries compare with are TIMESTAMP literals rather than strings. None ends in LIMIT, so every result is compared
 * as a multiset.
 *
 * <p>The reference engine (DuckDB) runs the same text; a file {@code qNN.duckdb.sql} would override it for
 * DuckDB, and none is needed today.
 */
public final class ChBenchmarkQueries implements QuerySet {
    public static final int COUNT = 22;

    private final String title;

    /** The queries, titled after the data they run on. */
    public ChBenchmarkQueries(String title) {
        this.title = requireNonNull(title, "title");
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public int count() {
        return COUNT;
    }

    @Override
    public String sql(int number) {
        return QueryTexts.strip(QueryTexts.resource(ChBenchmarkQueries.class, name(number, "sql")));
    }

    @Override
    public String referenceSql(int number) {
        String override = QueryTexts.resourceOrNull(ChBenchmarkQueries.class, name(number, "duckdb.sql"));
        return override == null ? sql(number) : QueryTexts.strip(override);
    }

    @Override
    public boolean ordered(int number) {
        return QueryTexts.endsInOrderedLimit(sql(number));
    }

    private static String name(int number, String suffix) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("CH-benCHmark queries are 1-" + COUNT + ": " + number);
        }
        return String.format("q%02d.%s", number, suffix);
    }
}
