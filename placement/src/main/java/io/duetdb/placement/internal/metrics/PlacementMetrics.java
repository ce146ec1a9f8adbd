package io.duetdb.placement.internal.metrics;

import java.util.function.DoubleSupplier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** The placement member's metrics, in its own registry (several members may share a JVM). */
public final class PlacementMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    public final Counter tsoRequests;
    public final Counter tsoTimestamps;
    public final Counter tsoUnavailable;
    public final Counter storeHeartbeats;
    public final Counter regionHeartbeats;
    public final Counter staleRegionHeartbeats;
    public final Counter operatorsCreated;
    public final Counter operatorsEnded;
    public final Counter deadlocks;
    public final Histogram rpcSeconds;

    public PlacementMetrics() {
        JvmMetrics.builder().register(registry);
        tsoRequests = Counter.builder().name("duet_placement_tso_requests_total")
                .help("TSO batch requests served").register(registry);
        tsoTimestamps = Counter.builder().name("duet_placement_tso_timestamps_total")
                .help("Timestamps handed out").register(registry);
        tsoUnavailable = Counter.builder().name("duet_placement_tso_unavailable_total")
                .help("TSO requests refused").labelNames("reason").register(registry);
        storeHeartbeats = Counter.builder().name("duet_placement_store_heartbeats_total")
                .help("Store heartbeats received").register(registry);
        regionHeartbeats = Counter.builder().name("duet_placement_region_heartbeats_total")
                .help("Region heartbeats received").register(registry);
        staleRegionHeartbeats = Counter.builder().name("duet_placement_stale_region_heartbeats_total")
                .help("Region heartbeats rejected as older than the known region").register(registry);
        operatorsCreated = Counter.builder().name("duet_placement_operators_started_total")
                .help("Scheduling operators started").labelNames("kind").register(registry);
        operatorsEnded = Counter.builder().name("duet_placement_operators_ended_total")
                .help("Scheduling operators ended").labelNames("kind", "status").register(registry);
        deadlocks = Counter.builder().name("duet_placement_deadlocks_total")
                .help("Lock waits refused because they closed a wait-for cycle").register(registry);
        rpcSeconds = Histogram.builder().name("duet_placement_rpc_seconds")
                .help("Placement RPC handling time").labelNames("method")
                .classicUpperBounds(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5)
                .register(registry);
    }

    public void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(callback -> callback.call(value.getAsDouble())).register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
