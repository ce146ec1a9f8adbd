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
 * @param maxMergeRegionSize regions smaller than this are merged into a small neighbour
 * @param splitMergeInterval a region whose range changed less than this long ago is not merged
 * @param mergeScheduleLimit merges running at once
 */
public record SchedulingConfig(int maxReplicas, int leaderScheduleLimit, int regionScheduleLimit,
        Duration operatorTimeout, long maxMergeRegionSize, Duration splitMergeInterval, int mergeScheduleLimit) {
    public SchedulingConfig {
        requireNonNull(operatorTimeout, "operatorTimeout is null");
        requireNonNull(splitMergeInterval, "splitMergeInterval is null");
        if (maxReplicas < 1) {
            throw new IllegalArgumentException("maxReplicas must be positive");
        }
    }
}
