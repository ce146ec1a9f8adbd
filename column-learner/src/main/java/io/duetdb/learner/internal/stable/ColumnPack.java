package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Map;

/**
 * The stable layer's unit (the TiDB paper's section 4.2.3): up to {@link #TARGET_ROWS} versions of one table's
 * rows in columns, sorted by row key and, within a key, newest commit first; one key's versions never straddle
 * two packs. Besides the table's columns it holds each version's key, commit timestamp and deletion mark.
 * Immutable, so readers use it without locks while merges build its successors.
 */
public final class ColumnPack {
    public static final int TARGET_ROWS = 8192;

    private final long id;
    private final long tableId;
    private final byte[][] keys;
    private final long[] commitTs;
    private final boolean[] deleted;
    private final Map<Integer, PackColumn> columns;
    private final boolean singleVersion;
    private final boolean anyDeleted;
    private final long maxCommitTs;

    ColumnPack(long id, long tableId, byte[][] keys, long[] commitTs, boolean[] deleted, Map<Integer, PackColumn> columns) {
        if (keys.length == 0 || keys.length != commitTs.length || keys.length != deleted.length) {
            throw new IllegalArgumentException("a pack needs as many keys, timestamps and marks, and at least one");
        }
        this.id = id;
        this.tableId = tableId;
        this.keys = keys;
        this.commitTs = commitTs;
        this.deleted = deleted;
        this.columns = Map.copyOf(requireNonNull(columns, "columns is null"));
        boolean single = true;
        boolean anyDelete = false;
        long newest = 0;
        for (int i = 0; i < keys.length; i++) {
            if (i > 0 && Arrays.equals(keys[i], keys[i - 1])) {
                single = false;
            }
            anyDelete |= deleted[i];
            newest = Math.max(newest, commitTs[i]);
        }
        this.singleVersion = single;
        this.anyDeleted = anyDelete;
        this.maxCommitTs = newest;
    }

    public long id() {
        return id;
    }

    public long tableId() {
        return tableId;
    }

    public int rows() {
        return keys.length;
    }

    public byte[] key(int row) {
        return keys[row];
    }

    public long commitTs(int row) {
        return commitTs[row];
    }

    public boolean deleted(int row) {
        return deleted[row];
    }

    /** The column with this id, or null when the pack was built before the column existed. */
    public PackColumn column(int columnId) {
        return columns.get(columnId);
    }

    public Map<Integer, PackColumn> columns() {
        return columns;
    }

    /** Whether every key appears once and none is deleted: then a read at or after {@link #maxCommitTs} sees all. */
    public boolean plain() {
        return singleVersion && !anyDeleted;
    }

    public long maxCommitTs() {
        return maxCommitTs;
    }

    /** The first row whose key is at or after {@code key}; {@link #rows()} when there is none. */
    public int lowerBound(byte[] key) {
        int low = 0;
        int high = keys.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (Arrays.compareUnsigned(keys[middle], key) < 0) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** Approximate bytes held. */
    public long bytes() {
        long total = keys.length * 16L;
        for (byte[] key : keys) {
            total += key.length;
        }
        for (PackColumn column : columns.values()) {
            total += column.bytes();
        }
        return total;
    }
}
