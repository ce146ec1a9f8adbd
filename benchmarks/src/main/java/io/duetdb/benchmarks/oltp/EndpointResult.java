package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Everything measured on one endpoint; the parts not run stay empty. */
final class EndpointResult {
    /** One measured sysbench run, with this process's CPU per transaction meanwhile ({@link ProcessCpu}). */
    record SysbenchRun(String workload, int threads, SysbenchResult result, double cpuMicrosPerTransaction) {
        SysbenchRun {
            requireNonNull(workload, "workload is null");
            requireNonNull(result, "result is null");
        }
    }

    private final String name;
    private Sysbench.Prepare prepare;
    private final List<SysbenchRun> runs = new ArrayList<>();
    private final List<AutocommitLatency.Result> latencies = new ArrayList<>();
    private BulkWrites.Result bulk;

    EndpointResult(String name) {
        this.name = requireNonNull(name, "name is null");
    }

    String name() {
        return name;
    }

    Optional<Sysbench.Prepare> prepare() {
        return Optional.ofNullable(prepare);
    }

    void setPrepare(Sysbench.Prepare prepare) {
        this.prepare = requireNonNull(prepare, "prepare is null");
    }

    List<SysbenchRun> runs() {
        return runs;
    }

    Optional<SysbenchResult> run(String workload, int threads) {
        return sysbenchRun(workload, threads).map(SysbenchRun::result);
    }

    Optional<SysbenchRun> sysbenchRun(String workload, int threads) {
        return runs.stream().filter(run -> run.workload().equals(workload) && run.threads() == threads).findFirst();
    }

    List<AutocommitLatency.Result> latencies() {
        return latencies;
    }

    Optional<AutocommitLatency.Result> latency(String statement) {
        return latencies.stream().filter(latency -> latency.statement().equals(statement)).findFirst();
    }

    Optional<BulkWrites.Result> bulk() {
        return Optional.ofNullable(bulk);
    }

    void setBulk(BulkWrites.Result bulk) {
        this.bulk = requireNonNull(bulk, "bulk is null");
    }
}
