package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The knobs of scheduling.
 *
 * @param maxReplicas voters per region
 * @param leaderScheduleLimit leader-balance operators running at once
 * @param regionScheduleLimit region-balance operators running at once
 * @param operatorTimeout an operator not finished by then is cancelled
 */
public record SchedulingConfig(int maxReplicas, int leaderScheduleLimit, int regionScheduleLimit,
        Duration operatorTimeout) {
    public SchedulingConfig {
        requireNonNull(operatorTimeout, "operatorTimeout is null");
        if (maxReplicas < 1) {
            throw new IllegalArgumentException("maxReplicas must be positive");
        }
    }
}
