package io.duetdb.learner.internal.metrics;

import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** A column learner's metrics, in its own registry (a playground runs several components in one JVM). */
public final class LearnerMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    public final Counter appliedEntries;
    public final Counter snapshotsInstalled;
    public final Counter replicasCreated;
    public final Counter replicasDestroyed;
    public final Counter coprocessorRequests;
    public final Counter coprocessorRows;
    public final Histogram coprocessorSeconds;
    public final Histogram readWaitSeconds;
    public final Counter resolvedReads;
    public final Counter resolvedTsPushes;
    public final Counter gcVersions;
    public final Counter deltaMerges;
    public final Histogram deltaMergeSeconds;
    public final Counter packsScanned;
    public final Counter mppTasks;

    public LearnerMetrics() {
        JvmMetrics.builder().register(registry);
        appliedEntries = Counter.builder().name("duet_learner_applied_entries_total")
                .help("Raft log entries the learner's replicas applied").register(registry);
        snapshotsInstalled = Counter.builder().name("duet_learner_snapshots_installed_total")
                .help("Region snapshots fetched from row stores and installed").register(registry);
        replicasCreated = Counter.builder().name("duet_learner_replicas_added_total")
                .help("Empty learner replicas created at placement's request").register(registry);
        replicasDestroyed = Counter.builder().name("duet_learner_replicas_destroyed_total")
                .help("Learner replicas removed (region dropped this learner, or merged away)").register(registry);
        coprocessorRequests = Counter.builder().name("duet_learner_coprocessor_requests_total")
                .help("Coprocessor requests by outcome (ok, region_error, locked, error)").labelNames("outcome")
                .register(registry);
        coprocessorRows = Counter.builder().name("duet_learner_coprocessor_rows_total")
                .help("Rows scanned and returned by coprocessor requests").labelNames("kind").register(registry);
        coprocessorSeconds = Histogram.builder().name("duet_learner_coprocessor_seconds")
                .help("Coprocessor request time, wait for the replica included").register(registry);
        gcVersions = Counter.builder().name("duet_learner_gc_versions_total")
                .help("Row versions dropped below the GC safe point").register(registry);
        deltaMerges = Counter.builder().name("duet_learner_delta_merges_total")
                .help("Merges of deltas into column packs by outcome (ok, discarded, failed)").labelNames("outcome")
                .register(registry);
        deltaMergeSeconds = Histogram.builder().name("duet_learner_delta_merge_seconds")
                .help("Time a delta merge took, pack files written included").register(registry);
        packsScanned = Counter.builder().name("duet_learner_packs_scanned_total")
                .help("Column pack slices scans met, by what they did (read, skipped by min/max)").labelNames("kind")
                .register(registry);
        mppTasks = Counter.builder().name("duet_learner_mpp_tasks_total")
                .help("MPP tasks by event (dispatched, refused, cancelled)").labelNames("event").register(registry);
        resolvedReads = Counter.builder().name("duet_learner_resolved_reads_total")
                .help("Reads at or below their replica's resolved timestamp, served without the leader").register(registry);
        resolvedTsPushes = Counter.builder().name("duet_learner_resolved_ts_pushes_total")
                .help("Resolved timestamps region leaders pushed here, by outcome (taken at once, held until the"
                        + " replica applies their index, refused for another epoch or an unknown region)")
                .labelNames("outcome").register(registry);
        readWaitSeconds = Histogram.builder().name("duet_learner_read_wait_seconds")
                .help("Time a read waited for its replica to apply the leader's read index").register(registry);
    }

    public void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help).callback(callback -> callback.call(value.getAsDouble()))
                .register(registry);
    }

    public void gaugeByRegion(String name, String help, Consumer<GaugeWithCallback.Callback> values) {
        GaugeWithCallback.builder().name(name).help(help).labelNames("region").callback(values::accept).register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
