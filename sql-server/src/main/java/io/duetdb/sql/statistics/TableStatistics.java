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
        List<ColumnStatistics> columns) {
    public TableStatistics {
        requireNonNull(analyzedAt, "analyzedAt is null");
        columns = List.copyOf(columns);
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
