package io.duetdb.learner.internal.read;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;

import io.duetdb.common.keys.Keys;

/**
 * Walks the row keys of up to two deltas' versions in key order (the frozen delta and the active one), deciding
 * for each key its newest version at or below the read timestamp, if any. A version in both deltas counts once.
 */
final class DeltaCursor {
    private final PeekingIterator first;
    private final PeekingIterator second;
    private final long readTs;
    private byte[] key;
    private long visibleTs;
    private byte[] visible;

    DeltaCursor(NavigableMap<byte[], byte[]> first, NavigableMap<byte[], byte[]> second, long readTs) {
        this.first = new PeekingIterator(first);
        this.second = new PeekingIterator(second);
        this.readTs = readTs;
        advance();
    }

    boolean valid() {
        return key != null;
    }

    /** The current row key (a user key). */
    byte[] key() {
        return key;
    }

    /** Whether the key has a version at or below the read timestamp in the deltas. */
    boolean hasVisible() {
        return visible != null;
    }

    long visibleTs() {
        return visibleTs;
    }

    /** The stored form (see RegionDelta) of the visible version. */
    byte[] visible() {
        return visible;
    }

    void advance() {
        Map.Entry<byte[], byte[]> head = smaller(first.peek(), second.peek());
        if (head == null) {
            key = null;
            return;
        }
        byte[] dataKey = Keys.dataKeyOfVersion(head.getKey());
        key = Keys.userKeyOf(dataKey);
        visible = null;
        visibleTs = 0;
        while (true) {
            Map.Entry<byte[], byte[]> next = smaller(first.peek(), second.peek());
            if (next == null || !sameKey(next.getKey(), dataKey)) {
                return;
            }
            if (first.peek() != null && Arrays.equals(first.peek().getKey(), next.getKey())) {
                first.next();
            }
            if (second.peek() != null && Arrays.equals(second.peek().getKey(), next.getKey())) {
                second.next();
            }
            long timestamp = Keys.timestampOf(next.getKey());
            if (visible == null && timestamp <= readTs) {
                visible = next.getValue();
                visibleTs = timestamp;
            }
        }
    }

    private static boolean sameKey(byte[] versionKey, byte[] dataKey) {
        return versionKey.length == dataKey.length + 8 && Arrays.equals(versionKey, 0, dataKey.length, dataKey, 0,
                dataKey.length);
    }

    private static Map.Entry<byte[], byte[]> smaller(Map.Entry<byte[], byte[]> a, Map.Entry<byte[], byte[]> b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return Arrays.compareUnsigned(a.getKey(), b.getKey()) <= 0 ? a : b;
    }

    private static final class PeekingIterator {
        private final Iterator<Map.Entry<byte[], byte[]>> entries;
        private Map.Entry<byte[], byte[]> head;

        PeekingIterator(NavigableMap<byte[], byte[]> map) {
            this.entries = map == null ? null : map.entrySet().iterator();
            next();
        }

        Map.Entry<byte[], byte[]> peek() {
            return head;
        }

        void next() {
            head = entries != null && entries.hasNext() ? entries.next() : null;
        }
    }
}
