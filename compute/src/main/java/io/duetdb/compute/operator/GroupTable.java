package io.duetdb.compute.operator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;

import io.duetdb.compute.VectorValues;

/**
 * Numbers the distinct group-by keys of the rows it sees, in order of first appearance. A row's key is encoded
 * from the vectors' bytes into a reused buffer and looked up in an open-addressing table, so a row of a known
 * group costs no object; the key's Java values are made once per group. Equal values of one vector type have
 * equal bytes; two encodings of one SQL value (a NaN's payloads) only make two partial groups, which the SQL
 * layer merges.
 */
final class GroupTable {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int EMPTY = -1;

    private final List<Object[]> keyValues = new ArrayList<>();
    private final KeyEncoder encoder = new KeyEncoder();
    /** Whether each group's key values are kept as Java values (a join's build side needs only the numbers). */
    private final boolean keepValues;
    private int groupCount;
    private byte[] keyBytes = new byte[1024];
    private int keyBytesUsed;
    private int[] keyOffsets = new int[16];
    private int[] keyHashes = new int[16];
    private int[] slots = newSlots(64);

    GroupTable() {
        this(true);
    }

    GroupTable(boolean keepValues) {
        this.keepValues = keepValues;
    }

    int groupCount() {
        return groupCount;
    }

    /** The bytes of the groups' encoded keys. */
    long keyBytes() {
        return keyBytesUsed;
    }

    /** The group-by values of a group, as {@link VectorValues} Java values. */
    Object[] keyValues(int group) {
        return keyValues.get(group);
    }

    /** Writes each row's group number into {@code groups}, numbering new keys as they come. */
    void assign(List<FieldVector> keys, int rows, int[] groups) {
        for (int row = 0; row < rows; row++) {
            int length = encoder.encode(keys, row);
            groups[row] = find(keys, row, length);
        }
    }

    /** The group of the row's key, numbered anew when the key is new. */
    int groupOf(List<FieldVector> keys, int row) {
        return find(keys, row, encoder.encode(keys, row));
    }

    /** The group of the row's key, or -1 when no row seen so far had that key. */
    int lookup(List<FieldVector> keys, int row) {
        return find(keys, row, encoder.encode(keys, row), false);
    }

    private int find(List<FieldVector> keys, int row, int length) {
        return find(keys, row, length, true);
    }

    /** The group of the key encoded in the scratch buffer; a new one when {@code add}, or else -1. */
    private int find(List<FieldVector> keys, int row, int length, boolean add) {
        byte[] scratch = encoder.bytes();
        int hash = hash(scratch, length);
        int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int group = slots[slot];
            if (group == EMPTY) {
                if (!add) {
                    return -1;
                }
                group = add(keys, row, length, hash);
                slots[slot] = group;
                if (groupCount() * 2 > slots.length) {
                    rehash();
                }
                return group;
            }
            if (keyHashes[group] == hash && Arrays.equals(keyBytes, keyOffsets[group], keyOffsets[group + 1], scratch, 0,
                    length)) {
                return group;
            }
        }
    }

    private int add(List<FieldVector> keys, int row, int length, int hash) {
        byte[] scratch = encoder.bytes();
        int group = groupCount();
        if (group + 2 > keyOffsets.length) {
            keyOffsets = Arrays.copyOf(keyOffsets, keyOffsets.length * 2);
            keyHashes = Arrays.copyOf(keyHashes, keyHashes.length * 2);
        }
        if (keyBytesUsed + length > keyBytes.length) {
            keyBytes = Arrays.copyOf(keyBytes, Math.max(keyBytes.length * 2, keyBytesUsed + length));
        }
        System.arraycopy(scratch, 0, keyBytes, keyBytesUsed, length);
        keyOffsets[group] = keyBytesUsed;
        keyBytesUsed += length;
        keyOffsets[group + 1] = keyBytesUsed;
        keyHashes[group] = hash;
        if (keepValues) {
            Object[] values = new Object[keys.size()];
            for (int k = 0; k < values.length; k++) {
                values[k] = VectorValues.get(keys.get(k), row);
            }
            keyValues.add(values);
        }
        groupCount++;
        return group;
    }

    private void rehash() {
        slots = newSlots(slots.length * 2);
        int mask = slots.length - 1;
        for (int group = 0; group < groupCount(); group++) {
            int slot = keyHashes[group] & mask;
            while (slots[slot] != EMPTY) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = group;
        }
    }

    private static int[] newSlots(int size) {
        int[] created = new int[size];
        Arrays.fill(created, EMPTY);
        return created;
    }

    private static int hash(byte[] bytes, int length) {
        int hash = 1;
        int position = 0;
        for (; position + Long.BYTES <= length; position += Long.BYTES) {
            long word = (long) LONGS.get(bytes, position);
            hash = 31 * hash + (int) (word ^ (word >>> 32));
        }
        for (; position < length; position++) {
            hash = 31 * hash + bytes[position];
        }
        // Spread the high bits into the low ones the table's mask keeps.
        return hash ^ (hash >>> 16) ^ (hash >>> 7);
    }
}
