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
     * An index's distinct value tuples: {@code prefixDistinctCounts.get(k - 1)} of its first k columns
     * ({@code columnIds}), NULLs counting as values as the index holds them.
     */
    public record IndexStatistics(long indexId, String name, List<Integer> columnIds, List<Long> prefixDistinctCounts) {
        public IndexStatistics {
            requireNonNull(name, "name is null");
            columnIds = List.copyOf(columnIds);
            prefixDistinctCounts = List.copyOf(prefixDistinctCounts);
            if (prefixDistinctCounts.size() != columnIds.size()) {
                throw new IllegalArgumentException("one distinct count per index prefix: " + columnIds + ", "
                        + prefixDistinctCounts);
            }
        }
    }

    /** One histogram bucket: values in (previous upper, upper], {@code count} rows up to and including it. */
    public record Bucket(String lower, String upper, long count, long repeats) {
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

    public Optional<ColumnStatistics> column(int columnId) {
        return columns.stream().filter(column -> column.columnId() == columnId).findFirst();
    }
}
