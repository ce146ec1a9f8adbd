package io.duetdb.testing.tpcc;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The outcomes of every transaction type over one interval (the warm-up, or the measured run). */
final class TpccMetrics {
    private final Map<TransactionType, TransactionStats> stats = new EnumMap<>(TransactionType.class);

    TpccMetrics() {
        for (TransactionType type : TransactionType.values()) {
            stats.put(type, new TransactionStats(type));
        }
    }

    TransactionStats of(TransactionType type) {
        return stats.get(type);
    }

    long committed(TransactionType type) {
        return stats.get(type).committed();
    }

    long committed() {
        return stats.values().stream().mapToLong(TransactionStats::committed).sum();
    }

    List<TransactionSummary> summarize() {
        List<TransactionSummary> summaries = new ArrayList<>();
        for (TransactionStats each : stats.values()) {
            summaries.add(each.summarize());
        }
        return summaries;
    }
}
