package io.duetdb.common.keys;

/**
 * Sizes a key-value request may have, shared by clients and stores. A write travels as one Raft command, and
 * Ratis cannot replicate an entry larger than its appender buffer (8 MiB here; an oversized entry wedges the
 * group), so every write must fit well inside it.
 */
public final class KvLimits {
    public static final int MAX_KEY_BYTES = 8 << 10;
    /** As TiDB's default entry size limit (txn-entry-size-limit). */
    public static final int MAX_VALUE_BYTES = 6 << 20;
    /** Keys and values of one write request together: one Raft command. */
    public static final int MAX_WRITE_BYTES = 7 << 20;

    private KvLimits() {
    }

    /** What one pair counts against {@link #MAX_WRITE_BYTES}: its bytes and a bound on its encoding overhead. */
    public static long pairBytes(int keyLength, int valueLength) {
        return keyLength + valueLength + 16L;
    }
}
