package io.duetdb.learner.internal.region;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.learner.internal.storage.PendingWrite;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.raftcmd.KeyValue;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.TxnCommit;
import io.duetdb.proto.raftcmd.TxnImport;
import io.duetdb.proto.raftcmd.TxnPrewrite;
import io.duetdb.proto.raftcmd.TxnRollback;

/**
 * Replays a region's transactional commands into its delta (the TiDB paper's Table 1): a prewrite is held, a
 * commit makes the held value a version at its commit timestamp, a rollback drops it, a one-phase prewrite and an
 * import commit at once. Only table rows are kept: index entries, catalog keys and raw keys are skipped. A command
 * in the log has passed its leader's checks under latches, so every replica applies it alike; the caller has
 * checked the region epoch and key range as the row store's apply does.
 */
final class LogReplayer {
    private LogReplayer() {
    }

    static void apply(RegionDelta delta, RaftCommand command) {
        switch (command.getCommandCase()) {
            case PREWRITE -> prewrite(delta, command.getPrewrite());
            case COMMIT -> {
                TxnCommit commit = command.getCommit();
                for (ByteString key : commit.getKeysList()) {
                    if (isRow(key)) {
                        delta.commit(key.toByteArray(), commit.getStartTs(), commit.getCommitTs());
                    }
                }
            }
            case ROLLBACK -> {
                TxnRollback rollback = command.getRollback();
                for (ByteString key : rollback.getKeysList()) {
                    if (isRow(key)) {
                        delta.rollback(key.toByteArray(), rollback.getStartTs());
                    }
                }
            }
            case TXN_IMPORT -> {
                TxnImport txnImport = command.getTxnImport();
                for (KeyValue pair : txnImport.getPairsList()) {
                    if (isRow(pair.getKey())) {
                        delta.putCommitted(pair.getKey().toByteArray(), txnImport.getCommitTs(), pair.getValue().toByteArray());
                    }
                }
            }
            // Pessimistic locks hold no value, heartbeats only extend a lock, and garbage collection of old versions
            // is the learner's own business (after the safe point): none changes what a read sees.
            default -> {
            }
        }
    }

    private static void prewrite(RegionDelta delta, TxnPrewrite prewrite) {
        long onePhaseCommitTs = prewrite.getOnePcCommitTs();
        byte[] primary = prewrite.getPrimary().toByteArray();
        for (Mutation mutation : prewrite.getMutationsList()) {
            if (!isRow(mutation.getKey())) {
                continue;
            }
            PendingWrite.Kind kind = switch (mutation.getOp()) {
                case PUT, INSERT -> PendingWrite.Kind.PUT;
                case DELETE -> PendingWrite.Kind.DELETE;
                case LOCK -> PendingWrite.Kind.LOCK;
                // A check of absence and a pessimistic lock leave nothing to commit.
                default -> null;
            };
            if (kind == null) {
                continue;
            }
            byte[] key = mutation.getKey().toByteArray();
            if (onePhaseCommitTs != 0) {
                if (kind != PendingWrite.Kind.LOCK) {
                    delta.putCommitted(key, onePhaseCommitTs, kind == PendingWrite.Kind.PUT
                            ? mutation.getValue().toByteArray() : null);
                }
                continue;
            }
            delta.prewrite(key, new PendingWrite(kind, prewrite.getStartTs(), primary, prewrite.getLockTtl(),
                    prewrite.getTxnSize(), prewrite.getForUpdateTs(),
                    kind == PendingWrite.Kind.PUT ? mutation.getValue().toByteArray() : null));
        }
    }

    /** Whether a key is a table row (a record key), the only keys a learner keeps. */
    static boolean isRow(ByteString key) {
        return Keys.isRecordKey(key.toByteArray());
    }
}
