package io.duetdb.store.txn;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.txn.Lock;
import io.duetdb.common.txn.Write;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineReader;

/**
 * Reads a key's lock, versions and values from the three data column families of one engine view. Point reads of
 * versions share one cursor over the write column family, opened at the first of them (opening a RocksDB iterator
 * costs several times its seek), so a reader belongs to one thread and one step, and is closed after it; the cursor
 * sees the view as it was when it opened, which callers guarantee by holding the keys' latches (or reading a
 * snapshot). A closed reader still answers, opening a cursor per read.
 */
public final class MvccReader implements AutoCloseable {
    /** Locks kept outside the engine: a region leader's in-memory pessimistic locks. */
    public interface MemoryLocks {
        MemoryLocks NONE = userKey -> null;

        Lock lock(byte[] userKey);
    }

    private static final int TIMESTAMP_BYTES = 8;

    private final EngineReader engine;
    private final MemoryLocks memoryLocks;
    private EngineIterator versions;
    private EngineIterator filteredVersions;
    private boolean closed;

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
        try (Versions iterator = versionsFrom(dataKey, Keys.versionKeyOf(dataKey, maxTs))) {
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
        try (Versions iterator = versionsFrom(dataKey, dataKey)) {
            for (; iterator.valid() && Keys.timestampOf(iterator.key()) >= startTs; iterator.next()) {
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
        try (Versions iterator = versionsFrom(dataKey, Keys.versionKeyOf(dataKey, ts))) {
            for (; iterator.valid(); iterator.next()) {
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

    /**
     * The value a snapshot after every write sees, given the key's {@link #newestWrite} up to the maximum timestamp:
     * read from that record when it sets or deletes the value, without a second seek.
     */
    public byte[] latestValue(byte[] userKey, Optional<CommittedWrite> newest) {
        if (newest.isEmpty()) {
            return null;
        }
        Write write = newest.get().write();
        return switch (write.type()) {
            case PUT -> write.shortValue() != null ? write.shortValue() : longValue(userKey, write.startTs());
            case DELETE -> null;
            default -> valueAt(userKey, newest.get().commitTs() - 1);
        };
    }

    /** The versions of {@code dataKey} from the engine key {@code from} on, newest first. */
    private Versions versionsFrom(byte[] dataKey, byte[] from) {
        boolean filtered = from.length >= Keys.VERSION_FILTER_PREFIX_BYTES;
        if (closed) {
            EngineIterator own = filtered ? engine.versionIterator(ColumnFamily.WRITE)
                    : engine.iterator(ColumnFamily.WRITE, from, keyEnd(dataKey));
            own.seek(from);
            return new Versions(own, dataKey, true);
        }
        EngineIterator shared;
        if (filtered) {
            if (filteredVersions == null) {
                filteredVersions = engine.versionIterator(ColumnFamily.WRITE);
            }
            shared = filteredVersions;
        } else {
            if (versions == null) {
                versions = engine.iterator(ColumnFamily.WRITE, null, null);
            }
            shared = versions;
        }
        shared.seek(from);
        return new Versions(shared, dataKey, false);
    }

    /** A walk over one key's versions on a shared or an own iterator. */
    private static final class Versions implements AutoCloseable {
        private final EngineIterator iterator;
        private final byte[] dataKey;
        private final boolean owned;

        Versions(EngineIterator iterator, byte[] dataKey, boolean owned) {
            this.iterator = iterator;
            this.dataKey = dataKey;
            this.owned = owned;
        }

        boolean valid() {
            return iterator.valid() && isVersionOf(iterator.key(), dataKey);
        }

        byte[] key() {
            return iterator.key();
        }

        byte[] value() {
            return iterator.value();
        }

        void next() {
            iterator.next();
        }

        @Override
        public void close() {
            if (owned) {
                iterator.close();
            }
        }
    }

    /**
     * Whether an engine key is a version of {@code dataKey}: data keys are groups of nine bytes after one prefix
     * byte, so no other data key is a data key plus eight bytes.
     */
    static boolean isVersionOf(byte[] versionKey, byte[] dataKey) {
        return versionKey.length == dataKey.length + TIMESTAMP_BYTES
                && Arrays.equals(versionKey, 0, dataKey.length, dataKey, 0, dataKey.length);
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

    @Override
    public void close() {
        closed = true;
        if (versions != null) {
            versions.close();
            versions = null;
        }
        if (filteredVersions != null) {
            filteredVersions.close();
            filteredVersions = null;
        }
    }

    /** The first engine key after every version of a data key (its last byte is a group marker below 0xFF). */
    public static byte[] keyEnd(byte[] dataKey) {
        byte[] end = dataKey.clone();
        end[end.length - 1]++;
        return end;
    }
}
