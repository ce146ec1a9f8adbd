package io.duetdb.client.placement;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

import io.duetdb.common.config.HostAndPort;

/**
 * How a component reaches the placement driver.
 *
 * @param endpoints client addresses of some or all members; the rest are learnt from GetMembers
 * @param requestTimeout how long one call may take, retries across members included
 * @param tsoMaxBatch the most timestamp callers merged into one TSO request
 * @param tsoMaxInflight TSO requests sent on the stream before the first one is answered
 */
public record PlacementClientConfig(List<HostAndPort> endpoints, Duration requestTimeout, int tsoMaxBatch,
        int tsoMaxInflight) {
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_TSO_MAX_BATCH = 10_000;
    public static final int DEFAULT_TSO_MAX_INFLIGHT = 1;

    public PlacementClientConfig {
        endpoints = List.copyOf(requireNonNull(endpoints, "endpoints is null"));
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no placement endpoints given");
        }
        requireNonNull(requestTimeout, "requestTimeout is null");
        if (tsoMaxBatch < 1 || tsoMaxInflight < 1) {
            throw new IllegalArgumentException("tsoMaxBatch and tsoMaxInflight must be positive");
        }
    }

    public static PlacementClientConfig of(List<HostAndPort> endpoints) {
        return new PlacementClientConfig(endpoints, DEFAULT_REQUEST_TIMEOUT, DEFAULT_TSO_MAX_BATCH,
                DEFAULT_TSO_MAX_INFLIGHT);
    }

    public PlacementClientConfig withRequestTimeout(Duration timeout) {
        return new PlacementClientConfig(endpoints, timeout, tsoMaxBatch, tsoMaxInflight);
    }
}
