package io.duetdb.client.kv;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

/**
 * Merges requests that reach the client at the same time for the same region into one RPC (TiKV's client
 * does the same with its batch commands): one gRPC call and one Raft command carry many keys, which is
 * what lets a few cores serve tens of thousands of small writes a second. An idle region sends a request
 * alone, at once; under load, requests gather while earlier batches are in flight.
 *
 * @param <T> what a caller asks for
 * @param <R> what it gets back
 */
final class RequestBatcher<T, R> {
    /** A request and where its answer goes. */
    record Pending<T, R>(byte[] key, T request, CompletableFuture<R> result) {
    }

    /** Sends one batch (all keys in one region, as last known) and completes every pending result. */
    interface Sender<T, R> {
        void send(long regionId, List<Pending<T, R>> batch);
    }

    private final class Lane {
        final long regionId;
        final ConcurrentLinkedQueue<Pending<T, R>> queue = new ConcurrentLinkedQueue<>();
        final AtomicInteger inflight = new AtomicInteger();
        final AtomicBoolean draining = new AtomicBoolean();

        Lane(long regionId) {
            this.regionId = regionId;
        }
    }

    private final Map<Long, Lane> lanes = new ConcurrentHashMap<>();
    private final ToLongFunction<byte[]> regionOf;
    private final Sender<T, R> sender;
    private final Executor executor;
    private final int maxBatch;
    private final long maxBatchBytes;
    private final ToLongFunction<Pending<T, R>> weigher;
    private final int maxInflight;

    /** A batch takes up to {@code maxBatch} requests and {@code maxBatchBytes} as the weigher counts them. */
    RequestBatcher(ToLongFunction<byte[]> regionOf, Sender<T, R> sender, Executor executor, int maxBatch,
            long maxBatchBytes, ToLongFunction<Pending<T, R>> weigher, int maxInflight) {
        this.regionOf = requireNonNull(regionOf, "regionOf is null");
        this.sender = requireNonNull(sender, "sender is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.weigher = requireNonNull(weigher, "weigher is null");
        this.maxBatch = maxBatch;
        this.maxBatchBytes = maxBatchBytes;
        this.maxInflight = maxInflight;
    }

    CompletableFuture<R> submit(byte[] key, T request) {
        Pending<T, R> pending = new Pending<>(key, request, new CompletableFuture<>());
        enqueue(pending);
        return pending.result();
    }

    /** Puts a request (new, or back from a batch whose region changed) in its region's lane. */
    void enqueue(Pending<T, R> pending) {
        long regionId;
        try {
            regionId = regionOf.applyAsLong(pending.key());
        } catch (RuntimeException e) {
            pending.result().completeExceptionally(e);
            return;
        }
        Lane lane = lanes.computeIfAbsent(regionId, Lane::new);
        lane.queue.add(pending);
        schedule(lane);
    }

    private void schedule(Lane lane) {
        if (!lane.queue.isEmpty() && lane.inflight.get() < maxInflight && lane.draining.compareAndSet(false, true)) {
            executor.execute(() -> drain(lane));
        }
    }

    private void drain(Lane lane) {
        try {
            while (true) {
                int current = lane.inflight.get();
                if (current >= maxInflight || lane.queue.isEmpty()) {
                    break;
                }
                if (!lane.inflight.compareAndSet(current, current + 1)) {
                    continue;
                }
                List<Pending<T, R>> batch = new ArrayList<>();
                long bytes = 0;
                Pending<T, R> next;
                // Only this drainer takes from the lane, so what it peeks is what it polls.
                while (batch.size() < maxBatch && (next = lane.queue.peek()) != null) {
                    long weight = weigher.applyAsLong(next);
                    if (!batch.isEmpty() && bytes + weight > maxBatchBytes) {
                        break;
                    }
                    lane.queue.poll();
                    batch.add(next);
                    bytes += weight;
                }
                if (batch.isEmpty()) {
                    lane.inflight.decrementAndGet();
                    break;
                }
                executor.execute(() -> {
                    try {
                        sender.send(lane.regionId, batch);
                    } catch (RuntimeException e) {
                        batch.forEach(pending -> pending.result().completeExceptionally(e));
                    } finally {
                        lane.inflight.decrementAndGet();
                        schedule(lane);
                    }
                });
            }
        } finally {
            lane.draining.set(false);
        }
        schedule(lane);
    }
}
