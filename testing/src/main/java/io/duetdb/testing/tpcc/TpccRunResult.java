package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a measured TPC-C run did: per transaction type, over {@code seconds} with {@code connections} terminals. */
public record TpccRunResult(TpccScale scale, int connections, double seconds, List<TransactionSummary> transactions) {
    public TpccRunResult {
        requireNonNull(scale, "scale is null");
        transactions = List.copyOf(transactions);
    }

    public TransactionSummary of(TransactionType type) {
        return transactions.stream().filter(summary -> summary.type() == type).findFirst().orElseThrow();
    }

    /** Committed New-Orders per minute of the measured interval (the intended rollbacks not counted). */
    public double tpmC() {
        return of(TransactionType.NEW_ORDER).committed() * 60 / seconds;
    }

    /** Committed transactions of every type per minute. */
    public double tpmTotal() {
        return transactions.stream().mapToLong(TransactionSummary::committed).sum() * 60 / seconds;
    }

    public long ended() {
        return transactions.stream().mapToLong(TransactionSummary::ended).sum();
    }

    public long failed() {
        return transactions.stream().mapToLong(TransactionSummary::failed).sum();
    }

    public long retried() {
        return transactions.stream().mapToLong(TransactionSummary::retried).sum();
    }

    /** The transactions that failed beyond the intended rollbacks, as a fraction of those that ended. */
    public double failedFraction() {
        return failed() / (double) Math.max(1, ended());
    }

    /** Errors of every type by key. */
    public Map<String, Long> errors() {
        Map<String, Long> errors = new TreeMap<>();
        for (TransactionSummary summary : transactions) {
            summary.errors().forEach((key, count) -> errors.merge(key, count, Long::sum));
        }
        return errors;
    }

    /** The table of results: tpmC, tpmTotal, then a line per transaction type and the errors' first messages. */
    public void print(PrintStream out, String endpoint) {
        out.printf("%s: TPC-C, %s; %d connections, %.0f s measured%n", endpoint, scale.describe(), connections,
                seconds);
        out.printf("%s: tpmC %,.1f   tpmTotal %,.1f   failed %,d of %,d (%.2f%%)   retried %,d%n", endpoint, tpmC(),
                tpmTotal(), failed(), ended(), 100 * failedFraction(), retried());
        out.printf("  %-13s %10s %9s %9s %9s %9s %9s %9s  %s%n", "transaction", "committed", "rollbacks", "p50 ms",
                "p95 ms", "p99 ms", "max ms", "retried", "errors by code");
        for (TransactionSummary summary : transactions) {
            out.printf("  %-13s %,10d %,9d %9.1f %9.1f %9.1f %9.1f %,9d  %s%s%n", summary.type().title(),
                    summary.committed(), summary.rolledBack(), summary.p50Millis(), summary.p95Millis(),
                    summary.p99Millis(), summary.maxMillis(), summary.retried(),
                    summary.errors().isEmpty() ? "-" : summary.errors(),
                    summary.retries().isEmpty() ? "" : "  (retried: " + summary.retries() + ")");
        }
        TransactionSummary delivery = of(TransactionType.DELIVERY);
        if (delivery.skippedDistricts() > 0) {
            out.printf("  Delivery skipped %,d districts without a new order%n", delivery.skippedDistricts());
        }
        for (TransactionSummary summary : transactions) {
            summary.examples().forEach((key, message) -> out.printf("  %s %s: %s%n", summary.type().title(), key,
                    abbreviate(message)));
        }
    }

    private static String abbreviate(String message) {
        String line = String.valueOf(message).replace('\n', ' ');
        return line.length() <= 300 ? line : line.substring(0, 300) + "...";
    }
}
