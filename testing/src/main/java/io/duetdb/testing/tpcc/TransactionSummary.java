package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One transaction type's outcomes over a measured interval. Latencies are milliseconds from the first attempt
 * to the commit or rollback, retries included; {@code retries} and {@code errors} count by MySQL error code
 * ({@code examples} holds the first message of each); {@code skippedDistricts} is Delivery's districts without a
 * new order.
 */
public record TransactionSummary(TransactionType type, long committed, long rolledBack, long skippedDistricts,
        Map<String, Long> retries, Map<String, Long> errors, Map<String, String> examples, double p50Millis,
        double p95Millis, double p99Millis, double maxMillis) {
    public TransactionSummary {
        requireNonNull(type, "type is null");
        retries = Collections.unmodifiableMap(new TreeMap<>(retries));
        errors = Collections.unmodifiableMap(new TreeMap<>(errors));
        examples = Collections.unmodifiableMap(new TreeMap<>(examples));
    }

    public long retried() {
        return retries.values().stream().mapToLong(Long::longValue).sum();
    }

    public long failed() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Transactions that ended: committed, rolled back as the specification asks, or failed. */
    public long ended() {
        return committed + rolledBack + failed();
    }
}
