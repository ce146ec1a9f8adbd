package io.duetdb.compute.scan;

import io.duetdb.common.codec.PackedTime;

/**
 * Days since the epoch of packed DATE values, remembered in a direct-mapped table of primitives: a column's
 * dates repeat, and the calendar arithmetic (with its validation) then runs once per distinct date and slot.
 */
final class EpochDays {
    private static final int SLOTS = 1 << 12;
    private static final long EMPTY = -1;

    private final long[] packedDates = new long[SLOTS];
    private final int[] days = new int[SLOTS];

    EpochDays() {
        java.util.Arrays.fill(packedDates, EMPTY);
    }

    int of(long packed) {
        int slot = slot(packed);
        if (packedDates[slot] == packed && packed != EMPTY) {
            return days[slot];
        }
        int day = Math.toIntExact(PackedTime.unpackDate(packed).toEpochDay());
        packedDates[slot] = packed;
        days[slot] = day;
        return day;
    }

    private static int slot(long packed) {
        // A DATE's low 41 bits (time of day, microseconds) are zero: the day, month and year lie above them.
        long date = packed >>> 41;
        return (int) ((date ^ (date >>> 12)) & (SLOTS - 1));
    }
}
