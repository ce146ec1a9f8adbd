package io.duetdb.placement.internal.tso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.duetdb.common.time.Timestamp;

class TimestampOracleTest {
    private final AtomicLong wallClock = new AtomicLong(10_000);
    private final AtomicLong monotonic = new AtomicLong(1_000_000_000L);
    private final TimestampOracle oracle = new TimestampOracle(wallClock::get, monotonic::get, 3_000);

    private long servingGeneration() {
        long generation = oracle.beginTerm();
        oracle.start(generation, 10_000, 13_000);
        oracle.renewLease(generation, monotonic.get() + 900_000_000L);
        return generation;
    }

    private long next(int count) throws Exception {
        TimestampOracle.Batch batch = oracle.allocate(count, 0);
        return new Timestamp(batch.physical(), batch.lastLogical()).packed();
    }

    @Test
    void strictlyIncreasingAcrossClockStandstillBackwardsAndLogicalOverflow() throws Exception {
        servingGeneration();
        long previous = next(1);
        for (int i = 0; i < 5; i++) {
            long current = next(100_000);
            assertThat(current).isGreaterThan(previous);
            previous = current;
        }
        wallClock.set(9_000); // the clock jumps backwards
        long afterJump = next(1);
        assertThat(afterJump).isGreaterThan(previous);
        wallClock.set(11_000);
        assertThat(Timestamp.fromPacked(next(1)).physical()).isEqualTo(11_000);
    }

    @Test
    void neverServesAtOrBeyondTheCommittedLimit() throws Exception {
        long generation = servingGeneration();
        wallClock.set(12_999);
        next(1);
        wallClock.set(13_000);
        assertThatThrownBy(() -> next(1)).isInstanceOf(TimestampOracle.UnavailableException.class)
                .hasMessageContaining("window exhausted");
        oracle.extend(generation, 16_000);
        assertThat(Timestamp.fromPacked(next(1)).physical()).isEqualTo(13_000);
        assertThat(oracle.needsExtension()).isFalse();
        wallClock.set(15_000);
        assertThat(oracle.needsExtension()).isTrue();
    }

    @Test
    void stopsServingWhenTheLeaseLapsesOrLeadershipEnds() throws Exception {
        long generation = servingGeneration();
        next(1);
        monotonic.addAndGet(900_000_000L);
        assertThatThrownBy(() -> next(1)).hasMessageContaining("lease expired");
        oracle.renewLease(generation, monotonic.get() + 900_000_000L);
        next(1);
        oracle.resign();
        assertThatThrownBy(() -> next(1)).isInstanceOf(TimestampOracle.UnavailableException.class)
                .satisfies(e -> assertThat(((TimestampOracle.UnavailableException) e).notLeader()).isTrue());
        // Replies for an old generation cannot restart or extend a newer term.
        long newer = oracle.beginTerm();
        assertThat(oracle.start(generation, 20_000, 23_000)).isFalse();
        assertThat(oracle.start(newer, 20_000, 23_000)).isTrue();
    }

    @Test
    void rejectsBatchesLargerThanAMillisecondHolds() {
        servingGeneration();
        assertThatThrownBy(() -> oracle.allocate((int) Timestamp.MAX_LOGICAL + 2, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
