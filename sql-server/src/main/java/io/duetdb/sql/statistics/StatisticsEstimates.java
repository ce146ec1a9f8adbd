package io.duetdb.sql.statistics;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.LongFunction;

import org.apache.calcite.sql.SqlKind;

import io.duetdb.sql.exec.Values;
import io.duetdb.sql.prepare.DuetTable;

/**
 * Planning's estimates from ANALYZE's statistics: a frequent value's own count, else the rows the frequent values
 * leave spread evenly over the other distinct values; ranges from the equi-depth histogram, with values inside a
 * bucket taken as spread evenly across it; equalities on an index's first columns with a range on its next one from
 * the index's histogram of tuples, so correlated columns are not taken as independent.
 */
final class StatisticsEstimates implements DuetTable.StatisticsSource {
    /** The index histogram's buckets a prefix's rows must fill before a range after it is read from the histogram. */
    private static final double MIN_PREFIX_BUCKETS = 2;
    private final LongFunction<java.util.Optional<TableStatistics>> tables;

    StatisticsEstimates(LongFunction<java.util.Optional<TableStatistics>> tables) {
        this.tables = tables;
    }

    @Override
    public OptionalLong rowCount(long tableId) {
        return tables.apply(tableId).map(table -> OptionalLong.of(table.rowCount())).orElse(OptionalLong.empty());
    }

    @Override
    public OptionalLong distinctCount(long tableId, int columnId) {
        return tables.apply(tableId).flatMap(table -> table.column(columnId))
                .map(column -> OptionalLong.of(Math.max(1, column.distinctCount()))).orElse(OptionalLong.empty());
    }

    @Override
    public OptionalLong indexPrefixDistinctCount(long tableId, java.util.Set<Integer> columnIds) {
        TableStatistics table = tables.apply(tableId).orElse(null);
        if (table == null || columnIds.isEmpty()) {
            return OptionalLong.empty();
        }
        for (TableStatistics.IndexStatistics index : table.indexes()) {
            int k = columnIds.size();
            if (k <= index.columnIds().size() && columnIds.equals(java.util.Set.copyOf(index.columnIds().subList(0, k)))) {
                return OptionalLong.of(Math.max(1, index.prefixDistinctCounts().get(k - 1)));
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public OptionalDouble indexPrefixEquality(long tableId, java.util.Map<Integer, Object> values) {
        TableStatistics table = tables.apply(tableId).orElse(null);
        if (table == null || table.rowCount() == 0 || values.isEmpty()) {
            return OptionalDouble.empty();
        }
        double rows = table.rowCount();
        int k = values.size();
        for (TableStatistics.IndexStatistics index : table.indexes()) {
            List<Integer> prefix = k <= index.columnIds().size() ? index.columnIds().subList(0, k) : null;
            if (prefix == null || !values.keySet().equals(java.util.Set.copyOf(prefix))) {
                continue;
            }
            try {
                long frequentRows = 0;
                List<TableStatistics.TopTuple> frequent = index.prefixTopTuples().get(k - 1);
                for (TableStatistics.TopTuple top : frequent) {
                    if (matches(top, prefix, values)) {
                        return OptionalDouble.of(Math.min(1, top.count() / rows));
                    }
                    frequentRows += top.count();
                }
                long others = Math.max(1, index.prefixDistinctCounts().get(k - 1) - frequent.size());
                return OptionalDouble.of(Math.max(0, rows - frequentRows) / others / rows);
            } catch (RuntimeException e) {
                // A value that does not compare with the statistics' text.
                return OptionalDouble.empty();
            }
        }
        return OptionalDouble.empty();
    }

    @Override
    public OptionalDouble indexPrefixRange(long tableId, java.util.Map<Integer, Object> prefix, int columnId, Object lower,
            boolean lowerInclusive, Object upper, boolean upperInclusive) {
        TableStatistics table = tables.apply(tableId).orElse(null);
        if (table == null || table.rowCount() == 0 || prefix.isEmpty()) {
            return OptionalDouble.empty();
        }
        int k = prefix.size();
        for (TableStatistics.IndexStatistics index : table.indexes()) {
            if (index.columnIds().size() <= k || index.columnIds().get(k) != columnId
                    || !prefix.keySet().equals(java.util.Set.copyOf(index.columnIds().subList(0, k)))) {
                continue;
            }
            List<TableStatistics.Bucket> buckets = index.histogram();
            if (buckets.isEmpty() || buckets.stream().anyMatch(bucket -> bucket.upperValues() == null
                    || bucket.lowerValues() == null)) {
                return OptionalDouble.empty();
            }
            double total = buckets.get(buckets.size() - 1).count();
            try {
                List<Object> bound = new java.util.ArrayList<>(k + 1);
                for (int j = 0; j < k; j++) {
                    bound.add(prefix.get(index.columnIds().get(j)));
                }
                // Within a bucket the histogram knows nothing: a prefix of fewer rows than a few buckets is priced
                // better by its own count and the column's histogram.
                double prefixRows = upTo(buckets, bound, true) - upTo(buckets, bound, false);
                if (total <= 0 || prefixRows < MIN_PREFIX_BUCKETS * total / buckets.size()) {
                    return OptionalDouble.empty();
                }
                double from = lower == null ? upTo(buckets, with(bound, null), true)
                        : upTo(buckets, with(bound, lower), !lowerInclusive);
                double to = upper == null ? upTo(buckets, bound, true) : upTo(buckets, with(bound, upper), upperInclusive);
                return OptionalDouble.of(Math.min(1, Math.max(0, to - from) / total));
            } catch (RuntimeException e) {
                // A value that does not compare with the statistics' text.
                return OptionalDouble.empty();
            }
        }
        return OptionalDouble.empty();
    }

    private static List<Object> with(List<Object> bound, Object value) {
        List<Object> longer = new java.util.ArrayList<>(bound);
        longer.add(value);
        return longer;
    }

    /**
     * The rows (as the histogram counts them) whose tuples' first values are below {@code bound}, or equal to it
     * when {@code inclusive}; half the rows of a bucket the bound falls inside.
     */
    private static double upTo(List<TableStatistics.Bucket> buckets, List<Object> bound, boolean inclusive) {
        double previous = 0;
        for (TableStatistics.Bucket bucket : buckets) {
            int toUpper = compare(bound, bucket.upperValues());
            if (toUpper > 0 || toUpper == 0 && inclusive) {
                previous = bucket.count();
                continue;
            }
            int toLower = compare(bound, bucket.lowerValues());
            if (toLower < 0 || toLower == 0 && !inclusive) {
                return previous;
            }
            return previous + (bucket.count() - previous) / 2.0;
        }
        return previous;
    }

    /** The bound against a tuple's first values, NULLs first as the index orders them. */
    private static int compare(List<Object> bound, List<String> tuple) {
        for (int j = 0; j < bound.size(); j++) {
            Object value = bound.get(j);
            String text = tuple.get(j);
            int compared = value == null ? (text == null ? 0 : -1) : text == null ? 1 : Values.compare(value, text);
            if (compared != 0) {
                return compared;
            }
        }
        return 0;
    }

    private static boolean matches(TableStatistics.TopTuple top, List<Integer> columnIds, java.util.Map<Integer, Object> values) {
        for (int j = 0; j < columnIds.size(); j++) {
            String text = top.values().get(j);
            if (text == null || Values.compare(values.get(columnIds.get(j)), text) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public OptionalDouble averageWidth(long tableId, int columnId) {
        return tables.apply(tableId).flatMap(table -> table.column(columnId))
                .map(column -> OptionalDouble.of(column.averageWidth())).orElse(OptionalDouble.empty());
    }

    @Override
    public OptionalDouble selectivity(long tableId, int columnId, SqlKind comparison, Object value) {
        TableStatistics table = tables.apply(tableId).orElse(null);
        if (table == null || table.rowCount() == 0) {
            return OptionalDouble.empty();
        }
        TableStatistics.ColumnStatistics column = table.column(columnId).orElse(null);
        if (column == null) {
            return OptionalDouble.empty();
        }
        double rows = table.rowCount();
        double nulls = column.nullCount() / rows;
        double nonNull = 1 - nulls;
        try {
            double fraction = switch (comparison) {
                case IS_NULL -> nulls;
                case IS_NOT_NULL -> nonNull;
                case EQUALS -> equal(column, value, rows);
                case NOT_EQUALS -> Math.max(0, nonNull - equal(column, value, rows));
                case LESS_THAN -> below(column, value, false, rows);
                case LESS_THAN_OR_EQUAL -> below(column, value, true, rows);
                case GREATER_THAN -> Math.max(0, nonNull - below(column, value, true, rows));
                case GREATER_THAN_OR_EQUAL -> Math.max(0, nonNull - below(column, value, false, rows));
                default -> Double.NaN;
            };
            return Double.isNaN(fraction) ? OptionalDouble.empty() : OptionalDouble.of(Math.min(1, Math.max(0, fraction)));
        } catch (RuntimeException e) {
            // A constant that does not compare with the column's values (a type the statistics cannot read).
            return OptionalDouble.empty();
        }
    }

    private static double equal(TableStatistics.ColumnStatistics column, Object value, double rows) {
        long frequentRows = 0;
        for (TableStatistics.TopValue top : column.topValues()) {
            if (Values.compare(value, top.value()) == 0) {
                return top.count() / rows;
            }
            frequentRows += top.count();
        }
        long others = Math.max(1, column.distinctCount() - column.topValues().size());
        double remaining = Math.max(0, rows - column.nullCount() - frequentRows);
        return remaining / others / rows;
    }

    /** The fraction of all rows whose value is below {@code value} (or equal, when {@code inclusive}). */
    private static double below(TableStatistics.ColumnStatistics column, Object value, boolean inclusive, double rows) {
        long previous = 0;
        double sampledRows = column.histogram().isEmpty() ? 0 : column.histogram().get(column.histogram().size() - 1).count();
        if (sampledRows == 0) {
            return Double.NaN;
        }
        double scale = (rows - column.nullCount()) / sampledRows / rows;
        for (TableStatistics.Bucket bucket : column.histogram()) {
            int toUpper = Values.compare(value, bucket.upper());
            if (toUpper > 0) {
                previous = bucket.count();
                continue;
            }
            if (toUpper == 0) {
                return (inclusive ? bucket.count() : bucket.count() - bucket.repeats()) * scale;
            }
            int toLower = Values.compare(value, bucket.lower());
            if (toLower < 0 || (toLower == 0 && !inclusive)) {
                return previous * scale;
            }
            // Inside the bucket: half of its rows below the upper bound's repeats.
            return (previous + (bucket.count() - previous - bucket.repeats()) / 2.0) * scale;
        }
        return previous * scale;
    }
}
