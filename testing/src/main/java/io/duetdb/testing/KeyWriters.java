package io.duetdb.testing;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import io.duetdb.client.kv.RawKvClient;

/**
 * Writers that put fresh keys ("{lane}-000000", "{lane}-000001", ...) one lane per thread until stopped, and
 * record which writes were acknowledged and which failed with an unknown outcome: what a durability check
 * compares the store against.
 */
public final class KeyWriters implements AutoCloseable {
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<String> uncertain = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService threads;
    private final List<Future<?>> running = new ArrayList<>();

    /** Starts one writer per lane; {@code valueOf} maps a key to the value written under it. */
    public KeyWriters(RawKvClient kv, List<String> lanes, UnaryOperator<String> valueOf) {
        requireNonNull(kv, "kv is null");
        requireNonNull(valueOf, "valueOf is null");
        threads = Executors.newFixedThreadPool(lanes.size());
        for (String lane : lanes) {
            running.add(threads.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String key = String.format("%s-%06d", lane, i);
                    try {
                        kv.put(key.getBytes(StandardCharsets.UTF_8), valueOf.apply(key).getBytes(StandardCharsets.UTF_8));
                        acknowledged.add(key);
                    } catch (RuntimeException e) {
                        uncertain.add(key);
                    }
                }
                return null;
            }));
        }
    }

    public int acknowledgedCount() {
        return acknowledged.size();
    }

    /** Stops the writers and waits for their last writes to finish. */
    public void stop() throws Exception {
        stop.set(true);
        for (Future<?> future : running) {
            future.get(60, TimeUnit.SECONDS);
        }
        threads.shutdown();
    }

    /** Keys whose write was acknowledged (complete once stopped). */
    public Set<String> acknowledged() {
        return acknowledged;
    }

    /** Keys whose write failed: each may or may not have been applied. */
    public Set<String> uncertain() {
        return uncertain;
    }

    @Override
    public void close() {
        stop.set(true);
        threads.shutdownNow();
    }
}
