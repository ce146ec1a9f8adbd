package io.duetdb.common.keys;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.HexFormat;

import io.duetdb.common.codec.KeyWriter;

/**
 * What names a row inside its table (TiDB's kv.Handle): an integer handle (the clustered integer primary key, or a
 * hidden row id) or a common handle, the memcomparable datums of a clustered primary key of other columns. The
 * record key is {@code t{tableId}_r} followed by {@link #encoded()}: eight bytes for an integer handle, one flagged
 * datum per key column for a common handle; a table has one kind or the other, and byte order is key order.
 */
public final class Handle implements Comparable<Handle> {
    private static final int INT_HANDLE_BYTES = Long.BYTES;

    private final long value;
    private final byte[] common;

    private Handle(long value, byte[] common) {
        this.value = value;
        this.common = common;
    }

    public static Handle of(long value) {
        return new Handle(value, null);
    }

    /** A common handle from its encoded datums; the array is owned by the handle from here on. */
    public static Handle common(byte[] encoded) {
        requireNonNull(encoded, "encoded is null");
        if (encoded.length == 0) {
            throw new IllegalArgumentException("a common handle has at least one datum");
        }
        return new Handle(0, encoded);
    }

    public boolean isInt() {
        return common == null;
    }

    /** The integer handle; fails for a common handle. */
    public long intValue() {
        if (common != null) {
            throw new IllegalStateException("a common handle has no integer value: " + this);
        }
        return value;
    }

    /** The bytes a record key ends with; callers must not change them. */
    public byte[] encoded() {
        return common != null ? common : new KeyWriter(INT_HANDLE_BYTES).writeInt64(value).toByteArray();
    }

    @Override
    public int compareTo(Handle other) {
        if (common == null && other.common == null) {
            return Long.compare(value, other.value);
        }
        return Arrays.compareUnsigned(encoded(), other.encoded());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Handle handle && value == handle.value && Arrays.equals(common, handle.common);
    }

    @Override
    public int hashCode() {
        return common == null ? Long.hashCode(value) : Arrays.hashCode(common);
    }

    @Override
    public String toString() {
        return common == null ? Long.toString(value) : "0x" + HexFormat.of().withUpperCase().formatHex(common);
    }
}
