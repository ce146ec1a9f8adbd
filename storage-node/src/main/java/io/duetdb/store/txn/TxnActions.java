package io.duetdb.store.txn;

import java.util.Arrays;
import java.util.Optional;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.time.Timestamp;
import io.duetdb.common.txn.Lock;
import io.duetdb.common.txn.LockType;
import io.duetdb.common.txn.Write;
import io.duetdb.common.txn.WriteType;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;

/**
 * Percolator's actions on one key, as pure functions: each reads through an {@link MvccReader} and either
 * records the engine changes it decides on in an {@link MvccTxn} and returns null, or returns why it cannot,
 * changing nothing. The region leader runs them against a snapshot to answer early; every replica runs them
 * again when it applies the command from the log, so the outcome follows from the log alone.
 */
public final class TxnActions {
    private TxnActions() {
    }

    /**
     * Parameters of one transaction's prewrite, shared by its keys. A non-zero {@code onePcCommitTs} commits
     * the mutations at that timestamp instead of locking them (one-phase commit).
     */
    public record PrewriteContext(byte[] primary, long startTs, long lockTtl, long forUpdateTs, long txnSize,
            long onePcCommitTs) {
        public PrewriteContext(byte[] primary, long startTs, long lockTtl, long forUpdateTs, long txnSize) {
            this(primary, startTs, lockTtl, forUpdateTs, txnSize, 0);
        }
    }

    public static KeyError prewrite(MvccReader reader, MvccTxn txn, PrewriteContext context, Mutation mutation,
            boolean pessimisticLocked) {
        return prewrite(reader, txn, context, mutation, pessimisticLocked, false);
    }

    /**
     * {@code lockedInLeaderMemory}: the leader found this transaction's pessimistic lock in its in-memory table
     * when it proposed the prewrite, under the key's latch; replicas never had that lock, and the key can have
     * changed only through log entries after this one, so a missing lock is not an error here.
     */
    public static KeyError prewrite(MvccReader reader, MvccTxn txn, PrewriteContext context, Mutation mutation,
            boolean pessimisticLocked, boolean lockedInLeaderMemory) {
        byte[] key = mutation.getKey().toByteArray();
        Lock lock = reader.lock(key);
        if (lock != null && lock.startTs() != context.startTs()) {
            return KeyErrors.locked(key, lock);
        }
        if (lock != null && lock.type() != LockType.PESSIMISTIC) {
            // The same prewrite again (a retry): the lock is already there. An INSERT of another value is a second
            // row with the same key in one transaction (two writers of a distributed transaction): a duplicate.
            if (mutation.getOp() == Op.INSERT && !Arrays.equals(stagedValue(reader, key, lock),
                    mutation.getValue().toByteArray())) {
                return KeyErrors.alreadyExist(key);
            }
            return null;
        }
        Optional<CommittedWrite> newest = Optional.empty();
        boolean newestRead = lock == null;
        if (newestRead) {
            // The transaction's own commit or rollback record is filed at or after its start, so it can only
            // exist when the newest record is that recent: the common case needs one seek.
            newest = reader.newestWrite(key, Long.MAX_VALUE);
            boolean recent = newest.isPresent() && newest.get().commitTs() >= context.startTs();
            Optional<CommittedWrite> own = recent ? reader.writeOfTransaction(key, context.startTs()) : Optional.empty();
            if (own.isPresent()) {
                return own.get().write().type() == WriteType.ROLLBACK ? KeyErrors.rolledBack(key, context.startTs())
                        : null;
            }
            if (pessimisticLocked && !lockedInLeaderMemory) {
                return KeyErrors.pessimisticLockNotFound(key, context.startTs());
            }
            if (recent && !lockedInLeaderMemory) {
                return KeyErrors.conflict(key, context.primary(), context.startTs(), newest.get());
            }
        }
        if ((mutation.getOp() == Op.CHECK_NOT_EXISTS || mutation.getOp() == Op.INSERT)
                && (newestRead ? reader.latestValue(key, newest) : reader.valueAt(key, Long.MAX_VALUE)) != null) {
            return KeyErrors.alreadyExist(key);
        }
        LockType type;
        switch (mutation.getOp()) {
            case PUT, INSERT -> type = LockType.PUT;
            case DELETE -> type = LockType.DELETE;
            case LOCK -> type = LockType.LOCK;
            case CHECK_NOT_EXISTS -> {
                if (context.onePcCommitTs() != 0 && lock != null) {
                    txn.unlock(key);
                }
                return null;
            }
            default -> {
                return KeyErrors.invalid("mutation " + mutation.getOp() + " cannot be prewritten");
            }
        }
        byte[] value = mutation.getValue().toByteArray();
        byte[] shortValue = null;
        if (type == LockType.PUT) {
            if (value.length <= Write.SHORT_VALUE_MAX_BYTES) {
                shortValue = value;
            } else {
                txn.putValue(key, context.startTs(), value);
            }
        }
        if (context.onePcCommitTs() != 0) {
            if (context.onePcCommitTs() <= context.startTs()) {
                return KeyErrors.invalid("commit ts " + context.onePcCommitTs() + " is not after start ts " + context.startTs());
            }
            txn.putWrite(key, context.onePcCommitTs(), new Write(WriteType.ofLock(type), context.startTs(), shortValue));
            if (lock != null) {
                txn.unlock(key);
            }
            return null;
        }
        txn.putLock(key, new Lock(type, context.primary(), context.startTs(), context.lockTtl(),
                context.forUpdateTs(), context.txnSize(), shortValue));
        return null;
    }

    public static KeyError commit(MvccReader reader, MvccTxn txn, byte[] key, long startTs, long commitTs) {
        if (commitTs <= startTs) {
            return KeyErrors.invalid("commit ts " + commitTs + " is not after start ts " + startTs);
        }
        Lock lock = reader.lock(key);
        if (lock != null && lock.startTs() == startTs) {
            if (lock.type() == LockType.PESSIMISTIC) {
                return KeyErrors.invalid("key " + Keys.describe(key) + " is locked pessimistically by transaction "
                        + startTs + " but was never prewritten");
            }
            txn.putWrite(key, commitTs, new Write(WriteType.ofLock(lock.type()), startTs, lock.shortValue()));
            txn.unlock(key);
            return null;
        }
        Optional<CommittedWrite> own = reader.writeOfTransaction(key, startTs);
        if (own.isPresent() && own.get().write().type() != WriteType.ROLLBACK) {
            return null;
        }
        return KeyErrors.rolledBack(key, startTs);
    }

    /**
     * A committed PUT of {@code value} at {@code commitTs} without a lock or a conflict check (TxnImport): the
     * importer vouches that no transaction needs this version checked. It reads nothing, so it is the same on
     * every replica whatever the key holds; a lock on the key stays, and its transaction's commit, which comes
     * later, overrides this version. The record's start ts is its commit ts, which no transaction starts at.
     */
    public static void importCommitted(MvccTxn txn, byte[] key, byte[] value, long commitTs) {
        boolean isShort = value.length <= Write.SHORT_VALUE_MAX_BYTES;
        txn.putImportedVersion(key, commitTs, new Write(WriteType.PUT, commitTs, isShort ? value : null),
                isShort ? null : value);
    }

    public static KeyError rollback(MvccReader reader, MvccTxn txn, byte[] key, long startTs) {
        Lock lock = reader.lock(key);
        if (lock != null && lock.startTs() == startTs) {
            if (lock.type() == LockType.PUT && !lock.hasShortValue()) {
                txn.deleteValue(key, startTs);
            }
            txn.unlock(key);
            txn.putWrite(key, startTs, Write.rollback(startTs));
            return null;
        }
        Optional<CommittedWrite> own = reader.writeOfTransaction(key, startTs);
        if (own.isPresent()) {
            return own.get().write().type() == WriteType.ROLLBACK ? null : KeyErrors.committed(own.get().commitTs());
        }
        // Neither locked nor committed: leave a record so that a late prewrite of this transaction fails.
        txn.putWrite(key, startTs, Write.rollback(startTs));
        return null;
    }

    /** The value of the key as the lock holder will see it: the latest committed one. */
    public record PessimisticLockOutcome(KeyError error, byte[] value) {
    }

    public static PessimisticLockOutcome pessimisticLock(MvccReader reader, MvccTxn txn, byte[] key, byte[] primary,
            long startTs, long forUpdateTs, long lockTtl, boolean readValue) {
        Lock lock = reader.lock(key);
        if (lock != null) {
            if (lock.startTs() != startTs) {
                return new PessimisticLockOutcome(KeyErrors.locked(key, lock), null);
            }
            if (lock.type() == LockType.PESSIMISTIC && lock.forUpdateTs() < forUpdateTs) {
                txn.putLock(key, lock.withForUpdateTs(forUpdateTs));
            }
            return new PessimisticLockOutcome(null, readValue ? reader.valueAt(key, Long.MAX_VALUE) : null);
        }
        Optional<CommittedWrite> newest = reader.newestWrite(key, Long.MAX_VALUE);
        boolean recent = newest.isPresent() && newest.get().commitTs() >= startTs;
        Optional<CommittedWrite> own = recent ? reader.writeOfTransaction(key, startTs) : Optional.empty();
        if (own.isPresent()) {
            return new PessimisticLockOutcome(own.get().write().type() == WriteType.ROLLBACK
                    ? KeyErrors.rolledBack(key, startTs) : KeyErrors.committed(own.get().commitTs()), null);
        }
        if (newest.isPresent() && newest.get().commitTs() > forUpdateTs) {
            return new PessimisticLockOutcome(KeyErrors.conflict(key, primary, startTs, newest.get()), null);
        }
        txn.putLock(key, new Lock(LockType.PESSIMISTIC, primary, startTs, lockTtl, forUpdateTs, 0, null));
        return new PessimisticLockOutcome(null, readValue ? reader.latestValue(key, newest) : null);
    }

    public static KeyError pessimisticRollback(MvccReader reader, MvccTxn txn, byte[] key, long startTs, long forUpdateTs) {
        Lock lock = reader.lock(key);
        if (lock != null && lock.startTs() == startTs && lock.type() == LockType.PESSIMISTIC
                && lock.forUpdateTs() <= forUpdateTs) {
            txn.unlock(key);
        }
        return null;
    }

    /** Extends the primary's lock; answers the TTL in force, or an error when the lock is gone. */
    public record HeartBeatOutcome(KeyError error, long ttl) {
    }

    public static HeartBeatOutcome heartBeat(MvccReader reader, MvccTxn txn, byte[] primary, long startTs, long ttl) {
        Lock lock = reader.lock(primary);
        if (lock == null || lock.startTs() != startTs) {
            return new HeartBeatOutcome(KeyErrors.txnNotFound(primary, startTs), 0);
        }
        if (ttl > lock.ttlMillis()) {
            txn.putLock(primary, lock.withTtl(ttl));
            return new HeartBeatOutcome(null, ttl);
        }
        return new HeartBeatOutcome(null, lock.ttlMillis());
    }

    /** What the primary key says about a transaction. */
    public sealed interface TxnStatus {
        /** Locked and within its TTL. */
        record Alive(Lock lock) implements TxnStatus {
        }

        record Committed(long commitTs) implements TxnStatus {
        }

        record RolledBack() implements TxnStatus {
        }

        /** The lock outlived its TTL (or was never written): rolling back is up to the caller. */
        record ShouldRollBack(Lock lock) implements TxnStatus {
        }

        /** Neither lock nor record; the caller did not ask to roll back. */
        record NotFound() implements TxnStatus {
        }
    }

    public static TxnStatus checkTxnStatus(MvccReader reader, byte[] primary, long lockTs, long currentTs,
            boolean rollbackIfNotExist) {
        Lock lock = reader.lock(primary);
        if (lock != null && lock.startTs() == lockTs) {
            return isExpired(lock, currentTs) ? new TxnStatus.ShouldRollBack(lock) : new TxnStatus.Alive(lock);
        }
        Optional<CommittedWrite> own = reader.writeOfTransaction(primary, lockTs);
        if (own.isPresent()) {
            return own.get().write().type() == WriteType.ROLLBACK ? new TxnStatus.RolledBack()
                    : new TxnStatus.Committed(own.get().commitTs());
        }
        return rollbackIfNotExist ? new TxnStatus.ShouldRollBack(null) : new TxnStatus.NotFound();
    }

    public static boolean isExpired(Lock lock, long currentTs) {
        long started = Timestamp.fromPacked(lock.startTs()).physical();
        long now = Timestamp.fromPacked(currentTs).physical();
        return now >= started + lock.ttlMillis();
    }

    /**
     * Removes what no snapshot at or after the safe point can read: versions older than the newest data
     * change at or before it (that one too when it is a delete), and rollback and lock records before it.
     */
    public static void garbageCollect(MvccReader reader, MvccTxn txn, byte[] key, long safePoint) {
        byte[] dataKey = Keys.dataKey(key);
        boolean keptNewest = false;
        try (EngineIterator iterator = reader.engine().iterator(ColumnFamily.WRITE, Keys.versionKeyOf(dataKey, safePoint),
                MvccReader.keyEnd(dataKey))) {
            for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                long commitTs = Keys.timestampOf(iterator.key());
                Write write = Write.decode(iterator.value());
                if (!keptNewest && write.type() == WriteType.PUT) {
                    keptNewest = true;
                    continue;
                }
                if (!keptNewest && write.type() == WriteType.DELETE) {
                    keptNewest = true;
                }
                txn.deleteWrite(key, commitTs);
                if (write.type() == WriteType.PUT && write.shortValue() == null) {
                    txn.deleteValue(key, write.startTs());
                }
            }
        }
    }

    /** Whether the key has anything {@link #garbageCollect} would remove (cheap enough to scan a region with). */
    public static boolean hasGarbage(MvccReader reader, byte[] key, long safePoint) {
        MvccTxn probe = new MvccTxn();
        garbageCollect(reader, probe, key, safePoint);
        return !probe.isEmpty();
    }

    /** The value a PUT or INSERT lock staged: inline when short, else in the default column family. */
    private static byte[] stagedValue(MvccReader reader, byte[] key, Lock lock) {
        if (lock.type() != LockType.PUT) {
            return null;
        }
        return lock.hasShortValue() ? lock.shortValue() : reader.longValue(key, lock.startTs());
    }
}
