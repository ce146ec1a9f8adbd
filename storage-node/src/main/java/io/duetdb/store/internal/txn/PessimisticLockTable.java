package io.duetdb.store.internal.txn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

import com.google.protobuf.ByteString;

import io.duetdb.common.txn.Lock;
import io.duetdb.store.txn.MvccReader;

/**
 * A region leader's pessimistic locks kept in memory instead of the Raft log (TiKV 6.0's in-memory pessimistic
 * locks): taking one costs no replication. The table belongs to one leadership: a new term or a new region
 * version (split, merge) empties it. A lost lock is safe: the transaction's prewrite of that key then fails
 * (pessimistic lock not found), and a check of its primary finds no lock and rolls the transaction back;
 * keys change only under their latches, which the service holds while it reads or changes this table.
 */
public final class PessimisticLockTable implements MvccReader.MemoryLocks {
    /** Beyond this many locks a region's new pessimistic locks go through the log as before. */
    public static final int MAX_LOCKS = 20_000;

    private final Map<ByteString, Lock> locks = new HashMap<>();
    private long term = -1;
    private long regionVersion = -1;
    private boolean accepting = true;

    /**
     * Makes the table belong to this term and region version; answers the keys of the locks it had to drop
     * (their waiters must retry), empty when it already belonged to them.
     */
    public synchronized List<ByteString> belongTo(long currentTerm, long currentRegionVersion) {
        if (currentTerm == term && currentRegionVersion == regionVersion) {
            return List.of();
        }
        term = currentTerm;
        regionVersion = currentRegionVersion;
        accepting = true;
        List<ByteString> dropped = new ArrayList<>(locks.keySet());
        locks.clear();
        return dropped;
    }

    /** Empties the table (the replica stopped leading or is going away); answers the dropped keys. */
    public synchronized List<ByteString> clear() {
        term = -1;
        regionVersion = -1;
        List<ByteString> dropped = new ArrayList<>(locks.keySet());
        locks.clear();
        return dropped;
    }

    @Override
    public synchronized Lock lock(byte[] userKey) {
        return locks.isEmpty() ? null : locks.get(ByteString.copyFrom(userKey));
    }

    public synchronized Lock lock(ByteString userKey) {
        return locks.get(userKey);
    }

    /** While a leader hands over, new locks go through the log. */
    public synchronized void setAccepting(boolean accepting) {
        this.accepting = accepting;
    }

    /** False while a leader hands over (a planned transfer or a split is being prepared). */
    public synchronized boolean isAccepting() {
        return accepting;
    }

    /** Puts all the locks, or none when the table would grow past its limit or is handing over. */
    public synchronized boolean putAll(Map<ByteString, Lock> added) {
        if (!accepting || locks.size() + added.size() > MAX_LOCKS) {
            return false;
        }
        locks.putAll(added);
        return true;
    }

    public synchronized void put(ByteString key, Lock lock) {
        locks.put(key, lock);
    }

    /** Removes the key's lock if the transaction started at {@code startTs} holds it; answers whether it did. */
    public synchronized boolean remove(ByteString key, long startTs) {
        Lock lock = locks.get(key);
        if (lock != null && lock.startTs() == startTs) {
            locks.remove(key);
            return true;
        }
        return false;
    }

    /** The locks whose key and lock satisfy the filter, at most {@code limit}. */
    public synchronized Map<ByteString, Lock> matching(BiPredicate<ByteString, Lock> filter, int limit) {
        Map<ByteString, Lock> found = new HashMap<>();
        for (Map.Entry<ByteString, Lock> entry : locks.entrySet()) {
            if (found.size() >= limit) {
                break;
            }
            if (filter.test(entry.getKey(), entry.getValue())) {
                found.put(entry.getKey(), entry.getValue());
            }
        }
        return found;
    }

    public synchronized int size() {
        return locks.size();
    }
}
