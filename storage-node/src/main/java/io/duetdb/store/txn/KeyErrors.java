package io.duetdb.store.txn;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.txn.Lock;
import io.duetdb.proto.kv.AlreadyExist;
import io.duetdb.proto.kv.Committed;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.TxnNotFound;
import io.duetdb.proto.kv.WriteConflict;

/** The key errors transactional actions answer with. */
public final class KeyErrors {
    private KeyErrors() {
    }

    public static LockInfo lockInfo(byte[] key, Lock lock) {
        return LockInfo.newBuilder().setKey(ByteString.copyFrom(key)).setPrimaryLock(ByteString.copyFrom(lock.primary()))
                .setLockVersion(lock.startTs()).setLockTtl(lock.ttlMillis()).setTxnSize(lock.txnSize())
                .setLockType(switch (lock.type()) {
                    case PUT -> Op.PUT;
                    case DELETE -> Op.DELETE;
                    case LOCK -> Op.LOCK;
                    case PESSIMISTIC -> Op.PESSIMISTIC_LOCK;
                }).setLockForUpdateTs(lock.forUpdateTs()).build();
    }

    public static KeyError locked(byte[] key, Lock lock) {
        return KeyError.newBuilder().setLocked(lockInfo(key, lock)).build();
    }

    public static KeyError conflict(byte[] key, byte[] primary, long startTs, CommittedWrite newer) {
        return KeyError.newBuilder().setConflict(WriteConflict.newBuilder().setKey(ByteString.copyFrom(key))
                .setPrimary(ByteString.copyFrom(primary)).setStartTs(startTs).setConflictTs(newer.write().startTs())
                .setConflictCommitTs(newer.commitTs())).build();
    }

    public static KeyError alreadyExist(byte[] key) {
        return KeyError.newBuilder().setAlreadyExist(AlreadyExist.newBuilder().setKey(ByteString.copyFrom(key))).build();
    }

    public static KeyError rolledBack(byte[] key, long startTs) {
        return KeyError.newBuilder().setRolledBack("transaction " + startTs + " was rolled back on key "
                + Keys.describe(key)).build();
    }

    public static KeyError committed(long commitTs) {
        return KeyError.newBuilder().setCommitted(Committed.newBuilder().setCommitTs(commitTs)).build();
    }

    public static KeyError txnNotFound(byte[] primary, long startTs) {
        return KeyError.newBuilder().setTxnNotFound(TxnNotFound.newBuilder().setStartTs(startTs)
                .setPrimaryKey(ByteString.copyFrom(primary))).build();
    }

    public static KeyError pessimisticLockNotFound(byte[] key, long startTs) {
        return KeyError.newBuilder().setPessimisticLockNotFound("transaction " + startTs
                + " holds no pessimistic lock on " + Keys.describe(key)).build();
    }

    public static KeyError invalid(String message) {
        return KeyError.newBuilder().setInvalid(message).build();
    }
}
