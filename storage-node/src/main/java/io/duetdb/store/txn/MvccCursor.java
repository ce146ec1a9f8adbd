package io.duetdb.store.txn;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.keys.Keys;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineReader;

/**
 * Walks the values a snapshot at {@code ts} sees in a key range with one iterator over the write column family,
 * in key order, ignoring locks (the caller checks them first). Versions newer than the snapshot, LOCK and
 * ROLLBACK records are stepped over; a DELETE hides its key.
 */
public final class MvccCursor implements AutoCloseable {
    private final MvccReader reader;
    private final EngineIterator writes;
    private final long ts;
    private byte[] userKey;
    private byte[] value;

    public MvccCursor(EngineReader engine, byte[] startUserKey, byte[] endUserKey, long ts) {
        requireNonNull(engine, "engine is null");
        this.reader = new MvccReader(engine);
        this.writes = engine.iterator(ColumnFamily.WRITE, Keys.dataKey(startUserKey), Keys.dataEndKey(endUserKey));
        this.ts = ts;
        writes.seekToFirst();
    }

    /** Moves to the next visible key; false at the end of the range. */
    public boolean advance() {
        while (writes.valid()) {
            byte[] versionKey = writes.key();
            byte[] dataKey = Keys.dataKeyOfVersion(versionKey);
            if (Keys.timestampOf(versionKey) > ts) {
                writes.next();
                continue;
            }
            Write write = Write.decode(writes.value());
            switch (write.type()) {
                case PUT -> {
                    userKey = Keys.userKeyOf(dataKey);
                    value = write.shortValue() != null ? write.shortValue() : reader.longValue(userKey, write.startTs());
                    writes.seek(MvccReader.keyEnd(dataKey));
                    return true;
                }
                case DELETE -> writes.seek(MvccReader.keyEnd(dataKey));
                default -> writes.next();
            }
        }
        userKey = null;
        value = null;
        return false;
    }

    public byte[] userKey() {
        return userKey;
    }

    public byte[] value() {
        return value;
    }

    @Override
    public void close() {
        writes.close();
    }
}
