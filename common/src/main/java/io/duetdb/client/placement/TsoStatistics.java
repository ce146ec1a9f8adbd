package io.duetdb.client.placement;

import static java.util.Objects.requireNonNull;

import org.HdrHistogram.Histogram;

/**
 * What a client's TSO requests did over an interval.
 *
 * @param batches TSO requests answered
 * @param timestamps timestamps those requests carried
 * @param batchLatencyMicros time from sending a request to its answer, in microseconds
 */
public record TsoStatistics(long batches, long timestamps, Histogram batchLatencyMicros) {
    public TsoStatistics {
        requireNonNull(batchLatencyMicros, "batchLatencyMicros is null");
    }
}
