package io.duetdb.placement.internal.id;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.placement.internal.proto.PlacementCommand;
import io.duetdb.placement.internal.proto.PlacementCommandResult;
import io.duetdb.placement.internal.proto.ReserveIds;
import io.duetdb.placement.internal.tso.TimestampService;

/**
 * Hands out ids on the leader from windows reserved through Raft, so that ids stay unique across leader
 * changes: a new leader's window starts after every window reserved before.
 */
public final class IdAllocator {
    private static final Logger LOG = LoggerFactory.getLogger(IdAllocator.class);

    private final TimestampService.Proposer proposer;
    private final long step;
    private long next;
    private long limit;
    private long generation;
    private CompletableFuture<Void> refill;

    public IdAllocator(TimestampService.Proposer proposer, long step) {
        this.proposer = requireNonNull(proposer, "proposer is null");
        if (step < 1) {
            throw new IllegalArgumentException("id step must be positive");
        }
        this.step = step;
    }

    /** Forgets the window: after a leadership change, ids must come from a newly reserved window. */
    public synchronized void reset() {
        next = 0;
        limit = 0;
        generation++;
        refill = null;
    }

    /** The first of {@code count} consecutive new ids. */
    public CompletableFuture<Long> allocate(int count) {
        if (count < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("id count must be positive"));
        }
        if (count > step) {
            return reserve(count).thenApply(result -> result.getFirstId());
        }
        CompletableFuture<Void> pending;
        synchronized (this) {
            if (next != 0 && next + count <= limit) {
                long first = next;
                next += count;
                return CompletableFuture.completedFuture(first);
            }
            if (refill == null) {
                long forGeneration = generation;
                refill = reserve(step).thenAccept(result -> {
                    synchronized (this) {
                        if (forGeneration == generation) {
                            next = result.getFirstId();
                            limit = next + step;
                            refill = null;
                            LOG.info("id window [{}, {}) reserved", next, limit);
                        }
                    }
                });
                CompletableFuture<Void> started = refill;
                started.whenComplete((ignored, error) -> {
                    if (error != null) {
                        synchronized (this) {
                            if (refill == started) {
                                refill = null;
                            }
                        }
                    }
                });
            }
            pending = refill;
        }
        return pending.thenCompose(ignored -> allocate(count));
    }

    private CompletableFuture<PlacementCommandResult> reserve(long count) {
        return proposer.propose(PlacementCommand.newBuilder()
                .setReserveIds(ReserveIds.newBuilder().setCount(count)).build())
                .thenApply(result -> {
                    if (result.hasError()) {
                        throw new CompletionException(new IllegalStateException(result.getError().getMessage()));
                    }
                    return result;
                });
    }
}
