package io.duetdb.testing.reference;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs a benchmark's queries on an endpoint and on the reference engine and compares the results (see
 * {@link QueryResult#differences}: in order where the query set says so, as multisets otherwise).
 */
public final class ReferenceComparison {
    /** The verdict on one query. */
    public enum Verdict { OK, WRONG, ERROR, TIMEOUT, REFERENCE_FAILED }

    /** One query's verdict, what went wrong if anything, and both engines' times. */
    public record Result(int query, Verdict verdict, String detail, int rows, double seconds, double referenceSeconds) {
        public boolean ok() {
            return verdict == Verdict.OK;
        }
    }

    private ReferenceComparison() {
    }

    /**
     * Runs each query on the reference first, then on the endpoint with the timeout {@code timeouts} gives for
     * that query number, and prints one line per query to {@code out} as it goes.
     */
    public static List<Result> compare(QueryRunner reference, QueryRunner endpoint, QuerySet querySet,
            List<Integer> queries, IntFunction<Duration> timeouts, PrintStream out) {
        List<Result> results = new ArrayList<>();
        out.printf("%s: %s against the reference %s%n", querySet.title(), endpoint.name(), reference.name());
        out.println(header(endpoint.name(), reference.name()));
        for (int query : queries) {
            QueryRunner.Outcome expected = reference.run(querySet.referenceSql(query), Duration.ofMinutes(5));
            QueryRunner.Outcome actual = endpoint.run(querySet.sql(query), timeouts.apply(query));
            Result result = judge(query, expected, actual, querySet.ordered(query));
            results.add(result);
            out.println(line(result));
        }
        out.println(summary(results));
        return results;
    }

    static Result judge(int query, QueryRunner.Outcome expected, QueryRunner.Outcome actual, boolean ordered) {
        double seconds = actual.seconds();
        double referenceSeconds = expected.seconds();
        if (expected.status() != QueryRunner.Status.OK) {
            return new Result(query, Verdict.REFERENCE_FAILED, expected.error(), -1, seconds, referenceSeconds);
        }
        return switch (actual.status()) {
            case ERROR -> new Result(query, Verdict.ERROR, actual.error(), -1, seconds, referenceSeconds);
            case TIMEOUT -> new Result(query, Verdict.TIMEOUT, actual.error(), -1, seconds, referenceSeconds);
            case OK -> {
                String differences = expected.result().differences(actual.result(), ordered);
                yield new Result(query, differences == null ? Verdict.OK : Verdict.WRONG,
                        differences == null ? expected.result().rows().size() + " rows" : differences,
                        actual.result().rows().size(), seconds, referenceSeconds);
            }
        };
    }

    /** The table's header line. */
    public static String header(String endpoint, String reference) {
        return String.format("%-5s %-8s %10s %10s  %s", "query", "verdict", abbreviate(endpoint, 10),
                abbreviate(reference, 10), "detail");
    }

    /** One query's line. */
    public static String line(Result result) {
        String detail = result.detail() == null ? "" : result.detail();
        if (detail.length() > 400) {
            detail = detail.substring(0, 400) + "...";
        }
        return String.format("Q%02d   %-8s %9.2fs %9.2fs  %s", result.query(),
                result.verdict().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), result.seconds(),
                result.referenceSeconds(), detail);
    }

    /** Counts per verdict and the queries that passed. */
    public static String summary(List<Result> results) {
        StringBuilder text = new StringBuilder();
        for (Verdict verdict : Verdict.values()) {
            List<Integer> queries = results.stream().filter(r -> r.verdict() == verdict).map(Result::query).toList();
            if (!queries.isEmpty()) {
                text.append(text.length() > 0 ? "; " : "").append(verdict.name().toLowerCase(java.util.Locale.ROOT))
                        .append(' ').append(queries.size()).append(' ').append(queries);
            }
        }
        return text.toString();
    }

    private static String abbreviate(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length);
    }
}
