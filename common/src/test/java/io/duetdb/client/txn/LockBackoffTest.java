package io.duetdb.client.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LockBackoffTest {
    @Test
    void sleepsDoubleFromOneMillisecondToAHundred() {
        LockBackoff backoff = new LockBackoff();
        long[] sleeps = new long[10];
        for (int i = 0; i < sleeps.length; i++) {
            sleeps[i] = backoff.next(1_000);
        }
        assertThat(sleeps).containsExactly(1, 2, 4, 8, 16, 32, 64, 100, 100, 100);
    }

    @Test
    void neverSleepsPastTheLimitNorLessThanOneMillisecond() {
        LockBackoff backoff = new LockBackoff();
        backoff.next(1_000);
        backoff.next(1_000);
        assertThat(backoff.next(3)).isEqualTo(3);
        assertThat(backoff.next(0)).isEqualTo(1);
    }
}
