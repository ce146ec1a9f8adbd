package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The final tables: every part's figures per endpoint, each beside its ratio to the reference endpoint (the last
 * one measured: the private MariaDB with --mariadb). Throughput ratios are endpoint / reference (below 1: slower);
 * latency and time ratios are endpoint / reference too (above 1: slower). Errors are shown, never dropped.
 */
final class OltpReport {
    /** How the runs were set up, for the tables' headings. */
    record Settings(int tables, int tableSize, int prepareThreads, int seconds, int serverWarmupSeconds, int warmupSeconds,
            List<String> workloads, List<Integer> threads, int latencyStatements, int latencyWarmup, int bulkRows,
            int rowsPerInsert, int bulkConnections) {
        Settings {
            workloads = List.copyOf(workloads);
            threads = List.copyOf(threads);
        }
    }

    private final Settings settings;
    private final List<EndpointResult> results;
    private final Optional<EndpointResult> reference;
    private final PrintStream out;

    OltpReport(Settings settings, List<EndpointResult> results, PrintStream out) {
        this.settings = requireNonNull(settings, "settings is null");
        this.results = List.copyOf(results);
        this.reference = results.size() > 1 ? Optional.of(results.get(results.size() - 1)) : Optional.empty();
        this.out = requireNonNull(out, "out is null");
    }

    void print() {
        out.println();
        reference.ifPresent(endpoint -> out.printf("ratios: each endpoint over %s%n", endpoint.name()));
        printPrepare();
        printSysbench();
        printLatency();
        printBulk();
    }

    private void printPrepare() {
        if (results.stream().noneMatch(result -> result.prepare().isPresent())) {
            return;
        }
        out.println();
        out.printf("sysbench prepare: %d tables x %,d rows in multi-row INSERTs, then CREATE INDEX on each;"
                + " %d threads%n", settings.tables(), settings.tableSize(), settings.prepareThreads());
        out.printf("%-26s %10s %12s %14s %14s %10s%n", "endpoint", "seconds", "rows/s", "inserting s", "indexing s",
                "ratio");
        for (EndpointResult result : results) {
            result.prepare().ifPresent(prepare -> {
                if (prepare.failure().isPresent()) {
                    out.printf("%-26s failed: %s%n", result.name(), prepare.failure().get());
                    return;
                }
                out.printf("%-26s %10.1f %,12.0f %14.1f %14.1f %10s%n", result.name(), prepare.seconds(),
                        prepare.rows() / prepare.seconds(), prepare.insertSeconds(),
                        prepare.seconds() - prepare.insertSeconds(), ratio(result, other -> other.prepare()
                                .filter(p -> p.failure().isEmpty()).map(Sysbench.Prepare::seconds).orElse(Double.NaN)));
            });
        }
        out.println("inserting: until the last table's CREATE INDEX began; indexing: the rest; ratio: time"
                + " (above 1: slower)");
    }

    private void printSysbench() {
        if (results.stream().allMatch(result -> result.runs().isEmpty())) {
            return;
        }
        out.println();
        out.printf("sysbench: %d tables x %,d rows, %d s per run after a %d s server warm-up (oltp_read_write) and a"
                + " %d s warm-up per workload, --db-ps-mode=auto%n", settings.tables(), settings.tableSize(),
                settings.seconds(), settings.serverWarmupSeconds(), settings.warmupSeconds());
        out.printf("%-18s %7s  %-26s %10s %10s %9s %9s %10s %9s %7s%n", "workload", "threads", "endpoint", "TPS",
                "QPS", "avg ms", "p95 ms", "ign. err.", "CPU us/tx", "ratio");
        for (String workload : settings.workloads()) {
            for (int threads : settings.threads()) {
                for (EndpointResult result : results) {
                    Optional<EndpointResult.SysbenchRun> run = result.sysbenchRun(workload, threads);
                    if (run.isEmpty()) {
                        continue;
                    }
                    SysbenchResult figures = run.get().result();
                    if (!figures.completed()) {
                        out.printf("%-18s %7d  %-26s failed: %s%n", workload, threads, result.name(),
                                figures.failure().orElseThrow());
                        continue;
                    }
                    out.printf("%-18s %7d  %-26s %,10.0f %,10.0f %9.2f %9.2f %,10d %,9.0f %7s%n", workload, threads,
                            result.name(), figures.transactionsPerSecond(), figures.queriesPerSecond(),
                            figures.averageMillis(), figures.p95Millis(), figures.ignoredErrors(),
                            run.get().cpuMicrosPerTransaction(),
                            ratio(result, other -> other.run(workload, threads).filter(SysbenchResult::completed)
                                    .map(SysbenchResult::transactionsPerSecond).orElse(Double.NaN)));
                }
            }
        }
        out.println("ign. err.: errors sysbench retried and counted (its --mysql-ignore-errors default: 1213, 1020,"
                + " 1205); any other error fails the run; CPU us/tx: this process's CPU per transaction (the in-process"
                + " DuetDB's whole cluster; sysbench's own is not counted; about 0 for other endpoints); ratio: TPS"
                + " (below 1: slower)");
    }

    private void printLatency() {
        if (results.stream().allMatch(result -> result.latencies().isEmpty())) {
            return;
        }
        out.println();
        out.printf("autocommit latency, one connection, Connector/J server-side prepared statements: %,d each after"
                + " %,d unmeasured%n", settings.latencyStatements(), settings.latencyWarmup());
        out.printf("%-8s %-26s %10s %10s %10s %8s %8s %10s%n", "stmt", "endpoint", "p50 ms", "p99 ms", "mean ms",
                "CPU us", "errors", "ratio p50");
        for (String statement : List.of("INSERT", "UPDATE", "SELECT")) {
            for (EndpointResult result : results) {
                result.latency(statement).ifPresent(latency -> out.printf(
                        "%-8s %-26s %10.3f %10.3f %10.3f %,8.0f %,8d %10s%n", statement, result.name(),
                        latency.p50Micros() / 1000.0, latency.p99Micros() / 1000.0, latency.meanMicros() / 1000.0,
                        latency.cpuMicros(), latency.errors(), ratio(result, other -> other.latency(statement)
                                .map(l -> (double) l.p50Micros()).orElse(Double.NaN))));
            }
        }
        out.println("INSERT: one row (and its entry in index k); UPDATE: a non-indexed column by primary key;"
                + " SELECT: by primary key; CPU us: this process's CPU per statement (in-process DuetDB: clients,"
                + " SQL server, placement and stores; other endpoints: the client only); ratio: p50 latency (above 1:"
                + " slower)");
        for (EndpointResult result : results) {
            for (AutocommitLatency.Result latency : result.latencies()) {
                latency.firstError().ifPresent(error -> out.printf("%s: %s failed %d times, first: %s%n",
                        result.name(), latency.statement(), latency.errors(), error));
            }
        }
    }

    private void printBulk() {
        if (results.stream().allMatch(result -> result.bulk().isEmpty())) {
            return;
        }
        out.println();
        out.printf("bulk writes: %,d rows in INSERTs of %,d rows from %d connections into a table with one secondary"
                + " index, then CREATE INDEX on it%n", settings.bulkRows(), settings.rowsPerInsert(),
                settings.bulkConnections());
        out.printf("%-26s %12s %9s %8s %8s %10s %12s %12s %8s%n", "endpoint", "rows/s", "CPU us/row", "failed",
                "ratio", "empty s", "backfill s", "backfill r/s", "ratio");
        for (EndpointResult result : results) {
            result.bulk().ifPresent(bulk -> out.printf("%-26s %,12.0f %,9.0f %,8d %8s %10.3f %12.1f %,12.0f %8s%n",
                    result.name(), bulk.insertRowsPerSecond(), bulk.insertCpuMicrosPerRow(), bulk.failedInserts(),
                    ratio(result, other -> other.bulk().map(BulkWrites.Result::insertRowsPerSecond).orElse(Double.NaN)),
                    bulk.emptyIndexSeconds(), bulk.backfillSeconds(), bulk.backfillRowsPerSecond(),
                    ratio(result, other -> other.bulk().map(BulkWrites.Result::backfillRowsPerSecond)
                            .orElse(Double.NaN))));
        }
        out.println("CPU us/row: this process's CPU per row loaded (as for latency); failed: INSERT statements that"
                + " failed (their rows are not counted); empty s: CREATE INDEX on an"
                + " empty table of the same shape; backfill: CREATE INDEX on pad over the loaded rows; ratios: rows/s");
        for (EndpointResult result : results) {
            result.bulk().flatMap(BulkWrites.Result::firstError).ifPresent(error ->
                    out.printf("%s: first failed INSERT: %s%n", result.name(), error));
        }
    }

    /** This endpoint's figure over the reference's, or blank for the reference itself and missing figures. */
    private String ratio(EndpointResult result, ToDoubleFunction<EndpointResult> figure) {
        if (reference.isEmpty() || reference.get() == result) {
            return "";
        }
        double value = figure.applyAsDouble(result);
        double base = figure.applyAsDouble(reference.get());
        if (Double.isNaN(value) || Double.isNaN(base) || base == 0) {
            return "n/a";
        }
        double ratio = value / base;
        return String.format(ratio < 0.1 ? "%.3fx" : "%.2fx", ratio);
    }
}
