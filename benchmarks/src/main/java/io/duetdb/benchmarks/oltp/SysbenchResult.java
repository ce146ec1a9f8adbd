package io.duetdb.benchmarks.oltp;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code sysbench ... run} reported: transactions and queries per second, latency, and the errors it met.
 * sysbench retries and only counts the errors listed in {@code --mysql-ignore-errors} (by default deadlocks and lock
 * wait timeouts: 1213, 1020, 1205) as "ignored errors"; any other error ends the thread with a FATAL line and the run
 * with a non-zero exit code, and then it prints no statistics at all.
 *
 * @param fatalErrors the FATAL lines sysbench printed (each failing thread prints two)
 */
record SysbenchResult(double transactionsPerSecond, double queriesPerSecond, double averageMillis, double p95Millis,
        long ignoredErrors, long reconnects, List<String> fatalErrors, int exitCode) {
    private static final Pattern TRANSACTIONS = Pattern.compile("transactions:\\s+\\d+\\s+\\(([\\d.]+) per sec\\.\\)");
    private static final Pattern QUERIES = Pattern.compile("queries:\\s+\\d+\\s+\\(([\\d.]+) per sec\\.\\)");
    private static final Pattern IGNORED = Pattern.compile("ignored errors:\\s+(\\d+)");
    private static final Pattern RECONNECTS = Pattern.compile("reconnects:\\s+(\\d+)");
    private static final Pattern AVERAGE = Pattern.compile("avg:\\s+([\\d.]+)");
    private static final Pattern P95 = Pattern.compile("95th percentile:\\s+([\\d.]+)");

    SysbenchResult {
        fatalErrors = List.copyOf(fatalErrors);
    }

    /** Reads sysbench's report; figures it did not print are NaN (or -1 for counts). */
    static SysbenchResult parse(String output, int exitCode) {
        List<String> fatal = output.lines().filter(line -> line.startsWith("FATAL:")).toList();
        return new SysbenchResult(number(TRANSACTIONS, output), number(QUERIES, output), number(AVERAGE, output),
                number(P95, output), count(IGNORED, output), count(RECONNECTS, output), fatal, exitCode);
    }

    /** Whether sysbench finished and reported its statistics. */
    boolean completed() {
        return exitCode == 0 && fatalErrors.isEmpty() && !Double.isNaN(transactionsPerSecond);
    }

    /** Why the run did not complete: its first FATAL line, or the exit code. */
    Optional<String> failure() {
        if (completed()) {
            return Optional.empty();
        }
        return Optional.of(fatalErrors.isEmpty() ? "sysbench exited with code " + exitCode + " without statistics"
                : fatalErrors.get(0));
    }

    private static double number(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : Double.NaN;
    }

    private static long count(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
    }
}
