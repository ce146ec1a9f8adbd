package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.util.List;

/**
 * A hash join's build rows by their key when every key column holds whole numbers: the keys are kept as longs in
 * an open-addressing table, so building and probing allocate nothing per row and compare primitives. Rows with
 * equal keys chain through {@code next}, newest first.
 */
final class LongKeyIndex {
    private static final int EMPTY = -1;
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private final int width;
    /** Row i's key is keys[i * width, (i + 1) * width). */
    private final long[] keys;
    /** Per slot, the newest row of one key, or EMPTY. */
    private final int[] slots;
    private final int[] next;
    private final int mask;

    private LongKeyIndex(int width, long[] keys, boolean[] absent) {
        this.width = width;
        this.keys = keys;
        int rows = absent.length;
        int capacity = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) * 2;
        this.slots = new int[capacity];
        java.util.Arrays.fill(slots, EMPTY);
        this.mask = capacity - 1;
        this.next = new int[rows];
        for (int row = 0; row < rows; row++) {
            next[row] = EMPTY;
            if (absent[row]) {
                continue;
            }
            int slot = find(keys, row * width);
            next[row] = slots[slot];
            slots[slot] = row;
        }
    }

    /**
     * The index of {@code rows} by the keys the expressions give, or null when a key is not a whole number (or is
     * NULL in a NULL-safe key): the caller hashes those generally. Rows with a NULL key match nothing.
     */
    static LongKeyIndex of(List<Object[]> rows, List<RowExpression> keyExpressions, boolean[] nullSafe) {
        int width = keyExpressions.size();
        long[] keys = new long[rows.size() * width];
        boolean[] absent = new boolean[rows.size()];
        for (int row = 0; row < rows.size(); row++) {
            Object[] values = rows.get(row);
            for (int k = 0; k < width; k++) {
                Object value = keyExpressions.get(k).evaluate(values);
                if (value == null) {
                    if (nullSafe[k]) {
                        return null;
                    }
                    absent[row] = true;
                    break;
                }
                if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)) {
                    return null;
                }
                keys[row * width + k] = ((Number) value).longValue();
            }
        }
        return new LongKeyIndex(width, keys, absent);
    }

    /**
     * Puts the probe row's key into {@code probe}; false when it can equal no build key (NULL, or a value that is
     * not a whole number). Numbers of any type that equal a whole number qualify, as the general hash join has it.
     */
    boolean probeKey(Object[] row, List<RowExpression> keyExpressions, long[] probe) {
        for (int k = 0; k < width; k++) {
            Object value = keyExpressions.get(k).evaluate(row);
            if (value instanceof Long number) {
                probe[k] = number;
            } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
                probe[k] = ((Number) value).longValue();
            } else if (value instanceof BigDecimal decimal) {
                if (decimal.compareTo(LONG_MIN) < 0 || decimal.compareTo(LONG_MAX) > 0
                        || decimal.signum() != 0 && decimal.stripTrailingZeros().scale() > 0) {
                    return false;
                }
                probe[k] = decimal.longValue();
            } else if (value instanceof Double || value instanceof Float) {
                double number = ((Number) value).doubleValue();
                if (number != Math.rint(number) || Math.abs(number) >= 0x1p63) {
                    return false;
                }
                probe[k] = (long) number;
            } else if (value instanceof Boolean truth) {
                probe[k] = truth ? 1 : 0;
            } else {
                return false;
            }
        }
        return true;
    }

    /** The newest build row with this key, or -1. */
    int first(long[] probe) {
        int slot = find(probe, 0);
        return slots[slot];
    }

    /** The build row before {@code row} with the same key, or -1. */
    int next(int row) {
        return next[row];
    }

    /** The slot holding the key at {@code source[offset...]}, or the empty slot where it would go. */
    private int find(long[] source, int offset) {
        long hash = 1;
        for (int k = 0; k < width; k++) {
            hash = hash * 0x9E3779B97F4A7C15L + source[offset + k];
        }
        hash *= 0x9E3779B97F4A7C15L;
        int slot = (int) (hash ^ (hash >>> 29)) & mask;
        while (true) {
            int row = slots[slot];
            if (row == EMPTY || sameKey(row, source, offset)) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean sameKey(int row, long[] source, int offset) {
        int start = row * width;
        for (int k = 0; k < width; k++) {
            if (keys[start + k] != source[offset + k]) {
                return false;
            }
        }
        return true;
    }
}
