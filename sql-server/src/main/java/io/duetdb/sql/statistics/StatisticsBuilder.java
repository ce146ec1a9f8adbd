package io.duetdb.sql.statistics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.duetdb.common.compute.ArrowIpc;
import io.duetdb.common.compute.ValueOrdering;
import io.duetdb.common.compute.operator.Batches;
import io.duetdb.common.compute.statistics.HyperLogLog;
import io.duetdb.proto.coprocessor.AnalyzeResult;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.sql.catalog.ColumnInfo;
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
            indexStatistics.add(new TableStatistics.IndexStatistics(index.indexId(), index.name(), index.columnIds(),
                    prefixes));
        }
        return new TableStatistics(tableId, rows, analyzedTs, analyzedAt, statistics, indexStatistics);
    }

    private static String text(Object value, FieldType type) {
        return Values.toText(ComputeValues.toSql(value, type));
    }

    private static List<TableStatistics.Bucket> histogram(List<Weighted> sample, FieldType type) {
        if (sample.isEmpty()) {
            return List.of();
        }
        List<Weighted> sorted = new ArrayList<>(sample);
        sorted.sort(Comparator.comparing(Weighted::value, (a, b) -> ValueOrdering.compare(a, b, type.getType())));
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
            while (i < sorted.size() && ValueOrdering.compare(sorted.get(i).value(), value, type.getType()) == 0) {
                repeats += sorted.get(i).weight();
                i++;
            }
            cumulative += repeats;
            if (cumulative - bucketStart >= perBucket || i == sorted.size()) {
                buckets.add(new TableStatistics.Bucket(text(lower, type), text(value, type), Math.round(cumulative),
                        Math.round(repeats)));
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
