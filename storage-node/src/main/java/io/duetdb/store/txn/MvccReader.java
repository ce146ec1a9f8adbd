package io.duetdb.store.txn;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import io.duetdb.common.keys.Keys;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineReader;

/** Reads a key's lock, versions and values from the three data column families of one engine view. */
public final class MvccReader {
    /** Locks kept outside the engine: a region leader's in-memory pessimistic locks. */
    public interface MemoryLocks {
        MemoryLocks NONE = userKey -> null;

        Lock lock(byte[] userKey);
    }

    private final EngineReader engine;
    private final MemoryLocks memoryLocks;

    public MvccReader(EngineReader engine) {
        this(engine, MemoryLocks.NONE);
    }

    public MvccReader(EngineReader engine, MemoryLocks memoryLocks) {
        this.engine = requireNonNull(engine, "engine is null");
        this.memoryLocks = requireNonNull(memoryLocks, "memoryLocks is null");
    }

    /** The key's lock: the engine's, else an in-memory pessimistic lock. */
    public Lock lock(byte[] userKey) {
        byte[] bytes = engine.get(ColumnFamily.LOCK, Keys.dataKey(userKey));
        return bytes == null ? memoryLocks.lock(userKey) : Lock.decode(bytes);
    }

    /** The key's lock in the engine only. */
    public Lock engineLock(byte[] userKey) {
        byte[] bytes = engine.get(ColumnFamily.LOCK, Keys.dataKey(userKey));
        return bytes == null ? null : Lock.decode(bytes);
    }

    /** The newest write record of the key filed at or before {@code maxTs}. */
    public Optional<CommittedWrite> newestWrite(byte[] userKey, long maxTs) {
        byte[] dataKey = Keys.dataKey(userKey);
        try (EngineIterator iterator = engine.iterator(ColumnFamily.WRITE, Keys.versionKeyOf(dataKey, maxTs),
                keyEnd(dataKey))) {
            iterator.seekToFirst();
            if (!iterator.valid()) {
                return Optional.empty();
            }
            return Optional.of(new CommittedWrite(Keys.timestampOf(iterator.key()), Write.decode(iterator.value())));
        }
    }

    /** The record of the transaction started at {@code startTs} on this key, if it committed or rolled back. */
    public Optional<CommittedWrite> writeOfTransaction(byte[] userKey, long startTs) {
        byte[] dataKey = Keys.dataKey(userKey);
        // Newest first: every record at or after startTs is a candidate; the transaction's own commit is one.
        try (EngineIterator iterator = engine.iterator(ColumnFamily.WRITE, dataKey, Keys.versionKeyOf(dataKey, startTs - 1))) {
            for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                Write write = Write.decode(iterator.value());
                if (write.startTs() == startTs) {
                    return Optional.of(new CommittedWrite(Keys.timestampOf(iterator.key()), write));
                }
            }
        }
        return Optional.empty();
    }

    /** The value a snapshot at {@code ts} sees, ignoring locks; null when the key has none. */
    public byte[] valueAt(byte[] userKey, long ts) {
        byte[] dataKey = Keys.dataKey(userKey);
        try (EngineIterator iterator = engine.iterator(ColumnFamily.WRITE, Keys.versionKeyOf(dataKey, ts), keyEnd(dataKey))) {
            for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                Write write = Write.decode(iterator.value());
                switch (write.type()) {
                    case PUT -> {
                        return write.shortValue() != null ? write.shortValue() : longValue(userKey, write.startTs());
                    }
                    case DELETE -> {
                        return null;
                    }
                    default -> {
                        // LOCK and ROLLBACK records do not change the value: look further back.
                    }
                }
            }
        }
        return null;
    }

    public byte[] longValue(byte[] userKey, long startTs) {
        byte[] value = engine.get(ColumnFamily.DEFAULT, Keys.versionKey(userKey, startTs));
        if (value == null) {
            throw new IllegalStateException("value of " + Keys.describe(userKey) + " written at " + startTs + " is missing");
        }
        return value;
    }

    public EngineReader engine() {
        return engine;
    }

    /** The first engine key after every version of a data key (its last byte is a group marker below 0xFF). */
    public static byte[] keyEnd(byte[] dataKey) {
        byte[] end = dataKey.clone();
        end[end.length - 1]++;
        return end;
    }
}
