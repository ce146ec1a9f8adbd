package io.duetdb.common.txn;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/**
 * A transaction's lock on a key (the lock column family's value): which transaction, its primary key, how long
 * the lock lives after the transaction started, and the staged value when it is short.
 */
public record Lock(LockType type, byte[] primary, long startTs, long ttlMillis, long forUpdateTs, long txnSize,
        byte[] shortValue) {
    public Lock {
        requireNonNull(type, "type is null");
        requireNonNull(primary, "primary is null");
    }

    public boolean hasShortValue() {
        return shortValue != null;
    }

    public Lock withTtl(long ttl) {
        return new Lock(type, primary, startTs, ttl, forUpdateTs, txnSize, shortValue);
    }

    public Lock withForUpdateTs(long ts) {
        return new Lock(type, primary, startTs, ttlMillis, ts, txnSize, shortValue);
    }

    public byte[] encode() {
        int size = 1 + 8 * 4 + 4 + primary.length + 1 + (shortValue == null ? 0 : 4 + shortValue.length);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.put((byte) type.code()).putLong(startTs).putLong(ttlMillis).putLong(forUpdateTs).putLong(txnSize)
                .putInt(primary.length).put(primary);
        if (shortValue == null) {
            buffer.put((byte) 0);
        } else {
            buffer.put((byte) 1).putInt(shortValue.length).put(shortValue);
        }
        return buffer.array();
    }

    public static Lock decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        LockType type = LockType.ofCode(buffer.get());
        long startTs = buffer.getLong();
        long ttl = buffer.getLong();
        long forUpdateTs = buffer.getLong();
        long txnSize = buffer.getLong();
        byte[] primary = new byte[buffer.getInt()];
        buffer.get(primary);
        byte[] shortValue = null;
        if (buffer.get() == 1) {
            shortValue = new byte[buffer.getInt()];
            buffer.get(shortValue);
        }
        return new Lock(type, primary, startTs, ttl, forUpdateTs, txnSize, shortValue);
    }
}
