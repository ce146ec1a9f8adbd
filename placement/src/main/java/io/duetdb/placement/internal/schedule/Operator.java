package io.duetdb.placement.internal.schedule;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.Region;

/**
 * A plan for one region, carried out one step at a time: each step is sent in heartbeat responses until
 * the region's reports show it done. An operator is dropped when it finishes, times out, or the region
 * splits or merges under it.
 */
public final class Operator {
    public enum Kind {
        REPLICA,
        RULE,
        LEADER_BALANCE,
        REGION_BALANCE,
        MERGE
    }

    public enum Status {
        RUNNING,
        FINISHED,
        TIMED_OUT,
        CANCELLED
    }

    private final long regionId;
    private final Kind kind;
    private final String description;
    private final List<OperatorStep> steps;
    private final long regionVersion;
    private final long createdNanos;
    private int current;
    private Status status = Status.RUNNING;

    public Operator(long regionId, Kind kind, String description, List<OperatorStep> steps, long regionVersion,
            long createdNanos) {
        this.regionId = regionId;
        this.kind = requireNonNull(kind, "kind is null");
        this.description = requireNonNull(description, "description is null");
        this.steps = List.copyOf(steps);
        if (this.steps.isEmpty()) {
            throw new IllegalArgumentException("an operator needs steps");
        }
        this.regionVersion = regionVersion;
        this.createdNanos = createdNanos;
    }

    /**
     * Moves past every step the region's report shows done, and returns the step to send next, if the
     * operator is still running.
     */
    public synchronized Optional<OperatorStep> advance(Region region, Peer leader, long nowNanos, long timeoutNanos) {
        if (status != Status.RUNNING) {
            return Optional.empty();
        }
        if (region.getEpoch().getVersion() != regionVersion) {
            status = Status.CANCELLED;
            return Optional.empty();
        }
        while (current < steps.size() && steps.get(current).isFinished(region, leader)) {
            current++;
        }
        if (current == steps.size()) {
            status = Status.FINISHED;
            return Optional.empty();
        }
        if (nowNanos - createdNanos > timeoutNanos) {
            status = Status.TIMED_OUT;
            return Optional.empty();
        }
        return Optional.of(steps.get(current));
    }

    public synchronized Status status() {
        return status;
    }

    public synchronized void cancel() {
        if (status == Status.RUNNING) {
            status = Status.CANCELLED;
        }
    }

    public long regionId() {
        return regionId;
    }

    public Kind kind() {
        return kind;
    }

    public String description() {
        return description;
    }

    public List<OperatorStep> steps() {
        return steps;
    }

    public synchronized int currentStep() {
        return current;
    }

    @Override
    public String toString() {
        return kind + " operator on region " + regionId + " (" + description + "): " + steps;
    }
}
