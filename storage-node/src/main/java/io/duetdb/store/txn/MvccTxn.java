package io.duetdb.store.txn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.txn.Lock;
import io.duetdb.common.txn.Write;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineWriteBatch;

/** The engine changes that transactional actions decide on, written together in one batch. */
public final class MvccTxn {
    private record Change(ColumnFamily cf, byte[] key, byte[] value, boolean sorted) {
        Change(ColumnFamily cf, byte[] key, byte[] value) {
            this(cf, key, value, false);
        }
    }

    private final List<Change> changes = new ArrayList<>();

    void putLock(byte[] userKey, Lock lock) {
        changes.add(new Change(ColumnFamily.LOCK, Keys.dataKey(userKey), lock.encode()));
    }

    void unlock(byte[] userKey) {
        changes.add(new Change(ColumnFamily.LOCK, Keys.dataKey(userKey), null));
    }

    void putValue(byte[] userKey, long startTs, byte[] value) {
        changes.add(new Change(ColumnFamily.DEFAULT, Keys.versionKey(userKey, startTs), value));
    }

    void deleteValue(byte[] userKey, long startTs) {
        changes.add(new Change(ColumnFamily.DEFAULT, Keys.versionKey(userKey, startTs), null));
    }

    void putWrite(byte[] userKey, long commitTs, Write write) {
        changes.add(new Change(ColumnFamily.WRITE, Keys.versionKey(userKey, commitTs), write.encode()));
    }

    /** A committed version written in bulk, in key order (an import): the engine may ingest it as a sorted file. */
    void putImportedVersion(byte[] userKey, long commitTs, Write write, byte[] longValue) {
        byte[] key = Keys.versionKey(userKey, commitTs);
        if (longValue != null) {
            changes.add(new Change(ColumnFamily.DEFAULT, key, longValue, true));
        }
        changes.add(new Change(ColumnFamily.WRITE, key, write.encode(), true));
    }

    void deleteWrite(byte[] userKey, long commitTs) {
        changes.add(new Change(ColumnFamily.WRITE, Keys.versionKey(userKey, commitTs), null));
    }

    /** The locks put, by user key, in the order put (what an in-memory lock table keeps instead of the engine). */
    public Map<ByteString, Lock> putLocks() {
        Map<ByteString, Lock> locks = new LinkedHashMap<>();
        for (Change change : changes) {
            if (change.cf() == ColumnFamily.LOCK && change.value() != null) {
                locks.put(ByteString.copyFrom(Keys.userKeyOf(change.key())), Lock.decode(change.value()));
            }
        }
        return locks;
    }

    /** Whether every change is a lock put. */
    public boolean onlyPutsLocks() {
        return changes.stream().allMatch(change -> change.cf() == ColumnFamily.LOCK && change.value() != null);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public int size() {
        return changes.size();
    }

    public void writeTo(EngineWriteBatch batch) {
        for (Change change : changes) {
            if (change.value() == null) {
                batch.delete(change.cf(), change.key());
            } else if (change.sorted()) {
                batch.putSorted(change.cf(), change.key(), change.value());
            } else {
                batch.put(change.cf(), change.key(), change.value());
            }
        }
    }
}
