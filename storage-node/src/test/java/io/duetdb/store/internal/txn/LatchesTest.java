package io.duetdb.store.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

class LatchesTest {
    private static List<ByteString> keys(String prefix, int count) {
        List<ByteString> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            keys.add(ByteString.copyFromUtf8(prefix + i));
        }
        return keys;
    }

    @Test
    void aCommandOnHeldKeysWaitsUntilTheHolderReleasesThem() {
        Latches latches = new Latches(1024);
        AtomicInteger acquired = new AtomicInteger();
        Latches.Guard first = latches.acquire(keys("k", 3), guard -> acquired.incrementAndGet());
        Latches.Guard second = latches.acquire(keys("k", 2), guard -> acquired.incrementAndGet());
        assertThat(acquired).hasValue(1);
        first.release();
        assertThat(acquired).hasValue(2);
        second.release();
        second.release();
        Latches.Guard third = latches.acquire(keys("k", 1), guard -> acquired.incrementAndGet());
        assertThat(acquired).as("a second release changes nothing").hasValue(3);
        third.release();
    }

    @Test
    void commandsOnDifferentSlotsRunTogether() {
        Latches latches = new Latches(1 << 16);
        AtomicInteger acquired = new AtomicInteger();
        Latches.Guard first = latches.acquire(List.of(ByteString.copyFromUtf8("a")), guard -> acquired.incrementAndGet());
        Latches.Guard second = latches.acquire(List.of(ByteString.copyFromUtf8("b")), guard -> acquired.incrementAndGet());
        assertThat(acquired).hasValue(2);
        first.release();
        second.release();
    }
}
