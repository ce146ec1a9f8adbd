package io.duetdb.store.txn;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.txn.Write;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineReader;

/**
 * Walks the values a snapshot at {@code ts} sees in a key range with one iterator over the write column family,
 * in key order, ignoring locks (the caller checks them first). Versions newer than the snapshot, LOCK and
 * ROLLBACK records are stepped over; a DELETE hides its key.
 */
public final class MvccCursor implements AutoCloseable {
    /**
     * Older versions of a key are passed by stepping this many times before seeking past them: most keys have
     * one or two versions, and a step costs much less than a seek.
     */
    private static final int STEPS_BEFORE_SEEK = 3;

    private final MvccReader reader;
    private final EngineIterator writes;
    private final long ts;
    private byte[] dataKey;
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
        int newerSteps = 0;
        while (writes.valid()) {
            byte[] versionKey = writes.key();
            if (Keys.timestampOf(versionKey) > ts) {
                // A hot key can hold many versions newer than the snapshot: past a few, seek to the snapshot's.
                if (++newerSteps > STEPS_BEFORE_SEEK) {
                    writes.seek(Keys.versionKeyOf(Keys.dataKeyOfVersion(versionKey), ts));
                    newerSteps = 0;
                } else {
                    writes.next();
                }
                continue;
            }
            newerSteps = 0;
            Write write = Write.decode(writes.value());
            switch (write.type()) {
                case PUT -> {
                    byte[] found = Keys.dataKeyOfVersion(versionKey);
                    dataKey = found;
                    userKey = null;
                    value = write.shortValue() != null ? write.shortValue() : reader.longValue(userKey(), write.startTs());
                    skipOlderVersions(found);
                    return true;
                }
                case DELETE -> skipOlderVersions(Keys.dataKeyOfVersion(versionKey));
                default -> writes.next();
            }
        }
        dataKey = null;
        userKey = null;
        value = null;
        return false;
    }

    /** Leaves the iterator on the first record of the key after {@code current} (or at the end). */
    private void skipOlderVersions(byte[] current) {
        for (int step = 0; step < STEPS_BEFORE_SEEK; step++) {
            writes.next();
            if (!writes.valid() || !isVersionOf(writes.key(), current)) {
                return;
            }
        }
        writes.seek(MvccReader.keyEnd(current));
    }

    private static boolean isVersionOf(byte[] versionKey, byte[] dataKey) {
        return MvccReader.isVersionOf(versionKey, dataKey);
    }

    /** The engine data key of the current entry (no timestamp). */
    public byte[] dataKey() {
        return dataKey;
    }

    public byte[] userKey() {
        if (userKey == null && dataKey != null) {
            userKey = Keys.userKeyOf(dataKey);
        }
        return userKey;
    }

    public byte[] value() {
        return value;
    }

    @Override
    public void close() {
        writes.close();
        reader.close();
    }
}
