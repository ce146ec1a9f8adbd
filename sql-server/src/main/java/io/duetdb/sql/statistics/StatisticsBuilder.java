package io.duetdb.sql.statistics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.ValueOrdering;
import io.duetdb.compute.operator.Batches;
import io.duetdb.compute.statistics.HyperLogLog;
import io.duetdb.proto.coprocessor.AnalyzeResult;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.sql.exec.ComputeValues;
import io.duetdb.sql.exec.Values;

/**
 * Merges the regions' ANALYZE answers into table statistics: counts add up, sketches merge, and each region's
 * sample rows stand for that region's rows in proportion (a row sampled from a region of n rows with s samples
 * weighs n / s), so the histogram and the frequent values follow the whole table.
 */
final class StatisticsBuilder {
    static final int BUCKETS = 64;
    static final int TOP_VALUES = 16;

    private StatisticsBuilder() {
    }

    private record Weighted(Object value, double weight) {
    }

    /** A sampled row (public columns) and the rows of its region it stands for. */
    private record WeightedRow(Object[] values, double weight) {
    }

    /** An index whose first columns ANALYZE sketched, one column group per prefix, in the request's order. */
    record AnalyzedIndex(long indexId, String name, List<Integer> columnIds) {
    }

    static TableStatistics build(long tableId, long analyzedTs, String analyzedAt, List<ColumnInfo> columns,
            List<FieldType> types, List<AnalyzedIndex> indexes, List<CoprocessorResponse> responses) {
        int groupCount = indexes.stream().mapToInt(index -> index.columnIds().size()).sum();
        HyperLogLog[] groupSketches = new HyperLogLog[groupCount];
        for (int i = 0; i < groupCount; i++) {
            groupSketches[i] = new HyperLogLog();
        }
        long rows = 0;
        long[] nulls = new long[columns.size()];
        long[] bytes = new long[columns.size()];
        HyperLogLog[] sketches = new HyperLogLog[columns.size()];
        for (int i = 0; i < sketches.length; i++) {
            sketches[i] = new HyperLogLog();
        }
        List<List<Weighted>> samples = new ArrayList<>();
        columns.forEach(column -> samples.add(new ArrayList<>()));
        List<WeightedRow> sampleRows = new ArrayList<>();
        double weight = 1;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (CoprocessorResponse response : responses) {
                if (response.hasAnalyzeResult()) {
                    AnalyzeResult result = response.getAnalyzeResult();
                    rows += result.getRowCount();
                    for (int i = 0; i < columns.size(); i++) {
                        nulls[i] += result.getColumns(i).getNullCount();
                        bytes[i] += result.getColumns(i).getTotalBytes();
                        sketches[i].merge(HyperLogLog.of(result.getColumns(i).getDistinctRegisters().toByteArray()));
                    }
                    for (int g = 0; g < Math.min(groupCount, result.getGroupDistinctRegistersCount()); g++) {
                        groupSketches[g].merge(HyperLogLog.of(result.getGroupDistinctRegisters(g).toByteArray()));
                    }
                    weight = result.getSampleRows() == 0 ? 0 : (double) result.getRowCount() / result.getSampleRows();
                    continue;
                }
                double rowWeight = weight;
                ArrowIpc.read(response.getArrowIpc().toByteArray(), allocator, batch -> {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        Object[] values = Batches.row(batch, row);
                        if (!indexes.isEmpty()) {
                            sampleRows.add(new WeightedRow(values, rowWeight));
                        }
                        for (int i = 0; i < values.length; i++) {
                            if (values[i] != null) {
                                samples.get(i).add(new Weighted(values[i], rowWeight));
                            }
                        }
                    }
                });
            }
        }
        List<TableStatistics.ColumnStatistics> statistics = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            long nonNull = rows - nulls[i];
            long distinct = Math.min(nonNull, sketches[i].estimate());
            FieldType type = types.get(i);
            statistics.add(new TableStatistics.ColumnStatistics(columns.get(i).id(), columns.get(i).name(), nulls[i], distinct,
                    nonNull == 0 ? 0 : (double) bytes[i] / nonNull, histogram(samples.get(i), type),
                    topValues(samples.get(i), type)));
        }
        List<TableStatistics.IndexStatistics> indexStatistics = new ArrayList<>();
        int group = 0;
        for (AnalyzedIndex index : indexes) {
            List<Long> prefixes = new ArrayList<>();
            long previous = 1;
            for (int k = 0; k < index.columnIds().size(); k++) {
                // A longer prefix has at least as many tuples as a shorter one, and no more than the rows.
                previous = Math.min(Math.max(1, rows), Math.max(previous, groupSketches[group++].estimate()));
                prefixes.add(rows == 0 ? 0 : previous);
            }
            int[] positions = new int[index.columnIds().size()];
            for (int k = 0; k < positions.length; k++) {
                positions[k] = position(columns, index.columnIds().get(k));
            }
            List<List<TableStatistics.TopTuple>> topTuples = new ArrayList<>();
            for (int k = 1; k <= positions.length; k++) {
                topTuples.add(topTuples(sampleRows, java.util.Arrays.copyOf(positions, k), types));
            }
            indexStatistics.add(new TableStatistics.IndexStatistics(index.indexId(), index.name(), index.columnIds(),
                    prefixes, topTuples, tupleHistogram(sampleRows, positions, types)));
        }
        return new TableStatistics(tableId, rows, analyzedTs, analyzedAt, statistics, indexStatistics);
    }

    private static int position(List<ColumnInfo> columns, int columnId) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).id() == columnId) {
                return i;
            }
        }
        throw new IllegalArgumentException("column " + columnId + " is not one of the analyzed columns");
    }

    /** The tuple of a sampled row's values at {@code positions}, NULLs kept (an index holds them). */
    private static Object[] tuple(WeightedRow row, int[] positions) {
        Object[] tuple = new Object[positions.length];
        for (int k = 0; k < positions.length; k++) {
            tuple[k] = row.values()[positions[k]];
        }
        return tuple;
    }

    private static List<String> tupleTexts(Object[] tuple, int[] positions, List<FieldType> types) {
        List<String> texts = new ArrayList<>(tuple.length);
        for (int k = 0; k < tuple.length; k++) {
            texts.add(tuple[k] == null ? null : text(tuple[k], types.get(positions[k])));
        }
        return texts;
    }

    private static List<TableStatistics.TopTuple> topTuples(List<WeightedRow> sample, int[] positions,
            List<FieldType> types) {
        Map<List<String>, Double> counts = new HashMap<>();
        Map<List<String>, Integer> occurrences = new HashMap<>();
        for (WeightedRow row : sample) {
            List<String> key = tupleTexts(tuple(row, positions), positions, types);
            counts.merge(key, row.weight(), Double::sum);
            occurrences.merge(key, 1, Integer::sum);
        }
        return counts.entrySet().stream()
                .filter(entry -> occurrences.get(entry.getKey()) > 1)
                .sorted(Map.Entry.<List<String>, Double>comparingByValue().reversed()
                        .thenComparing(entry -> TableStatistics.tupleText(entry.getKey())))
                .limit(TOP_VALUES)
                .map(entry -> new TableStatistics.TopTuple(entry.getKey(), Math.round(entry.getValue())))
                .toList();
    }

    /** The equi-depth histogram of an index's whole tuples, in the index's order (NULLs first, column by column). */
    private static List<TableStatistics.Bucket> tupleHistogram(List<WeightedRow> sample, int[] positions,
            List<FieldType> types) {
        Comparator<Object[]> order = (a, b) -> {
            for (int k = 0; k < positions.length; k++) {
                int compared = a[k] == null ? (b[k] == null ? 0 : -1) : b[k] == null ? 1
                        : ValueOrdering.compare(a[k], b[k], types.get(positions[k]).getType());
                if (compared != 0) {
                    return compared;
                }
            }
            return 0;
        };
        List<Weighted> tuples = new ArrayList<>(sample.size());
        sample.forEach(row -> tuples.add(new Weighted(tuple(row, positions), row.weight())));
        return histogram(tuples, (a, b) -> order.compare((Object[]) a, (Object[]) b),
                value -> TableStatistics.tupleText(tupleTexts((Object[]) value, positions, types)),
                value -> tupleTexts((Object[]) value, positions, types));
    }

    private static String text(Object value, FieldType type) {
        return Values.toText(ComputeValues.toSql(value, type));
    }

    private static List<TableStatistics.Bucket> histogram(List<Weighted> sample, FieldType type) {
        return histogram(sample, (a, b) -> ValueOrdering.compare(a, b, type.getType()), value -> text(value, type), null);
    }

    /** With {@code values} (null for a column's buckets), the buckets also keep their bounds' tuples value by value. */
    private static List<TableStatistics.Bucket> histogram(List<Weighted> sample, Comparator<Object> order,
            java.util.function.Function<Object, String> text, java.util.function.Function<Object, List<String>> values) {
        if (sample.isEmpty()) {
            return List.of();
        }
        List<Weighted> sorted = new ArrayList<>(sample);
        sorted.sort(Comparator.comparing(Weighted::value, order));
        double total = sorted.stream().mapToDouble(Weighted::weight).sum();
        double perBucket = total / BUCKETS;
        List<TableStatistics.Bucket> buckets = new ArrayList<>();
        double cumulative = 0;
        double bucketStart = 0;
        Object lower = sorted.get(0).value();
        int i = 0;
        while (i < sorted.size()) {
            Object value = sorted.get(i).value();
            double repeats = 0;
            while (i < sorted.size() && order.compare(sorted.get(i).value(), value) == 0) {
                repeats += sorted.get(i).weight();
                i++;
            }
            cumulative += repeats;
            if (cumulative - bucketStart >= perBucket || i == sorted.size()) {
                buckets.add(new TableStatistics.Bucket(text.apply(lower), text.apply(value), Math.round(cumulative),
                        Math.round(repeats), values == null ? null : values.apply(lower),
                        values == null ? null : values.apply(value)));
                bucketStart = cumulative;
                if (i < sorted.size()) {
                    lower = sorted.get(i).value();
                }
            }
        }
        return buckets;
    }

    private static List<TableStatistics.TopValue> topValues(List<Weighted> sample, FieldType type) {
        Map<String, Double> counts = new HashMap<>();
        Map<String, Integer> occurrences = new HashMap<>();
        for (Weighted weighted : sample) {
            String key = text(weighted.value(), type);
            counts.merge(key, weighted.weight(), Double::sum);
            occurrences.merge(key, 1, Integer::sum);
        }
        return counts.entrySet().stream()
                // A value seen once in the sample says nothing about its frequency.
                .filter(entry -> occurrences.get(entry.getKey()) > 1)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP_VALUES)
                .map(entry -> new TableStatistics.TopValue(entry.getKey(), Math.round(entry.getValue())))
                .toList();
    }
}
