package io.duetdb.benchmarks.tpch;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.testing.reference.ConnectionSource;
import io.duetdb.testing.reference.QueryResult;
import io.duetdb.testing.reference.QueryRunner;
import io.duetdb.testing.tpch.TpchData;
import io.duetdb.testing.tpch.TpchLoader;
import io.duetdb.testing.tpch.TpchQueries;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The SQL layer's vectorized executor against its row executor on one DuetDB endpoint holding TPC-H: each query
 * runs with {@code duet_vectorized_execution} ON and OFF in turn (so drift in the machine's state falls on both),
 * the results must agree, and the medians and their ratio are printed. Besides chosen TPC-H queries, queries of
 * the operators TPC-H barely exercises: a large top N over a join, window functions, a UNION, a merge join, a
 * streamed final merge.
 */
@Command(name = "vectorized", mixinStandardHelpOptions = true,
        description = "Times queries with the SQL layer's vectorized execution on and off, alternately.")
public final class VectorizedBenchmark implements Callable<Integer> {
    static final Map<String, String> OPERATOR_QUERIES = new LinkedHashMap<>();

    static {
        OPERATOR_QUERIES.put("top-n", "SELECT COUNT(*), SUM(t.p) FROM (SELECT o.o_totalprice p FROM orders o"
                + " JOIN customer c ON o.o_custkey = c.c_custkey WHERE c.c_acctbal > 0"
                + " ORDER BY o.o_totalprice DESC, o.o_orderkey LIMIT 1000000) t");
        OPERATOR_QUERIES.put("window", "SELECT COUNT(*), SUM(t.r), MAX(t.s) FROM (SELECT RANK() OVER (PARTITION BY"
                + " o_custkey ORDER BY o_totalprice DESC) r, SUM(o_totalprice) OVER (PARTITION BY o_orderpriority) s"
                + " FROM orders) t");
        OPERATOR_QUERIES.put("union", "SELECT COUNT(*) FROM (SELECT o_custkey k, o_orderstatus s FROM orders UNION"
                + " SELECT c_custkey, c_mktsegment FROM customer) u");
        // Both sides ascend by the clustered key: a merge join (the only tables with one are orders, part, ...).
        OPERATOR_QUERIES.put("merge-join", "SELECT COUNT(*), SUM(b.o_totalprice) FROM orders a JOIN orders b"
                + " ON a.o_orderkey = b.o_orderkey WHERE a.o_orderstatus = 'F' AND b.o_orderpriority <> '1-URGENT'");
        // Grouped by the clustered key: the stores aggregate in scan order, and the final merge streams.
        OPERATOR_QUERIES.put("stream-aggregation", "SELECT COUNT(*), SUM(t.s), MAX(t.c) FROM (SELECT o_orderkey,"
                + " SUM(o_totalprice) s, COUNT(*) c FROM orders WHERE o_orderdate > DATE '1990-01-01' GROUP BY o_orderkey) t");
    }

    @Option(names = "--url", defaultValue = "jdbc:mysql://127.0.0.1:4000/tpch",
            description = "JDBC URL of a DuetDB endpoint holding TPC-H (default: ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--sf", defaultValue = "1", description = "scale factor of the loaded data (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--queries", defaultValue = "3,9,13,18,19,21",
            description = "TPC-H queries to run, e.g. 1-22 or none (default: ${DEFAULT-VALUE})")
    String queries;

    @Option(names = "--operators", defaultValue = "top-n,window,union,merge-join,stream-aggregation",
            description = "operator queries to run, or none (default: ${DEFAULT-VALUE})")
    String operators;

    @Option(names = "--runs", defaultValue = "3", description = "runs per query and mode (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--timeout-seconds", defaultValue = "120", description = "per query run (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    /** A query's medians in both modes, or why it has none. */
    record Comparison(String name, double vectorized, double rows, String problem) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new VectorizedBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> selected = new LinkedHashMap<>();
        if (!queries.equals("none")) {
            for (int query : TpchQueries.parseSelection(queries)) {
                selected.put(String.format("Q%02d", query), TpchQueries.sql(query, scaleFactor));
            }
        }
        if (!operators.equals("none")) {
            for (String name : operators.split(",")) {
                String sql = OPERATOR_QUERIES.get(name.trim());
                if (sql == null) {
                    throw new CommandLine.ParameterException(new CommandLine(this), "no operator query " + name
                            + "; there are " + OPERATOR_QUERIES.keySet());
                }
                selected.put(name.trim(), sql);
            }
        }
        String base = url + (url.contains("?") ? "&" : "?") + "user=root&useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection = DriverManager.getConnection(base)) {
            if (!TpchLoader.holds(connection, new TpchData(scaleFactor))) {
                System.err.printf("%s does not hold TPC-H SF %s; load it with: benchmarks/bench tpch --sf %s --no-local"
                        + " --url %s --queries none%n", url, scaleFactor, scaleFactor, url);
                return 1;
            }
        }
        ConnectionSource on = () -> DriverManager.getConnection(base + "&sessionVariables=duet_vectorized_execution=ON");
        ConnectionSource off = () -> DriverManager.getConnection(base + "&sessionVariables=duet_vectorized_execution=OFF");
        List<Comparison> comparisons = new ArrayList<>();
        try (QueryRunner vectorized = new QueryRunner("vectorized", on); QueryRunner rows = new QueryRunner("rows", off)) {
            for (Map.Entry<String, String> query : selected.entrySet()) {
                comparisons.add(compare(query.getKey(), query.getValue(), vectorized, rows));
            }
        }
        print(comparisons);
        return comparisons.stream().anyMatch(comparison -> comparison.problem() != null) ? 1 : 0;
    }

    private Comparison compare(String name, String sql, QueryRunner vectorized, QueryRunner rows) {
        double[] onSeconds = new double[runs];
        double[] offSeconds = new double[runs];
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        for (int run = 0; run < runs; run++) {
            QueryRunner.Outcome on = vectorized.run(sql, timeout);
            QueryRunner.Outcome off = rows.run(sql, timeout);
            for (QueryRunner.Outcome outcome : List.of(on, off)) {
                if (outcome.status() != QueryRunner.Status.OK) {
                    System.out.printf("%s: %s %s: %s%n", name, outcome == on ? "vectorized" : "rows", outcome.status(),
                            outcome.error());
                    return new Comparison(name, Double.NaN, Double.NaN, outcome.status() + ": " + outcome.error());
                }
            }
            QueryResult expected = off.result();
            // Ties may come in another order: the rows are compared as multisets.
            String differences = expected.differences(on.result(), false);
            if (differences != null) {
                System.out.printf("%s: results differ: %s%n", name, differences);
                return new Comparison(name, Double.NaN, Double.NaN, "results differ: " + differences);
            }
            onSeconds[run] = on.seconds();
            offSeconds[run] = off.seconds();
            System.out.printf("%s run %d: vectorized %.3f s, rows %.3f s%n", name, run + 1, on.seconds(), off.seconds());
        }
        return new Comparison(name, median(onSeconds), median(offSeconds), null);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private void print(List<Comparison> comparisons) {
        System.out.println();
        System.out.printf("duet_vectorized_execution ON against OFF, alternately: median of %d runs each, seconds%n",
                runs);
        System.out.printf("%-8s %12s %12s %8s%n", "query", "vectorized", "rows", "ratio");
        double onTotal = 0;
        double offTotal = 0;
        for (Comparison comparison : comparisons) {
            if (comparison.problem() != null) {
                System.out.printf("%-8s %s%n", comparison.name(), comparison.problem());
                continue;
            }
            onTotal += comparison.vectorized();
            offTotal += comparison.rows();
            System.out.printf("%-8s %12.3f %12.3f %8.2f%n", comparison.name(), comparison.vectorized(),
                    comparison.rows(), comparison.rows() / comparison.vectorized());
        }
        System.out.printf("%-8s %12.3f %12.3f %8.2f%n", "total", onTotal, offTotal, offTotal / onTotal);
        System.out.println("ratio: rows / vectorized (above 1: the vectorized executor is faster)");
    }
}
