package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One transaction type's outcomes over an interval, recorded by every terminal at once: commits, the rollbacks
 * the specification asks for, retries and errors by MySQL error code (with the first message of each), and the
 * latency from the first attempt to the end, retries included.
 */
final class TransactionStats {
    private static final long MAX_MICROS = 3_600_000_000L;

    private final TransactionType type;
    private final LongAdder committed = new LongAdder();
    private final LongAdder rolledBack = new LongAdder();
    private final LongAdder skippedDistricts = new LongAdder();
    private final Map<String, LongAdder> retries = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, String> examples = new ConcurrentHashMap<>();
    private final Recorder latency = new Recorder(MAX_MICROS, 3);

    TransactionStats(TransactionType type) {
        this.type = requireNonNull(type, "type is null");
    }

    void completed(TpccTransaction.Outcome outcome, long micros) {
        (outcome == TpccTransaction.Outcome.COMMITTED ? committed : rolledBack).increment();
        latency.recordValue(Math.min(MAX_MICROS, Math.max(0, micros)));
    }

    void skippedDistricts(int districts) {
        skippedDistricts.add(districts);
    }

    void retried(String key, String message) {
        retries.computeIfAbsent(key, ignored -> new LongAdder()).increment();
        examples.putIfAbsent(key, message);
    }

    void failed(String key, String message) {
        errors.computeIfAbsent(key, ignored -> new LongAdder()).increment();
        examples.putIfAbsent(key, message);
    }

    long committed() {
        return committed.sum();
    }

    /** What was recorded so far; takes the latency histogram, so call it once at the interval's end. */
    TransactionSummary summarize() {
        Histogram histogram = latency.getIntervalHistogram();
        return new TransactionSummary(type, committed.sum(), rolledBack.sum(), skippedDistricts.sum(), sums(retries),
                sums(errors), new TreeMap<>(examples), histogram.getTotalCount() == 0 ? 0
                        : histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(95) / 1000.0,
                histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(99) / 1000.0,
                histogram.getMaxValue() / 1000.0);
    }

    private static Map<String, Long> sums(Map<String, LongAdder> counters) {
        Map<String, Long> sums = new TreeMap<>();
        counters.forEach((key, counter) -> sums.put(key, counter.sum()));
        return sums;
    }
}
