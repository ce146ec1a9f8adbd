package io.duetdb.placement.internal.tso;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.placement.internal.proto.ExtendTso;
import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.ReserveTso;

/**
 * Keeps the oracle serving on the leader: reserves the first window when the member becomes the ready
 * leader, extends the window ahead of the clock, and renews the leader lease with ReadIndex rounds.
 * {@link #tick()} runs every few milliseconds on a scheduler thread.
 */
public final class TimestampService {
    private static final Logger LOG = LoggerFactory.getLogger(TimestampService.class);

    /** Proposes placement commands through the local replica (which must lead). */
    public interface Proposer {
        CompletableFuture<PlacementCommandResult> propose(PlacementCommand command);

        /** Completes when a majority confirmed this replica's leadership after the call began. */
        CompletableFuture<Void> confirmLeadership();
    }

    private final TimestampOracle oracle;
    private final Proposer proposer;
    private final long leaseNanos;
    private final long renewIntervalNanos;
    private final java.util.function.LongSupplier wallClockMillis;
    private final java.util.function.LongSupplier monotonicNanos;

    private volatile boolean leaderReady;
    private long reservingGeneration = -1;
    private boolean extending;
    private boolean renewing;
    private long lastRenewStartNanos;

    /**
     * @param leaseNanos how long after a confirmed leadership the leader may keep serving: below the
     *     minimum election timeout, since no follower that acknowledged will vote for another before then
     */
    public TimestampService(TimestampOracle oracle, Proposer proposer, long leaseNanos,
            java.util.function.LongSupplier wallClockMillis, java.util.function.LongSupplier monotonicNanos) {
        this.oracle = requireNonNull(oracle, "oracle is null");
        this.proposer = requireNonNull(proposer, "proposer is null");
        this.leaseNanos = leaseNanos;
        this.renewIntervalNanos = leaseNanos / 4;
        this.wallClockMillis = wallClockMillis;
        this.monotonicNanos = monotonicNanos;
    }

    public TimestampOracle oracle() {
        return oracle;
    }

    /** The replica became the ready leader (it has applied everything committed before its term). */
    public synchronized void leaderReady() {
        leaderReady = true;
        reservingGeneration = -1;
        extending = false;
        renewing = false;
        oracle.beginTerm();
    }

    /** The replica is not (or no longer) the leader. */
    public synchronized void leaderLost() {
        if (leaderReady) {
            LOG.info("TSO stops serving: leadership lost");
        }
        leaderReady = false;
        oracle.resign();
    }

    public synchronized void tick() {
        if (!leaderReady) {
            return;
        }
        long generation = oracle.generation();
        renewLeaseIfDue(generation);
        if (!oracle.serving()) {
            if (reservingGeneration != generation) {
                reserve(generation);
            }
        } else if (oracle.needsExtension() && !extending) {
            extend(generation);
        }
    }

    private void reserve(long generation) {
        reservingGeneration = generation;
        long now = wallClockMillis.getAsLong();
        PlacementCommand command = PlacementCommand.newBuilder().setReserveTso(ReserveTso.newBuilder()
                .setLeaderNowMs(now).setWindowMs(oracle.windowMillis())).build();
        proposer.propose(command).whenComplete((result, error) -> {
            synchronized (this) {
                if (error != null || result.hasError()) {
                    LOG.warn("TSO window reservation failed: {}", error != null ? error.toString() : result.getError());
                    if (reservingGeneration == generation) {
                        reservingGeneration = -1;
                    }
                    return;
                }
                if (oracle.start(generation, result.getTsoStartMs(), result.getTsoLimitMs())) {
                    LOG.info("TSO serving from {} with window up to {} ({} ms ahead)", result.getTsoStartMs(),
                            result.getTsoLimitMs(), result.getTsoLimitMs() - result.getTsoStartMs());
                }
            }
        });
    }

    private void extend(long generation) {
        extending = true;
        PlacementCommand command = PlacementCommand.newBuilder().setExtendTso(ExtendTso.newBuilder()
                .setLeaderNowMs(wallClockMillis.getAsLong()).setWindowMs(oracle.windowMillis())).build();
        proposer.propose(command).whenComplete((result, error) -> {
            synchronized (this) {
                extending = false;
                if (error != null || result.hasError()) {
                    LOG.warn("TSO window extension failed: {}", error != null ? error.toString() : result.getError());
                    return;
                }
                oracle.extend(generation, result.getTsoLimitMs());
                LOG.debug("TSO window extended to {}", result.getTsoLimitMs());
            }
        });
    }

    private void renewLeaseIfDue(long generation) {
        long now = monotonicNanos.getAsLong();
        if (renewing || (lastRenewStartNanos != 0 && now - lastRenewStartNanos < renewIntervalNanos)) {
            return;
        }
        renewing = true;
        lastRenewStartNanos = now;
        long started = now;
        proposer.confirmLeadership().whenComplete((ignored, error) -> {
            synchronized (this) {
                renewing = false;
                if (error == null) {
                    oracle.renewLease(generation, started + leaseNanos);
                } else {
                    LOG.debug("leader lease renewal failed: {}", error.toString());
                    lastRenewStartNanos = 0;
                }
            }
        });
    }

}
