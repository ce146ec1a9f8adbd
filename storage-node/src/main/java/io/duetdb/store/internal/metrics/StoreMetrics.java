package io.duetdb.store.internal.metrics;

import java.util.function.DoubleSupplier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** A storage node's metrics, in its own registry (several stores may share a JVM). */
public final class StoreMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    public final Counter requests;
    public final Histogram requestSeconds;
    public final Counter regionErrors;
    public final Counter proposals;
    public final Counter proposedCommands;
    public final Counter snapshotsSent;
    public final Counter snapshotsInstalled;
    public final Counter splits;
    public final Counter merges;
    public final Counter replicasDestroyed;
    public final Counter operatorSteps;
    public final Counter gcKeys;
    public final Counter gcRegionScans;
    public final Counter gcKeyRounds;
    public final Counter keyErrors;
    public final Counter batchMessages;
    public final Counter pessimisticLocks;
    public final Counter memoryLocksDropped;
    public final Counter batchCommands;
    public final Counter coprocessorRequests;
    public final Counter coprocessorRows;
    public final Histogram coprocessorSeconds;
    public final Histogram lockWaitSeconds;
    public final Counter resolvedTsProposals;
    public final Counter resolvedTsPushes;

    public StoreMetrics() {
        JvmMetrics.builder().register(registry);
        resolvedTsProposals = Counter.builder().name("duet_store_resolved_ts_proposals_total")
                .help("Resolved timestamps proposed through the log by region leaders for their learners")
                .register(registry);
        resolvedTsPushes = Counter.builder().name("duet_store_resolved_ts_pushes_total")
                .help("Resolved timestamps of regions led here pushed to learner stores outside the log")
                .register(registry);
        gcKeys = Counter.builder().name("duet_store_gc_keys_total")
                .help("Keys whose old MVCC versions were garbage-collected").register(registry);
        gcRegionScans = Counter.builder().name("duet_store_gc_region_scans_total")
                .help("Regions whose write records garbage collection scanned").register(registry);
        gcKeyRounds = Counter.builder().name("duet_store_gc_key_rounds_total")
                .help("Garbage collection rounds over a region that checked only the keys written since the last")
                .register(registry);
        keyErrors = Counter.builder().name("duet_store_txn_key_errors_total")
                .help("Transactional key errors answered, by kind").labelNames("kind").register(registry);
        pessimisticLocks = Counter.builder().name("duet_store_pessimistic_locks_total")
                .help("Pessimistic lock requests granted, by where the locks went (memory or log)").labelNames("where")
                .register(registry);
        memoryLocksDropped = Counter.builder().name("duet_store_memory_locks_dropped_total")
                .help("In-memory pessimistic locks dropped by a change of leader or region version").register(registry);
        batchMessages = Counter.builder().name("duet_store_batch_messages_total")
                .help("BatchCommands stream messages received").register(registry);
        batchCommands = Counter.builder().name("duet_store_batch_commands_total")
                .help("Requests received in BatchCommands stream messages").register(registry);
        coprocessorRequests = Counter.builder().name("duet_store_coprocessor_requests_total")
                .help("Coprocessor requests by plan type (dag, analyze) and outcome (ok, region_error, locked, error)")
                .labelNames("plan", "outcome")
                .register(registry);
        coprocessorRows = Counter.builder().name("duet_store_coprocessor_rows_total")
                .help("Rows read and returned by coprocessor requests").labelNames("stage").register(registry);
        coprocessorSeconds = Histogram.builder().name("duet_store_coprocessor_seconds")
                .help("Coprocessor request time from receipt to the last batch").register(registry);
        lockWaitSeconds = Histogram.builder().name("duet_store_lock_wait_seconds")
                .help("Time pessimistic lock requests waited for another transaction's lock, by how the wait ended"
                        + " (released, expired, timeout, deadlock)")
                .labelNames("outcome").classicUpperBounds(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5,
                        10, 30, 60)
                .register(registry);
        requests = Counter.builder().name("duet_store_requests_total").help("KV requests by method")
                .labelNames("method").register(registry);
        requestSeconds = Histogram.builder().name("duet_store_request_seconds").help("KV request handling time")
                .labelNames("method").classicUpperBounds(0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 5)
                .register(registry);
        regionErrors = Counter.builder().name("duet_store_region_errors_total").help("Region errors answered, by kind")
                .labelNames("kind").register(registry);
        proposals = Counter.builder().name("duet_store_raft_proposals_total").help("Raft entries proposed").register(registry);
        proposedCommands = Counter.builder().name("duet_store_raft_proposed_commands_total")
                .help("Commands carried by proposed Raft entries").register(registry);
        snapshotsSent = Counter.builder().name("duet_store_snapshots_sent_total").help("Region snapshots sent").register(registry);
        snapshotsInstalled = Counter.builder().name("duet_store_snapshots_installed_total")
                .help("Region snapshots installed").register(registry);
        splits = Counter.builder().name("duet_store_splits_total").help("Region splits applied").register(registry);
        merges = Counter.builder().name("duet_store_merges_total").help("Region merges applied").register(registry);
        replicasDestroyed = Counter.builder().name("duet_store_replicas_destroyed_total")
                .help("Replicas removed from this store").register(registry);
        operatorSteps = Counter.builder().name("duet_store_operator_steps_total").help("Scheduling steps carried out")
                .labelNames("step").register(registry);
    }

    public void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(callback -> callback.call(value.getAsDouble())).register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
