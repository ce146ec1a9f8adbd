package io.duetdb.bulk.importer;

import java.util.Arrays;
import java.util.Comparator;

/** A key and its value as the stores keep them (record or index entry), compared by key as unsigned bytes. */
record KeyValuePair(byte[] key, byte[] value) {
    static final Comparator<KeyValuePair> BY_KEY = (a, b) -> Arrays.compareUnsigned(a.key, b.key);

    /** Heap bytes the pair holds, counted against the sort's memory budget. */
    long heapBytes() {
        return key.length + value.length + 64L;
    }
}
