package io.duetdb.compute.operator;

import java.util.Arrays;

/** Numbers distinct long keys in order of first appearance, in an open-addressing table of primitive arrays. */
final class LongGroupTable {
    private static final int EMPTY = -1;

    private long[] slotKeys = new long[64];
    private int[] slotGroups = newGroups(64);
    private int groupCount;

    int groupCount() {
        return groupCount;
    }

    /** Bytes the table holds. */
    long bytes() {
        return 12L * slotKeys.length;
    }

    /** The key's group, numbered anew when the key is new. */
    int groupOf(long key) {
        int mask = slotKeys.length - 1;
        for (int slot = slot(key) & mask; ; slot = (slot + 1) & mask) {
            int group = slotGroups[slot];
            if (group == EMPTY) {
                slotKeys[slot] = key;
                slotGroups[slot] = groupCount;
                if (++groupCount * 2 > slotKeys.length) {
                    rehash();
                }
                return groupCount - 1;
            }
            if (slotKeys[slot] == key) {
                return group;
            }
        }
    }

    /** The key's group, or -1 when no key so far was equal. */
    int lookup(long key) {
        int mask = slotKeys.length - 1;
        for (int slot = slot(key) & mask; ; slot = (slot + 1) & mask) {
            int group = slotGroups[slot];
            if (group == EMPTY) {
                return -1;
            }
            if (slotKeys[slot] == key) {
                return group;
            }
        }
    }

    private void rehash() {
        long[] oldKeys = slotKeys;
        int[] oldGroups = slotGroups;
        slotKeys = new long[oldKeys.length * 2];
        slotGroups = newGroups(oldKeys.length * 2);
        int mask = slotKeys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldGroups[i] != EMPTY) {
                int slot = slot(oldKeys[i]) & mask;
                while (slotGroups[slot] != EMPTY) {
                    slot = (slot + 1) & mask;
                }
                slotKeys[slot] = oldKeys[i];
                slotGroups[slot] = oldGroups[i];
            }
        }
    }

    private static int slot(long key) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32));
    }

    private static int[] newGroups(int size) {
        int[] created = new int[size];
        Arrays.fill(created, EMPTY);
        return created;
    }
}
