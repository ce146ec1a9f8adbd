package io.duetdb.common.concurrent;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Sends items added from any thread in batches, one batch at a time: whoever finds items waiting sends all of
 * them (cut at a count and a size), so batches grow with the load and no thread waits to fill one. For stream
 * observers that must not be called concurrently.
 */
public final class CoalescingSender<T> {
    private final Queue<T> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sendersWanted = new AtomicInteger();
    private final int maxItems;
    private final long maxBytes;
    private final ToIntFunction<T> bytesOf;
    private final Consumer<List<T>> send;

    public CoalescingSender(int maxItems, long maxBytes, ToIntFunction<T> bytesOf, Consumer<List<T>> send) {
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems must be positive");
        }
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.bytesOf = requireNonNull(bytesOf, "bytesOf is null");
        this.send = requireNonNull(send, "send is null");
    }

    public void add(T item) {
        waiting.add(requireNonNull(item, "item is null"));
        if (sendersWanted.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            List<T> batch = new ArrayList<>();
            long bytes = 0;
            T next;
            while ((next = waiting.poll()) != null) {
                batch.add(next);
                bytes += bytesOf.applyAsInt(next);
                if (batch.size() >= maxItems || bytes >= maxBytes) {
                    send.accept(batch);
                    batch = new ArrayList<>();
                    bytes = 0;
                }
            }
            if (!batch.isEmpty()) {
                send.accept(batch);
            }
            missed = sendersWanted.addAndGet(-missed);
        } while (missed != 0);
    }

    /** Drops what waits (the stream broke). */
    public void clear() {
        waiting.clear();
    }
}
