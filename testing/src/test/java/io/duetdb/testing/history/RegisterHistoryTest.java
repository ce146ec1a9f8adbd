package io.duetdb.testing.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.duetdb.testing.history.RegisterHistory.Kind;
import io.duetdb.testing.history.RegisterHistory.Operation;

class RegisterHistoryTest {
    private static Operation write(int client, String value, long start, long end) {
        return new Operation(client, Kind.WRITE, value, start, end, true);
    }

    private static Operation read(int client, String value, long start, long end) {
        return new Operation(client, Kind.READ, value, start, end, true);
    }

    @Test
    void acceptsOverlappingOperationsInSomeValidOrder() {
        RegisterHistory history = new RegisterHistory();
        history.add(write(1, "a", 0, 10));
        history.add(write(2, "b", 5, 15));
        history.add(read(3, "a", 12, 20));
        history.add(read(3, "b", 21, 30));
        assertThat(history.isLinearizable(null)).as("b may take effect after the first read").isTrue();

        RegisterHistory stale = new RegisterHistory();
        stale.add(write(1, "a", 0, 10));
        stale.add(write(2, "b", 5, 15));
        stale.add(read(3, "a", 16, 20));
        stale.add(read(3, "b", 21, 30));
        assertThat(stale.isLinearizable(null)).as("both writes done before the reads: a then b is impossible").isFalse();

        RegisterHistory ok = new RegisterHistory();
        ok.add(write(1, "a", 0, 10));
        ok.add(write(2, "b", 5, 15));
        ok.add(read(3, "b", 12, 20));
        ok.add(read(3, "b", 21, 30));
        assertThat(ok.isLinearizable(null)).isTrue();
    }

    @Test
    void rejectsStaleReadsAfterACompletedWrite() {
        RegisterHistory history = new RegisterHistory();
        history.add(write(1, "a", 0, 10));
        history.add(write(1, "b", 11, 20));
        history.add(read(2, "a", 25, 30));
        assertThat(history.isLinearizable(null)).isFalse();
    }

    @Test
    void unknownWritesMayOrMayNotHaveHappened() {
        RegisterHistory took = new RegisterHistory();
        took.add(write(1, "a", 0, 10));
        took.add(new Operation(2, Kind.WRITE, "b", 12, Long.MAX_VALUE, false));
        took.add(read(3, "b", 100, 110));
        assertThat(took.isLinearizable(null)).isTrue();

        RegisterHistory didNot = new RegisterHistory();
        didNot.add(write(1, "a", 0, 10));
        didNot.add(new Operation(2, Kind.WRITE, "b", 12, Long.MAX_VALUE, false));
        didNot.add(read(3, "a", 100, 110));
        assertThat(didNot.isLinearizable(null)).isTrue();

        RegisterHistory notBefore = new RegisterHistory();
        notBefore.add(new Operation(2, Kind.WRITE, "b", 50, Long.MAX_VALUE, false));
        notBefore.add(read(3, "b", 0, 10));
        assertThat(notBefore.isLinearizable(null)).isFalse();
    }

    @Test
    void readsOfTheInitialValue() {
        RegisterHistory history = new RegisterHistory();
        history.add(read(1, null, 0, 5));
        history.add(write(2, "x", 6, 8));
        history.add(read(1, "x", 9, 12));
        assertThat(history.isLinearizable(null)).isTrue();
    }
}
