package io.duetdb.testing.reference;

/** A benchmark's numbered queries (1 to {@link #count}), as one endpoint dialect and the reference engine run them. */
public interface QuerySet {
    /** What the queries are, for headings: the benchmark and its scale. */
    String title();

    int count();

    /** Query {@code number} for MySQL endpoints. */
    String sql(int number);

    /** Query {@code number} for the reference engine. */
    String referenceSql(int number);

    /** Whether the query's result is compared in order; otherwise both results are compared as multisets. */
    boolean ordered(int number);
}
