package io.duetdb.store.internal.txn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

import com.google.protobuf.ByteString;

/**
 * Serializes transactional commands on the same keys, from the leader's check until the command is applied,
 * so that what a check reads is what apply will find. Keys hash to slots; a command takes its slots in
 * ascending order (so commands never wait on each other in a cycle) and waits in a slot's queue, without a
 * thread, when another command holds it. Whoever releases a slot hands it to the next waiter.
 */
public final class Latches {
    private static final class Slot {
        boolean held;
        final ArrayDeque<Guard> waiters = new ArrayDeque<>();
    }

    /** The slots one command holds or waits for; release it exactly once after the command is done. */
    public final class Guard {
        private final int[] slots;
        private final Consumer<Guard> onAcquired;
        private int acquired;
        private boolean released;

        private Guard(int[] slots, Consumer<Guard> onAcquired) {
            this.slots = slots;
            this.onAcquired = onAcquired;
        }

        public void release() {
            List<Guard> granted = new ArrayList<>();
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
            }
            for (int i = 0; i < acquired; i++) {
                Slot slot = table[slots[i]];
                synchronized (slot) {
                    Guard next = slot.waiters.poll();
                    if (next == null) {
                        slot.held = false;
                    } else {
                        next.acquired++;
                        granted.add(next);
                    }
                }
            }
            granted.forEach(Latches.this::advance);
        }
    }

    private final Slot[] table;

    public Latches(int slots) {
        int size = Integer.highestOneBit(Math.max(16, slots - 1) << 1);
        table = new Slot[size];
        for (int i = 0; i < size; i++) {
            table[i] = new Slot();
        }
    }

    /** Runs {@code onAcquired} (on this thread or a releasing one) once every key's slot is held. */
    public Guard acquire(Collection<ByteString> keys, Consumer<Guard> onAcquired) {
        int[] slots = keys.stream().mapToInt(key -> (key.hashCode() * 0x9E3779B9 >>> 7) & (table.length - 1))
                .distinct().toArray();
        Arrays.sort(slots);
        Guard guard = new Guard(slots, onAcquired);
        advance(guard);
        return guard;
    }

    private void advance(Guard guard) {
        while (guard.acquired < guard.slots.length) {
            Slot slot = table[guard.slots[guard.acquired]];
            synchronized (slot) {
                if (slot.held) {
                    slot.waiters.add(guard);
                    return;
                }
                slot.held = true;
                guard.acquired++;
            }
        }
        guard.onAcquired.accept(guard);
    }
}
