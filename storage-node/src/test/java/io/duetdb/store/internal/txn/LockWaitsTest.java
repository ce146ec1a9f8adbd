package io.duetdb.store.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.LockInfo;

class LockWaitsTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<LockWaits.Outcome> outcomes = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private static LockInfo lock(String key, long ttlMillis) {
        long holder = new Timestamp(System.currentTimeMillis(), 0).packed();
        return LockInfo.newBuilder().setKey(ByteString.copyFromUtf8(key)).setLockVersion(holder).setLockTtl(ttlMillis)
                .build();
    }

    private LockWaits waits(List<Long> cycle) {
        DeadlockDetector detector = new DeadlockDetector() {
            @Override
            public CompletableFuture<List<Long>> detect(long waiterTs, long holderTs, long keyHash) {
                return CompletableFuture.completedFuture(cycle);
            }

            @Override
            public void cleanUp(long waiterTs, long holderTs) {
            }
        };
        return new LockWaits(timer, detector, (nanos, outcome) -> {
            assertThat(nanos).isNotNegative();
            outcomes.add(outcome);
        });
    }

    @Test
    void aReleasedLockWakesItsWaiterAndTheWaitIsObserved() throws Exception {
        LockWaits waits = waits(List.of());
        CompletableFuture<KeyError> woken = waits.waitFor(1, lock("k", 20_000), System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
        assertThat(woken).isNotDone();

        waits.released(List.of(ByteString.copyFromUtf8("k")));

        assertThat(woken.get(5, TimeUnit.SECONDS)).isNull();
        assertThat(outcomes).containsExactly(LockWaits.Outcome.RELEASED);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void theDeadlineEndsAWaitWithATimeout() throws Exception {
        LockWaits waits = waits(List.of());
        KeyError error = waits.waitFor(1, lock("k", 20_000), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50))
                .get(5, TimeUnit.SECONDS);

        assertThat(error.hasLockWaitTimeout()).isTrue();
        assertThat(outcomes).containsExactly(LockWaits.Outcome.TIMEOUT);
    }

    @Test
    void aWaitThatClosesACycleEndsAsADeadlock() throws Exception {
        LockWaits waits = waits(List.of(1L, 2L));
        KeyError error = waits.waitFor(1, lock("k", 20_000), System.nanoTime() + TimeUnit.SECONDS.toNanos(30))
                .get(5, TimeUnit.SECONDS);

        assertThat(error.hasDeadlock()).isTrue();
        assertThat(outcomes).containsExactly(LockWaits.Outcome.DEADLOCK);
    }
}
