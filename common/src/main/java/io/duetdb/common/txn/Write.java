package io.duetdb.common.txn;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/** A commit or rollback record (the write column family's value, keyed by key and commit timestamp). */
public record Write(WriteType type, long startTs, byte[] shortValue) {
    /** Values up to this size live inside the write record; longer ones in the default column family. */
    public static final int SHORT_VALUE_MAX_BYTES = 255;

    public Write {
        requireNonNull(type, "type is null");
    }

    public static Write rollback(long startTs) {
        return new Write(WriteType.ROLLBACK, startTs, null);
    }

    public byte[] encode() {
        ByteBuffer buffer = ByteBuffer.allocate(1 + 8 + 1 + (shortValue == null ? 0 : 4 + shortValue.length));
        buffer.put((byte) type.code()).putLong(startTs);
        if (shortValue == null) {
            buffer.put((byte) 0);
        } else {
            buffer.put((byte) 1).putInt(shortValue.length).put(shortValue);
        }
        return buffer.array();
    }

    public static Write decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        WriteType type = WriteType.ofCode(buffer.get());
        long startTs = buffer.getLong();
        byte[] shortValue = null;
        if (buffer.get() == 1) {
            shortValue = new byte[buffer.getInt()];
            buffer.get(shortValue);
        }
        return new Write(type, startTs, shortValue);
    }
}
