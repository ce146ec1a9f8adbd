package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import io.duetdb.proto.coprocessor.ExecutionSummary;

/**
 * What the stores reported of a coprocessor read: the region answers counted, the rows their scans read, the rows
 * they returned after their own selections, aggregations and limits, the time the stores spent, and per executor of
 * the plan (in its order) the rows it output and the time spent in it.
 */
public record CoprocessorSummary(long regions, long scannedRows, long returnedRows, long storeNanos,
        List<Long> executorRows, List<Long> executorNanos) {
    public static final CoprocessorSummary NONE = new CoprocessorSummary(0, 0, 0, 0, List.of(), List.of());

    public CoprocessorSummary {
        if (regions < 0 || scannedRows < 0 || returnedRows < 0 || storeNanos < 0) {
            throw new IllegalArgumentException("summary counts must not be negative");
        }
        executorRows = List.copyOf(requireNonNull(executorRows, "executorRows is null"));
        executorNanos = List.copyOf(requireNonNull(executorNanos, "executorNanos is null"));
        if (executorRows.size() != executorNanos.size()) {
            throw new IllegalArgumentException("executor rows and times differ in number");
        }
    }

    /** One region's answer. */
    public static CoprocessorSummary of(ExecutionSummary summary) {
        requireNonNull(summary, "summary is null");
        List<Long> rows = new ArrayList<>(summary.getExecutorsCount());
        List<Long> nanos = new ArrayList<>(summary.getExecutorsCount());
        summary.getExecutorsList().forEach(executor -> {
            rows.add(executor.getOutputRows());
            nanos.add(executor.getElapsedNanos());
        });
        return new CoprocessorSummary(1, summary.getScannedRows(), summary.getOutputRows(), summary.getElapsedNanos(),
                rows, nanos);
    }

    /** The rows executor number {@code executor} output, or -1 when the stores did not say. */
    public long executorRows(int executor) {
        return executor < executorRows.size() ? executorRows.get(executor) : -1;
    }

    /** The time spent in executor number {@code executor} (its inputs included), or -1 when the stores did not say. */
    public long executorNanos(int executor) {
        return executor < executorNanos.size() ? executorNanos.get(executor) : -1;
    }

    public CoprocessorSummary plus(CoprocessorSummary other) {
        return new CoprocessorSummary(regions + other.regions, scannedRows + other.scannedRows,
                returnedRows + other.returnedRows, storeNanos + other.storeNanos, sum(executorRows, other.executorRows),
                sum(executorNanos, other.executorNanos));
    }

    private static List<Long> sum(List<Long> a, List<Long> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        List<Long> sums = new ArrayList<>(Math.max(a.size(), b.size()));
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            sums.add((i < a.size() ? a.get(i) : 0) + (i < b.size() ? b.get(i) : 0));
        }
        return sums;
    }
}
