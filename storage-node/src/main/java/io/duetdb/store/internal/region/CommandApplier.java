package io.duetdb.store.internal.region;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.region.RegionTransitions;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.raftcmd.ChangePeer;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.CommitMerge;
import io.duetdb.proto.raftcmd.KeyValue;
import io.duetdb.proto.raftcmd.MvccGarbageCollect;
import io.duetdb.proto.raftcmd.PrepareMerge;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RawDeleteRange;
import io.duetdb.proto.raftcmd.Split;
import io.duetdb.proto.raftcmd.TxnCommit;
import io.duetdb.proto.raftcmd.TxnHeartBeat;
import io.duetdb.proto.raftcmd.TxnImport;
import io.duetdb.proto.raftcmd.TxnPessimisticLock;
import io.duetdb.proto.raftcmd.TxnPessimisticRollback;
import io.duetdb.proto.raftcmd.TxnPrewrite;
import io.duetdb.proto.raftcmd.TxnRollback;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineReader;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.txn.MvccReader;
import io.duetdb.store.txn.MvccTxn;
import io.duetdb.store.txn.TxnActions;

/**
 * Turns one committed command into engine writes, deterministically from the region's state at that point
 * of the log. Commands proposed against an older epoch, or touching keys the region no longer holds, are
 * refused here too (the proposer checked before proposing, but a split may have been applied in between).
 */
public final class CommandApplier {
    private CommandApplier() {
    }

    public static ApplyOutcome apply(RegionLocalState state, RaftCommand command, EngineReader engine,
            EngineWriteBatch batch) {
        Region region = state.getRegion();
        return switch (command.getCommandCase()) {
            case RAW_PUT, RAW_DELETE, RAW_DELETE_RANGE -> applyData(state, command, batch);
            case PREWRITE, COMMIT, ROLLBACK, PESSIMISTIC_LOCK, PESSIMISTIC_ROLLBACK, TXN_HEART_BEAT, GARBAGE_COLLECT,
                    TXN_IMPORT ->
                    applyTransactional(state, command, engine, batch);
            case CHANGE_PEER -> changePeer(state, command.getEpoch(), command.getChangePeer(), batch);
            case SPLIT -> split(state, command.getEpoch(), command.getSplit(), batch);
            case PREPARE_MERGE -> prepareMerge(state, command.getEpoch(), command.getPrepareMerge(), batch);
            case COMMIT_MERGE -> commitMerge(state, command.getEpoch(), command.getCommitMerge(), batch);
            case ROLLBACK_MERGE -> rollbackMerge(state, command.getEpoch(), batch);
            // For replicas that read without the leader (column learners); the row store's reads go to leaders.
            case RESOLVED_TS -> ApplyOutcome.of(CommandResult.getDefaultInstance(), state);
            case COMMAND_NOT_SET -> ApplyOutcome.of(error("empty command in region " + region.getId()), state);
        };
    }

    private static ApplyOutcome applyData(RegionLocalState state, RaftCommand command, EngineWriteBatch batch) {
        Region region = state.getRegion();
        if (state.getState() == PeerState.MERGING) {
            return ApplyOutcome.of(regionError(RegionErrors.merging(region.getId())), state);
        }
        if (command.getEpoch().getVersion() != region.getEpoch().getVersion()) {
            return ApplyOutcome.of(regionError(RegionErrors.epochNotMatch(List.of(region),
                    "region " + region.getId() + " changed (version " + region.getEpoch().getVersion()
                            + ") after the request was proposed at version " + command.getEpoch().getVersion())), state);
        }
        switch (command.getCommandCase()) {
            case RAW_PUT -> {
                for (KeyValue pair : command.getRawPut().getPairsList()) {
                    if (!contains(region, pair.getKey())) {
                        return ApplyOutcome.of(regionError(RegionErrors.keyNotInRegion(pair.getKey().toByteArray(), region)), state);
                    }
                }
                for (KeyValue pair : command.getRawPut().getPairsList()) {
                    batch.put(ColumnFamily.DEFAULT, Keys.dataKey(pair.getKey().toByteArray()), pair.getValue().toByteArray());
                }
            }
            case RAW_DELETE -> {
                for (ByteString key : command.getRawDelete().getKeysList()) {
                    if (!contains(region, key)) {
                        return ApplyOutcome.of(regionError(RegionErrors.keyNotInRegion(key.toByteArray(), region)), state);
                    }
                }
                for (ByteString key : command.getRawDelete().getKeysList()) {
                    batch.delete(ColumnFamily.DEFAULT, Keys.dataKey(key.toByteArray()));
                }
            }
            case RAW_DELETE_RANGE -> {
                RawDeleteRange range = command.getRawDeleteRange();
                byte[] start = max(range.getStartKey().toByteArray(), region.getStartKey().toByteArray());
                byte[] end = minEnd(range.getEndKey().toByteArray(), region.getEndKey().toByteArray());
                if (KeyRanges.isValid(start, end) && !(end.length > 0 && KeyRanges.compare(start, end) >= 0)) {
                    batch.deleteRange(ColumnFamily.DEFAULT, Keys.dataKey(start), Keys.dataEndKey(end));
                    if (range.getAllColumnFamilies()) {
                        batch.deleteRange(ColumnFamily.WRITE, Keys.dataKey(start), Keys.dataEndKey(end));
                        batch.deleteRange(ColumnFamily.LOCK, Keys.dataKey(start), Keys.dataEndKey(end));
                    }
                }
            }
            default -> throw new IllegalStateException("not a data command: " + command.getCommandCase());
        }
        return ApplyOutcome.of(CommandResult.getDefaultInstance(), state);
    }

    /** The user keys a transactional command touches; empty for other commands. */
    public static List<ByteString> transactionalKeys(RaftCommand command) {
        return RegionTransitions.transactionalKeys(command);
    }

    private static ApplyOutcome applyTransactional(RegionLocalState state, RaftCommand command, EngineReader engine,
            EngineWriteBatch batch) {
        Region region = state.getRegion();
        if (state.getState() == PeerState.MERGING) {
            return ApplyOutcome.of(regionError(RegionErrors.merging(region.getId())), state);
        }
        if (command.getEpoch().getVersion() != region.getEpoch().getVersion()) {
            return ApplyOutcome.of(regionError(RegionErrors.epochNotMatch(List.of(region),
                    "region " + region.getId() + " changed (version " + region.getEpoch().getVersion()
                            + ") after the request was proposed at version " + command.getEpoch().getVersion())), state);
        }
        for (ByteString key : transactionalKeys(command)) {
            if (!contains(region, key)) {
                return ApplyOutcome.of(regionError(RegionErrors.keyNotInRegion(key.toByteArray(), region)), state);
            }
        }
        MvccTxn txn = new MvccTxn();
        List<KeyError> errors = new ArrayList<>();
        try (MvccReader reader = new MvccReader(engine)) {
            collect(command, reader, txn, errors);
        }
        if (!errors.isEmpty()) {
            return ApplyOutcome.of(CommandResult.newBuilder().addAllKeyErrors(errors).build(), state);
        }
        txn.writeTo(batch);
        return ApplyOutcome.of(CommandResult.getDefaultInstance(), state);
    }

    /** Runs a transactional command's actions: their changes into {@code txn}, their refusals into {@code errors}. */
    private static void collect(RaftCommand command, MvccReader reader, MvccTxn txn, List<KeyError> errors) {
        switch (command.getCommandCase()) {
            case PREWRITE -> {
                TxnPrewrite prewrite = command.getPrewrite();
                TxnActions.PrewriteContext context = new TxnActions.PrewriteContext(prewrite.getPrimary().toByteArray(),
                        prewrite.getStartTs(), prewrite.getLockTtl(), prewrite.getForUpdateTs(), prewrite.getTxnSize(),
                        prewrite.getOnePcCommitTs());
                for (int i = 0; i < prewrite.getMutationsCount(); i++) {
                    boolean pessimistic = i < prewrite.getIsPessimisticLockCount() && prewrite.getIsPessimisticLock(i);
                    boolean inLeaderMemory = i < prewrite.getLockedInLeaderMemoryCount() && prewrite.getLockedInLeaderMemory(i);
                    addIfError(errors, TxnActions.prewrite(reader, txn, context, prewrite.getMutations(i), pessimistic,
                            inLeaderMemory));
                }
            }
            case COMMIT -> {
                TxnCommit commit = command.getCommit();
                for (ByteString key : commit.getKeysList()) {
                    addIfError(errors, TxnActions.commit(reader, txn, key.toByteArray(), commit.getStartTs(), commit.getCommitTs()));
                }
            }
            case ROLLBACK -> {
                TxnRollback rollback = command.getRollback();
                for (ByteString key : rollback.getKeysList()) {
                    addIfError(errors, TxnActions.rollback(reader, txn, key.toByteArray(), rollback.getStartTs()));
                }
            }
            case PESSIMISTIC_LOCK -> {
                TxnPessimisticLock lock = command.getPessimisticLock();
                for (ByteString key : lock.getKeysList()) {
                    addIfError(errors, TxnActions.pessimisticLock(reader, txn, key.toByteArray(), lock.getPrimary().toByteArray(),
                            lock.getStartTs(), lock.getForUpdateTs(), lock.getLockTtl(), false).error());
                }
            }
            case PESSIMISTIC_ROLLBACK -> {
                TxnPessimisticRollback rollback = command.getPessimisticRollback();
                for (ByteString key : rollback.getKeysList()) {
                    addIfError(errors, TxnActions.pessimisticRollback(reader, txn, key.toByteArray(), rollback.getStartTs(),
                            rollback.getForUpdateTs()));
                }
            }
            case TXN_HEART_BEAT -> {
                TxnHeartBeat heartBeat = command.getTxnHeartBeat();
                addIfError(errors, TxnActions.heartBeat(reader, txn, heartBeat.getPrimary().toByteArray(),
                        heartBeat.getStartTs(), heartBeat.getLockTtl()).error());
            }
            case GARBAGE_COLLECT -> {
                MvccGarbageCollect collect = command.getGarbageCollect();
                for (ByteString key : collect.getKeysList()) {
                    TxnActions.garbageCollect(reader, txn, key.toByteArray(), collect.getSafePoint());
                }
            }
            case TXN_IMPORT -> {
                TxnImport txnImport = command.getTxnImport();
                for (KeyValue pair : txnImport.getPairsList()) {
                    TxnActions.importCommitted(txn, pair.getKey().toByteArray(), pair.getValue().toByteArray(),
                            txnImport.getCommitTs());
                }
            }
            default -> throw new IllegalStateException("not a transactional command: " + command.getCommandCase());
        }
    }

    private static void addIfError(List<KeyError> errors, KeyError error) {
        if (error != null) {
            errors.add(error);
        }
    }

    private static Optional<ApplyOutcome> checkAdminEpoch(RegionLocalState state, RegionEpoch epoch, String what) {
        Region region = state.getRegion();
        if (state.getState() != PeerState.NORMAL) {
            return Optional.of(ApplyOutcome.of(regionError(RegionErrors.merging(region.getId())), state));
        }
        if (!epoch.equals(region.getEpoch())) {
            return Optional.of(ApplyOutcome.of(regionError(RegionErrors.epochNotMatch(List.of(region),
                    what + " of region " + region.getId() + " was proposed at epoch " + describe(epoch)
                            + " but the region is at " + describe(region.getEpoch()))), state));
        }
        return Optional.empty();
    }

    private static ApplyOutcome changePeer(RegionLocalState state, RegionEpoch epoch, ChangePeer change, EngineWriteBatch batch) {
        Optional<ApplyOutcome> stale = checkAdminEpoch(state, epoch, "a membership change");
        if (stale.isPresent()) {
            return stale.get();
        }
        RegionTransitions.Outcome outcome = RegionTransitions.changePeer(state.getRegion(), change);
        if (outcome.refused()) {
            return ApplyOutcome.of(error(outcome.error()), state);
        }
        RegionLocalState next = state.toBuilder().setRegion(outcome.region()).build();
        RegionStorage.putRegionState(batch, next);
        return ApplyOutcome.of(CommandResult.newBuilder().setRegion(outcome.region()).build(), next);
    }

    private static ApplyOutcome split(RegionLocalState state, RegionEpoch epoch, Split split, EngineWriteBatch batch) {
        Optional<ApplyOutcome> stale = checkAdminEpoch(state, epoch, "a split");
        if (stale.isPresent()) {
            return stale.get();
        }
        RegionTransitions.SplitOutcome outcome = RegionTransitions.split(state.getRegion(), split);
        if (outcome.error() != null) {
            return ApplyOutcome.of(error(outcome.error()), state);
        }
        Region left = outcome.left();
        Region derived = outcome.right();
        RegionLocalState next = state.toBuilder().setRegion(left).build();
        RegionStorage.putRegionState(batch, next);
        RegionStorage.putRegionState(batch, RegionLocalState.newBuilder().setRegion(derived).setState(PeerState.NORMAL).build());
        RegionStorage.putApplyState(batch, derived.getId(),
                RegionStorage.applyState(RegionStorage.INITIAL_POSITION, RegionStorage.INITIAL_POSITION));
        return new ApplyOutcome(CommandResult.newBuilder().setRegion(left).addDerived(derived).build(), next,
                List.of(derived), List.of());
    }

    private static ApplyOutcome prepareMerge(RegionLocalState state, RegionEpoch epoch, PrepareMerge prepare,
            EngineWriteBatch batch) {
        Optional<ApplyOutcome> stale = checkAdminEpoch(state, epoch, "a merge");
        if (stale.isPresent()) {
            return stale.get();
        }
        Region frozen = RegionTransitions.prepareMerge(state.getRegion());
        RegionLocalState next = state.toBuilder().setRegion(frozen).setState(PeerState.MERGING)
                .setMergeTarget(prepare.getTargetRegionId()).build();
        RegionStorage.putRegionState(batch, next);
        return ApplyOutcome.of(CommandResult.newBuilder().setRegion(frozen).build(), next);
    }

    private static ApplyOutcome rollbackMerge(RegionLocalState state, RegionEpoch epoch, EngineWriteBatch batch) {
        Region region = state.getRegion();
        if (state.getState() != PeerState.MERGING) {
            return ApplyOutcome.of(error("region " + region.getId() + " is not merging"), state);
        }
        if (!epoch.equals(region.getEpoch())) {
            return ApplyOutcome.of(regionError(RegionErrors.epochNotMatch(List.of(region),
                    "a merge rollback of region " + region.getId() + " was proposed at an older epoch")), state);
        }
        Region resumed = RegionTransitions.rollbackMerge(region);
        RegionLocalState next = state.toBuilder().setRegion(resumed).setState(PeerState.NORMAL).clearMergeTarget().build();
        RegionStorage.putRegionState(batch, next);
        return ApplyOutcome.of(CommandResult.newBuilder().setRegion(resumed).build(), next);
    }

    private static ApplyOutcome commitMerge(RegionLocalState state, RegionEpoch epoch, CommitMerge commit,
            EngineWriteBatch batch) {
        Optional<ApplyOutcome> stale = checkAdminEpoch(state, epoch, "a merge");
        if (stale.isPresent()) {
            return stale.get();
        }
        Region source = commit.getSource();
        RegionTransitions.Outcome outcome = RegionTransitions.commitMerge(state.getRegion(), source);
        if (outcome.refused()) {
            return ApplyOutcome.of(error(outcome.error()), state);
        }
        RegionLocalState next = state.toBuilder().setRegion(outcome.region()).build();
        RegionStorage.putRegionState(batch, next);
        RegionStorage.putRegionState(batch, RegionLocalState.newBuilder().setRegion(source)
                .setState(PeerState.TOMBSTONE).build());
        return new ApplyOutcome(CommandResult.newBuilder().setRegion(outcome.region()).build(), next, List.of(),
                List.of(source.getId()));
    }

    static boolean contains(Region region, ByteString key) {
        return RegionTransitions.contains(region, key);
    }

    private static byte[] max(byte[] a, byte[] b) {
        return KeyRanges.compare(a, b) >= 0 ? a : b;
    }

    private static byte[] minEnd(byte[] a, byte[] b) {
        return KeyRanges.compareEnds(a, b) <= 0 ? a : b;
    }

    private static String describe(RegionEpoch epoch) {
        return RegionTransitions.describe(epoch);
    }

    static CommandResult error(String message) {
        return CommandResult.newBuilder().setError(message).build();
    }

    static CommandResult regionError(RegionError error) {
        return CommandResult.newBuilder().setRegionError(error).build();
    }
}
