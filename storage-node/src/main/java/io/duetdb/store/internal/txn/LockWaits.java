package io.duetdb.store.internal.txn;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.kv.Deadlock;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.LockInfo;

/**
 * Pessimistic lock requests that found a key locked wait here, without a thread, until the lock is released
 * on this store, its TTL runs out (the client then resolves it), their own deadline passes, or the deadlock
 * detector finds that the wait closes a cycle.
 */
public final class LockWaits {
    private static final Logger LOG = LoggerFactory.getLogger(LockWaits.class);

    private record Waiter(long startTs, LockInfo lock, CompletableFuture<KeyError> woken, long startNanos) {
    }

    /** How a wait ended, for metrics. */
    public enum Outcome { RELEASED, EXPIRED, TIMEOUT, DEADLOCK }

    /** Told of every wait as it ends: how long it took and how it ended. */
    public interface Observer {
        Observer NONE = (nanos, outcome) -> { };

        void waited(long nanos, Outcome outcome);
    }

    private final Map<ByteString, List<Waiter>> waiters = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final DeadlockDetector detector;
    private final Observer observer;

    public LockWaits(ScheduledExecutorService timer, DeadlockDetector detector) {
        this(timer, detector, Observer.NONE);
    }

    public LockWaits(ScheduledExecutorService timer, DeadlockDetector detector, Observer observer) {
        this.timer = requireNonNull(timer, "timer is null");
        this.detector = requireNonNull(detector, "detector is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /**
     * Completes with null when the request should try again, or with the error to answer: the lock itself
     * when it expired, lock_wait_timeout at the deadline, or deadlock.
     */
    public CompletableFuture<KeyError> waitFor(long startTs, LockInfo lock, long deadlineNanos) {
        Waiter waiter = new Waiter(startTs, lock, new CompletableFuture<>(), System.nanoTime());
        waiters.computeIfAbsent(lock.getKey(), key -> new CopyOnWriteArrayList<>()).add(waiter);
        long untilDeadline = deadlineNanos - System.nanoTime();
        long expiresAtMillis = Timestamp.fromPacked(lock.getLockVersion()).physical() + lock.getLockTtl();
        long untilExpiry = TimeUnit.MILLISECONDS.toNanos(Math.max(0, expiresAtMillis - System.currentTimeMillis()) + 1);
        if (untilExpiry < untilDeadline) {
            timer.schedule(() -> finish(waiter, KeyError.newBuilder().setLocked(lock).build()), untilExpiry, TimeUnit.NANOSECONDS);
        } else {
            timer.schedule(() -> finish(waiter, KeyError.newBuilder().setLockWaitTimeout(lock).build()),
                    Math.max(0, untilDeadline), TimeUnit.NANOSECONDS);
        }
        detector.detect(startTs, lock.getLockVersion(), lock.getKey().hashCode()).whenComplete((cycle, error) -> {
            if (error == null && !cycle.isEmpty()) {
                LOG.info("deadlock: transaction {} waits for {} on a key, closing the cycle {}", startTs,
                        lock.getLockVersion(), cycle);
                finish(waiter, KeyError.newBuilder().setDeadlock(Deadlock.newBuilder().setLockTs(lock.getLockVersion())
                        .setLockKey(lock.getKey()).addAllWaitChain(cycle)).build());
            }
        });
        return waiter.woken();
    }

    /**
     * The locks on these keys were released (committed, rolled back): the longest waiter of each key tries
     * again. The others keep waiting — most likely for that waiter, which will release in its turn; waking
     * them all would only have them queue again (and register their waits again).
     */
    public void released(Collection<ByteString> keys) {
        for (ByteString key : keys) {
            List<Waiter> list = waiters.get(key);
            if (list != null) {
                for (Waiter waiter : list) {
                    if (finish(waiter, null)) {
                        break;
                    }
                }
            }
        }
    }

    private boolean finish(Waiter waiter, KeyError error) {
        if (!waiter.woken().complete(error)) {
            return false;
        }
        observer.waited(System.nanoTime() - waiter.startNanos(), error == null ? Outcome.RELEASED
                : error.hasDeadlock() ? Outcome.DEADLOCK : error.hasLockWaitTimeout() ? Outcome.TIMEOUT : Outcome.EXPIRED);
        List<Waiter> list = waiters.get(waiter.lock().getKey());
        if (list != null) {
            list.remove(waiter);
            if (list.isEmpty()) {
                waiters.remove(waiter.lock().getKey(), list);
            }
        }
        detector.cleanUp(waiter.startTs(), waiter.lock().getLockVersion());
        return true;
    }

    public int waiting() {
        return waiters.values().stream().mapToInt(List::size).sum();
    }
}
