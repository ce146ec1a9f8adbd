package io.duetdb.sql.statistics;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What ANALYZE TABLE learned about a table, kept in the catalog: its row count and, per column, NULLs, distinct
 * values, average width, an equi-depth histogram and the most frequent values. Values are kept as MySQL text.
 * {@code modifyCount} counts rows this server wrote since (for automatic re-analysis).
 */
public record TableStatistics(long tableId, long rowCount, long analyzedTs, String analyzedAt,
        List<ColumnStatistics> columns, List<IndexStatistics> indexes) {
    public TableStatistics {
        requireNonNull(analyzedAt, "analyzedAt is null");
        columns = List.copyOf(columns);
        // Statistics stored before indexes were analyzed have none.
        indexes = indexes == null ? List.of() : List.copyOf(indexes);
    }

    /**
     * An index's value tuples, NULLs counting as values as the index holds them: {@code prefixDistinctCounts.get(k - 1)}
     * distinct tuples of its first k columns ({@code columnIds}), {@code prefixTopTuples.get(k - 1)} the most frequent
     * of them, and an equi-depth histogram of its whole tuples (bounds written as MySQL writes a row constructor).
     */
    public record IndexStatistics(long indexId, String name, List<Integer> columnIds, List<Long> prefixDistinctCounts,
            List<List<TopTuple>> prefixTopTuples, List<Bucket> histogram) {
        public IndexStatistics {
            requireNonNull(name, "name is null");
            columnIds = List.copyOf(columnIds);
            prefixDistinctCounts = List.copyOf(prefixDistinctCounts);
            if (prefixDistinctCounts.size() != columnIds.size()) {
                throw new IllegalArgumentException("one distinct count per index prefix: " + columnIds + ", "
                        + prefixDistinctCounts);
            }
            // Statistics stored before index tuples had histograms have none.
            prefixTopTuples = prefixTopTuples == null ? java.util.Collections.nCopies(columnIds.size(), List.of())
                    : prefixTopTuples.stream().map(List::copyOf).toList();
            histogram = histogram == null ? List.of() : List.copyOf(histogram);
            if (prefixTopTuples.size() != columnIds.size()) {
                throw new IllegalArgumentException("one list of frequent tuples per index prefix: " + columnIds);
            }
        }
    }

    /** A frequent tuple of an index prefix (values as MySQL text, null for NULL) and its estimated number of rows. */
    public record TopTuple(List<String> values, long count) {
        public TopTuple {
            values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(requireNonNull(values, "values is null")));
        }
    }

    /**
     * One histogram bucket: values in (previous upper, upper], {@code count} rows up to and including it. An index's
     * buckets also keep their bounds' tuples value by value (null for NULL), to compare with; a column's, and those
     * stored before, have none.
     */
    public record Bucket(String lower, String upper, long count, long repeats, List<String> lowerValues,
            List<String> upperValues) {
        public Bucket {
            lowerValues = lowerValues == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(lowerValues));
            upperValues = upperValues == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(upperValues));
        }

        public Bucket(String lower, String upper, long count, long repeats) {
            this(lower, upper, count, repeats, null, null);
        }
    }

    /** A frequent value and its estimated number of rows. */
    public record TopValue(String value, long count) {
    }

    public record ColumnStatistics(int columnId, String name, long nullCount, long distinctCount, double averageWidth,
            List<Bucket> histogram, List<TopValue> topValues) {
        public ColumnStatistics {
            requireNonNull(name, "name is null");
            histogram = List.copyOf(histogram);
            topValues = List.copyOf(topValues);
        }
    }

    /** A tuple as MySQL writes a row constructor: (1, a, NULL). */
    public static String tupleText(List<String> values) {
        StringBuilder text = new StringBuilder("(");
        for (int k = 0; k < values.size(); k++) {
            text.append(k == 0 ? "" : ", ").append(values.get(k) == null ? "NULL" : values.get(k));
        }
        return text.append(')').toString();
    }

    public Optional<ColumnStatistics> column(int columnId) {
        // A loop, not a stream: the access-path costing asks for every column of a table at every execution.
        for (ColumnStatistics column : columns) {
            if (column.columnId() == columnId) {
                return Optional.of(column);
            }
        }
        return Optional.empty();
    }
}
