package io.duetdb.common.keys;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Half-open key ranges [start, end) compared as unsigned bytes, where an empty end means the end of the
 * key space (and an empty start its beginning), as regions use them.
 */
public final class KeyRanges {
    public static final Comparator<byte[]> KEY_ORDER = Arrays::compareUnsigned;

    private KeyRanges() {
    }

    public static int compare(byte[] left, byte[] right) {
        return Arrays.compareUnsigned(left, right);
    }

    /** Compares two range ends, where empty means infinity. */
    public static int compareEnds(byte[] left, byte[] right) {
        if (left.length == 0) {
            return right.length == 0 ? 0 : 1;
        }
        if (right.length == 0) {
            return -1;
        }
        return compare(left, right);
    }

    public static boolean contains(byte[] start, byte[] end, byte[] key) {
        return compare(key, start) >= 0 && (end.length == 0 || compare(key, end) < 0);
    }

    public static boolean overlaps(byte[] start1, byte[] end1, byte[] start2, byte[] end2) {
        boolean firstEndsAfterSecondStarts = end1.length == 0 || compare(end1, start2) > 0;
        boolean secondEndsAfterFirstStarts = end2.length == 0 || compare(end2, start1) > 0;
        return firstEndsAfterSecondStarts && secondEndsAfterFirstStarts;
    }

    /** Whether [start, end) is a valid range: start before end, or end empty. */
    public static boolean isValid(byte[] start, byte[] end) {
        return end.length == 0 || compare(start, end) < 0;
    }
}
