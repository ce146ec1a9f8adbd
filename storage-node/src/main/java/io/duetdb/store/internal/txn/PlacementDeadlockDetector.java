package io.duetdb.store.internal.txn;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.placement.PlacementClient;

/**
 * Asks the placement leader, which keeps the cluster's wait-for graph. When placement cannot be reached the
 * wait goes on undetected and ends at the lock wait timeout instead.
 */
public final class PlacementDeadlockDetector implements DeadlockDetector {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementDeadlockDetector.class);

    private final PlacementClient placement;
    private final Executor executor;

    public PlacementDeadlockDetector(PlacementClient placement, Executor executor) {
        this.placement = requireNonNull(placement, "placement is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    @Override
    public CompletableFuture<List<Long>> detect(long waiterTs, long holderTs, long keyHash) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return placement.detectDeadlock(waiterTs, holderTs, keyHash);
            } catch (RuntimeException e) {
                LOG.info("deadlock detection unavailable for transaction {} waiting for {}: {}", waiterTs, holderTs,
                        e.getMessage());
                return List.of();
            }
        }, executor);
    }

    @Override
    public void cleanUp(long waiterTs, long holderTs) {
        executor.execute(() -> {
            try {
                placement.cleanUpWaitFor(waiterTs, holderTs);
            } catch (RuntimeException e) {
                LOG.debug("wait-for clean-up of {} failed: {}", waiterTs, e.getMessage());
            }
        });
    }
}
