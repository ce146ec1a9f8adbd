package io.duetdb.common.time;

import java.time.Instant;

/**
 * A hybrid timestamp from the placement driver's oracle: physical milliseconds since the epoch and a
 * logical counter within the millisecond, packed into one long as {@code physical << 18 | logical}, so that
 * the numeric order of packed values is the order of timestamps.
 */
public record Timestamp(long physical, long logical) implements Comparable<Timestamp> {
    public static final int LOGICAL_BITS = 18;
    public static final long MAX_LOGICAL = (1L << LOGICAL_BITS) - 1;
    public static final long MAX_PHYSICAL = (1L << (63 - LOGICAL_BITS)) - 1;
    public static final Timestamp ZERO = new Timestamp(0, 0);

    public Timestamp {
        if (physical < 0 || physical > MAX_PHYSICAL) {
            throw new IllegalArgumentException("physical part out of range: " + physical);
        }
        if (logical < 0 || logical > MAX_LOGICAL) {
            throw new IllegalArgumentException("logical part out of range: " + logical);
        }
    }

    public static Timestamp fromPacked(long packed) {
        if (packed < 0) {
            throw new IllegalArgumentException("packed timestamp is negative: " + packed);
        }
        return new Timestamp(packed >>> LOGICAL_BITS, packed & MAX_LOGICAL);
    }

    public long packed() {
        return physical << LOGICAL_BITS | logical;
    }

    public Instant physicalInstant() {
        return Instant.ofEpochMilli(physical);
    }

    @Override
    public int compareTo(Timestamp other) {
        return Long.compare(packed(), other.packed());
    }

    @Override
    public String toString() {
        return packed() + " (" + physicalInstant() + " +" + logical + ")";
    }
}
