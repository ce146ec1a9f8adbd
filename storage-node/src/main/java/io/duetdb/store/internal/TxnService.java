package io.duetdb.store.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.txn.Lock;
import io.duetdb.common.txn.LockType;
import io.duetdb.proto.kv.BatchRollbackRequest;
import io.duetdb.proto.kv.BatchRollbackResponse;
import io.duetdb.proto.kv.CheckTxnStatusRequest;
import io.duetdb.proto.kv.CheckTxnStatusResponse;
import io.duetdb.proto.kv.CommitRequest;
import io.duetdb.proto.kv.CommitResponse;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.PessimisticLockRequest;
import io.duetdb.proto.kv.PessimisticLockResponse;
import io.duetdb.proto.kv.PessimisticRollbackRequest;
import io.duetdb.proto.kv.PessimisticRollbackResponse;
import io.duetdb.proto.kv.PrewriteRequest;
import io.duetdb.proto.kv.PrewriteResponse;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.ResolveLockRequest;
import io.duetdb.proto.kv.ResolveLockResponse;
import io.duetdb.proto.kv.ScanLockRequest;
import io.duetdb.proto.kv.ScanLockResponse;
import io.duetdb.proto.kv.TxnAction;
import io.duetdb.proto.kv.TxnBatchGetRequest;
import io.duetdb.proto.kv.TxnBatchGetResponse;
import io.duetdb.proto.kv.TxnGetRequest;
import io.duetdb.proto.kv.TxnGetResponse;
import io.duetdb.proto.kv.TxnHeartBeatRequest;
import io.duetdb.proto.kv.TxnHeartBeatResponse;
import io.duetdb.proto.kv.TxnScanRequest;
import io.duetdb.proto.kv.TxnScanResponse;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.TxnCommit;
import io.duetdb.proto.raftcmd.TxnHeartBeat;
import io.duetdb.proto.raftcmd.TxnPessimisticLock;
import io.duetdb.proto.raftcmd.TxnPessimisticRollback;
import io.duetdb.proto.raftcmd.TxnPrewrite;
import io.duetdb.proto.raftcmd.TxnRollback;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.internal.KvService.Refusal;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.region.LeaderHandOver;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.txn.InflightCommits;
import io.duetdb.store.internal.txn.Latches;
import io.duetdb.store.internal.txn.LockWaits;
import io.duetdb.store.internal.txn.PessimisticLockTable;
import io.duetdb.store.txn.KeyErrors;
import io.duetdb.store.txn.MvccCursor;
import io.duetdb.store.txn.MvccReader;
import io.duetdb.store.txn.MvccTxn;
import io.duetdb.store.txn.TxnActions.TxnStatus;
import io.duetdb.store.txn.TxnActions;

/**
 * The transactional (Percolator) API of a store. Reads check locks at the snapshot's timestamp; writes take
 * latches on their keys, run the actions against the engine to answer conflicts at once, and propose a typed
 * command that every replica applies through the same actions. Latches are held until the command applies.
 */
public final class TxnService implements LeaderHandOver {
    private static final Logger LOG = LoggerFactory.getLogger(TxnService.class);
    /** Transactional requests carry at most this many keys (a client splits larger ones). */
    public static final int MAX_KEYS_PER_REQUEST = 10_000;
    public static final long MAX_LOCK_WAIT_MILLIS = 60_000;

    private final StoreNode node;
    private final KvService kv;
    private final Latches latches;
    private final LockWaits lockWaits;
    private final Executor executor;
    private final LongSupplier gcSafePoint;
    private final InflightCommits inflight = new InflightCommits();
    private final Supplier<CompletableFuture<Long>> timestamps;
    private final boolean inMemoryPessimisticLocks;
    private final StoreMetrics metrics;

    public TxnService(StoreNode node, KvService kv, Latches latches, LockWaits lockWaits, Executor executor,
            LongSupplier gcSafePoint, Supplier<CompletableFuture<Long>> timestamps,
            boolean inMemoryPessimisticLocks, StoreMetrics metrics) {
        this.inMemoryPessimisticLocks = inMemoryPessimisticLocks;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.timestamps = requireNonNull(timestamps, "timestamps is null");
        this.gcSafePoint = requireNonNull(gcSafePoint, "gcSafePoint is null");
        this.node = requireNonNull(node, "node is null");
        this.kv = requireNonNull(kv, "kv is null");
        this.latches = requireNonNull(latches, "latches is null");
        this.lockWaits = requireNonNull(lockWaits, "lockWaits is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    /** Keys of one-phase commits between their commit timestamp and their apply, on this store. */
    public int inflightOnePhaseKeys() {
        return inflight.size();
    }

    // ---- reads ----

    public CompletableFuture<TxnGetResponse> get(TxnGetRequest request) {
        Function<RegionError, TxnGetResponse> regionFailure = error -> TxnGetResponse.newBuilder().setRegionError(error).build();
        try {
            KvService.checkKey(request.getKey());
            checkVersion(request.getVersion());
            RegionPeer peer = readablePeer(request.getContext(), List.of(request.getKey()));
            return afterBarrier(peer, request.getContext(), error -> regionFailure.apply(error),
                    () -> inflight.blocker(List.of(request.getKey()), request.getVersion()), () -> {
                KeyError early = tooEarly(request.getVersion());
                if (early != null) {
                    return TxnGetResponse.newBuilder().setError(early).build();
                }
                try (MvccReader reader = new MvccReader(node.engine())) {
                    byte[] key = request.getKey().toByteArray();
                    KeyError locked = readBlocker(reader, key, request.getVersion());
                    if (locked != null) {
                        return TxnGetResponse.newBuilder().setError(locked).build();
                    }
                    byte[] value = reader.valueAt(key, request.getVersion());
                    return value == null ? TxnGetResponse.newBuilder().setNotFound(true).build()
                            : TxnGetResponse.newBuilder().setValue(ByteString.copyFrom(value)).build();
                }
            });
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null ? regionFailure.apply(refusal.regionError)
                    : TxnGetResponse.newBuilder().setError(KeyErrors.invalid(refusal.getMessage())).build());
        }
    }

    public CompletableFuture<TxnBatchGetResponse> batchGet(TxnBatchGetRequest request) {
        try {
            request.getKeysList().forEach(KvService::checkKey);
            checkVersion(request.getVersion());
            checkCount(request.getKeysCount());
            RegionPeer peer = readablePeer(request.getContext(), request.getKeysList());
            return afterBarrier(peer, request.getContext(), error -> TxnBatchGetResponse.newBuilder().setRegionError(error).build(),
                    () -> inflight.blocker(request.getKeysList(), request.getVersion()), () -> {
                KeyError early = tooEarly(request.getVersion());
                if (early != null) {
                    return TxnBatchGetResponse.newBuilder().addErrors(early).build();
                }
                TxnBatchGetResponse.Builder response = TxnBatchGetResponse.newBuilder();
                try (EngineSnapshot snapshot = node.engine().snapshot(); MvccReader reader = new MvccReader(snapshot)) {
                    for (ByteString key : request.getKeysList()) {
                        byte[] bytes = key.toByteArray();
                        KeyError locked = readBlocker(reader, bytes, request.getVersion());
                        if (locked != null) {
                            response.addErrors(locked);
                            continue;
                        }
                        byte[] value = reader.valueAt(bytes, request.getVersion());
                        if (value != null) {
                            response.addPairs(KeyValue.newBuilder().setKey(key).setValue(ByteString.copyFrom(value)));
                        }
                    }
                }
                return response.build();
            });
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null
                    ? TxnBatchGetResponse.newBuilder().setRegionError(refusal.regionError).build()
                    : TxnBatchGetResponse.newBuilder().addErrors(KeyErrors.invalid(refusal.getMessage())).build());
        }
    }

    public CompletableFuture<TxnScanResponse> scan(TxnScanRequest request) {
        try {
            checkVersion(request.getVersion());
            byte[] start = request.getStartKey().toByteArray();
            byte[] end = request.getEndKey().toByteArray();
            if (!KeyRanges.isValid(start, end)) {
                throw new Refusal("scan range is reversed: start key is not before end key");
            }
            if (request.getReverse()) {
                throw new Refusal("reverse transactional scans are not supported");
            }
            if (request.getLimit() > KvService.MAX_SCAN_LIMIT) {
                throw new Refusal("scan limit " + request.getLimit() + " exceeds " + KvService.MAX_SCAN_LIMIT);
            }
            RegionPeer peer = readablePeer(request.getContext(), List.of(request.getStartKey()));
            int limit = request.getLimit() == 0 ? KvService.MAX_SCAN_LIMIT : request.getLimit();
            return afterBarrier(peer, request.getContext(), error -> TxnScanResponse.newBuilder().setRegionError(error).build(),
                    () -> inflight.blocker(request.getStartKey(), request.getEndKey(), request.getVersion()), () -> {
                KeyError early = tooEarly(request.getVersion());
                if (early != null) {
                    return TxnScanResponse.newBuilder().setError(early).build();
                }
                Region region = peer.region();
                byte[] upperUser = KeyRanges.compareEnds(end, region.getEndKey().toByteArray()) <= 0
                        ? end : region.getEndKey().toByteArray();
                return scan(start, upperUser, limit, request.getVersion(), request.getKeyOnly());
            });
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null
                    ? TxnScanResponse.newBuilder().setRegionError(refusal.regionError).build()
                    : TxnScanResponse.newBuilder().setError(KeyErrors.invalid(refusal.getMessage())).build());
        }
    }

    /**
     * The outcome of preparing a snapshot read: an engine snapshot with the ranges clipped to the region, or the
     * region error or key error (a blocking lock, a read below the GC safe point) that prevents it.
     */
    public record SnapshotRead(EngineSnapshot snapshot, List<byte[][]> ranges, RegionError regionError, KeyError error,
            String invalid) {
    }

    /**
     * Prepares a read of whole key ranges at {@code version} for the coprocessor: the same leader, barrier and
     * one-phase-commit checks as a scan, then a snapshot in which no lock of an older transaction blocks the
     * ranges, so the read that follows never meets one. The caller closes the snapshot.
     */
    public CompletableFuture<SnapshotRead> snapshotRead(Context context, List<byte[][]> ranges, long version) {
        try {
            checkVersion(version);
            if (ranges.isEmpty()) {
                throw new Refusal("no key range to read");
            }
            for (byte[][] range : ranges) {
                if (!KeyRanges.isValid(range[0], range[1])) {
                    throw new Refusal("key range is reversed: start key is not before end key");
                }
            }
            RegionPeer peer = readablePeer(context, List.of(ByteString.copyFrom(ranges.get(0)[0])));
            ByteString first = ByteString.copyFrom(ranges.get(0)[0]);
            ByteString last = ByteString.copyFrom(ranges.get(ranges.size() - 1)[1]);
            return afterBarrier(peer, context, error -> new SnapshotRead(null, null, error, null, null),
                    () -> inflight.blocker(first, last, version), () -> {
                KeyError early = tooEarly(version);
                if (early != null) {
                    return new SnapshotRead(null, null, null, early, null);
                }
                Region region = peer.region();
                byte[] regionStart = region.getStartKey().toByteArray();
                byte[] regionEnd = region.getEndKey().toByteArray();
                List<byte[][]> clipped = new ArrayList<>();
                for (byte[][] range : ranges) {
                    byte[] start = KeyRanges.compare(range[0], regionStart) >= 0 ? range[0] : regionStart;
                    byte[] end = KeyRanges.compareEnds(range[1], regionEnd) <= 0 ? range[1] : regionEnd;
                    if (end.length == 0 || KeyRanges.compare(start, end) < 0) {
                        clipped.add(new byte[][] {start, end});
                    }
                }
                EngineSnapshot snapshot = node.engine().snapshot();
                try {
                    for (byte[][] range : clipped) {
                        try (EngineIterator locks = snapshot.iterator(ColumnFamily.LOCK, Keys.dataKey(range[0]),
                                Keys.dataEndKey(range[1]))) {
                            for (locks.seekToFirst(); locks.valid(); locks.next()) {
                                Lock lock = Lock.decode(locks.value());
                                if (lock.startTs() <= version && lock.type().blocksReads()) {
                                    snapshot.close();
                                    return new SnapshotRead(null, null, null,
                                            KeyErrors.locked(Keys.userKeyOf(locks.key()), lock), null);
                                }
                            }
                        }
                    }
                } catch (RuntimeException e) {
                    snapshot.close();
                    throw e;
                }
                return new SnapshotRead(snapshot, clipped, null, null, null);
            });
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null
                    ? new SnapshotRead(null, null, refusal.regionError, null, null)
                    : new SnapshotRead(null, null, null, null, refusal.getMessage()));
        }
    }

    /**
     * Transactional reads are served by region leaders: one-phase commits in flight are known only there.
     * (Follower and learner reads of MVCC data need a resolved timestamp first.)
     */
    private RegionPeer readablePeer(Context context, List<ByteString> keys) {
        if (context.getReplicaRead() == ReplicaRead.FOLLOWER) {
            throw new Refusal("transactional reads are served by region leaders (follower reads are raw-only)");
        }
        return kv.checkedPeer(context, keys, false);
    }

    /** Reads once the barrier has passed and no one-phase commit the read must see is in flight. */
    private <R> CompletableFuture<R> afterBarrier(RegionPeer peer, Context context, Function<RegionError, R> regionFailure,
            Supplier<CompletableFuture<Void>> blocker, Supplier<R> read) {
        return kv.readBarrier(peer, context.getReplicaRead()).handle((ignored, error) -> error).thenCompose(error -> {
            if (error != null) {
                return CompletableFuture.completedFuture(regionFailure.apply(kv.barrierError(peer, error)));
            }
            return whenNoInflight(blocker, read);
        });
    }

    private <R> CompletableFuture<R> whenNoInflight(Supplier<CompletableFuture<Void>> blocker,
            Supplier<R> read) {
        CompletableFuture<Void> wait = blocker.get();
        if (wait == null) {
            return CompletableFuture.completedFuture(read.get());
        }
        return wait.thenComposeAsync(ignored -> whenNoInflight(blocker, read), executor);
    }

    /**
     * Walks the visible values (one iterator over the write column family, versions passed by stepping) and the
     * locks of the range together in key order; a lock that blocks the read ends the scan with the pairs before it.
     */
    private TxnScanResponse scan(byte[] startUser, byte[] endUser, int limit, long version, boolean keyOnly) {
        TxnScanResponse.Builder response = TxnScanResponse.newBuilder();
        try (EngineSnapshot snapshot = node.engine().snapshot();
                MvccCursor values = new MvccCursor(snapshot, startUser, endUser, version);
                EngineIterator locks = snapshot.iterator(ColumnFamily.LOCK, Keys.dataKey(startUser),
                        Keys.dataEndKey(endUser))) {
            locks.seekToFirst();
            boolean hasValue = values.advance();
            while (response.getPairsCount() < limit) {
                byte[] lockKey = locks.valid() ? locks.key() : null;
                if (lockKey != null && (!hasValue || KeyRanges.compare(lockKey, values.dataKey()) <= 0)) {
                    Lock lock = Lock.decode(locks.value());
                    if (lock.startTs() <= version && lock.type().blocksReads()) {
                        return response.setError(KeyErrors.locked(Keys.userKeyOf(lockKey), lock)).build();
                    }
                    locks.next();
                    continue;
                }
                if (!hasValue) {
                    break;
                }
                KeyValue.Builder pair = KeyValue.newBuilder().setKey(ByteString.copyFrom(values.userKey()));
                if (!keyOnly) {
                    pair.setValue(ByteString.copyFrom(values.value()));
                }
                response.addPairs(pair);
                hasValue = values.advance();
            }
        }
        return response.build();
    }

    private static KeyError readBlocker(MvccReader reader, byte[] key, long version) {
        Lock lock = reader.lock(key);
        if (lock != null && lock.startTs() <= version && lock.type().blocksReads()) {
            return KeyErrors.locked(key, lock);
        }
        return null;
    }

    // ---- writes ----

    /** What a latched step answers, and when its latches may go (after the command applied). */
    private record Step<T>(CompletableFuture<T> reply, CompletableFuture<?> done) {
        static <T> Step<T> of(CompletableFuture<T> reply) {
            return new Step<>(reply, reply);
        }

        static <T> Step<T> now(T reply) {
            return of(CompletableFuture.completedFuture(reply));
        }
    }

    /**
     * Runs a step under the keys' latches with a reader that sees the region leader's in-memory pessimistic
     * locks too.
     */
    private <T> CompletableFuture<T> latched(RegionPeer peer, List<ByteString> keys, Function<MvccReader, Step<T>> step) {
        CompletableFuture<T> reply = new CompletableFuture<>();
        Thread caller = Thread.currentThread();
        boolean[] acquiring = {true};
        latches.acquire(keys, guard -> {
            Runnable run = () -> runLatched(peer, guard, step, reply);
            // Latches that were free are taken within acquire, on the caller's thread: a few keys' checks then run
            // right there, without a hand-off. A command that waited is woken by a release and moves to the pool.
            if (acquiring[0] && Thread.currentThread() == caller && keys.size() <= MAX_INLINE_KEYS) {
                run.run();
            } else {
                executor.execute(run);
            }
        });
        acquiring[0] = false;
        return reply;
    }

    private static final int MAX_INLINE_KEYS = 64;

    private <T> void runLatched(RegionPeer peer, Latches.Guard guard, Function<MvccReader, Step<T>> step,
            CompletableFuture<T> reply) {
        Step<T> outcome;
        try (MvccReader reader = new MvccReader(node.engine(), memoryLocks(peer))) {
            outcome = step.apply(reader);
        } catch (RuntimeException e) {
            outcome = Step.of(CompletableFuture.failedFuture(e));
        }
        outcome.done().whenComplete((ignored, error) -> guard.release());
        outcome.reply().whenComplete((value, error) -> {
            if (error != null) {
                reply.completeExceptionally(error);
            } else {
                reply.complete(value);
            }
        });
    }

    /** The leader's in-memory lock table as of its current term and region version (emptied when either moved on). */
    private PessimisticLockTable memoryLocks(RegionPeer peer) {
        PessimisticLockTable table = peer.pessimisticLocks();
        Region region = peer.region();
        List<ByteString> dropped = table.belongTo(peer.currentTerm(), region == null ? -1 : region.getEpoch().getVersion());
        if (!dropped.isEmpty()) {
            LOG.info("region {}: dropped {} in-memory pessimistic locks (new term or region version)", peer.regionId(),
                    dropped.size());
            metrics.memoryLocksDropped.inc(dropped.size());
            lockWaits.released(dropped);
        }
        return table;
    }

    /**
     * Before a planned leader transfer or a split: stops taking locks in memory and writes the table's locks
     * through the log (one TxnPessimisticLock command per transaction), so that their transactions survive the
     * hand-over. Safe without latches: applying a pessimistic lock on a key its transaction has meanwhile
     * prewritten, committed or rolled back changes nothing.
     */
    @Override
    public void prepare(RegionPeer peer) {
        PessimisticLockTable table = memoryLocks(peer);
        table.setAccepting(false);
        // Locks answered before replication were proposed before this point: let them reach the log before the
        // leader stops taking proposals, or their transactions find them gone at prewrite.
        CompletableFuture<?> earlier = peer.proposedSoFar();
        Map<ByteString, Lock> locks = table.matching((key, lock) -> true, PessimisticLockTable.MAX_LOCKS);
        if (locks.isEmpty()) {
            try {
                earlier.get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.info("region {}: earlier proposals not applied before handing over ({})", peer.regionId(), e.toString());
            }
            return;
        }
        Map<List<Object>, List<ByteString>> byTransaction = new LinkedHashMap<>();
        locks.forEach((key, lock) -> byTransaction.computeIfAbsent(List.of(lock.startTs(), ByteString.copyFrom(lock.primary()),
                lock.forUpdateTs(), lock.ttlMillis()), group -> new ArrayList<>()).add(key));
        List<CompletableFuture<?>> written = new ArrayList<>();
        byTransaction.forEach((group, keys) -> {
            long startTs = (Long) group.get(0);
            written.add(propose(peer, RaftCommand.newBuilder().setPessimisticLock(TxnPessimisticLock.newBuilder()
                    .addAllKeys(keys).setPrimary((ByteString) group.get(1)).setStartTs(startTs)
                    .setForUpdateTs((Long) group.get(2)).setLockTtl((Long) group.get(3)))).thenAccept(result -> {
                        if (!result.hasRegionError()) {
                            forgetMemoryLocks(peer, keys, startTs);
                        }
                    }));
        });
        try {
            written.add(earlier);
            CompletableFuture.allOf(written.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
            LOG.info("region {}: wrote {} in-memory pessimistic locks of {} transactions through the log before handing over",
                    peer.regionId(), locks.size(), byTransaction.size());
        } catch (Exception e) {
            LOG.info("region {}: in-memory pessimistic locks not all written before handing over ({}); the rest are dropped",
                    peer.regionId(), e.toString());
        }
    }

    @Override
    public void abandon(RegionPeer peer) {
        peer.pessimisticLocks().setAccepting(true);
    }

    /** Removes the transaction's in-memory locks of these keys once a command about them applied. */
    private void forgetMemoryLocks(RegionPeer peer, List<ByteString> keys, long startTs) {
        PessimisticLockTable table = peer.pessimisticLocks();
        if (table.size() == 0) {
            return;
        }
        for (ByteString key : keys) {
            table.remove(key, startTs);
        }
    }

    private CompletableFuture<CommandResult> propose(RegionPeer peer, RaftCommand.Builder command) {
        Region region = peer.region();
        if (region == null) {
            return CompletableFuture.completedFuture(CommandResult.newBuilder()
                    .setRegionError(RegionErrors.regionNotFound(peer.regionId())).build());
        }
        return peer.propose(command.setEpoch(region.getEpoch()).build());
    }

    public CompletableFuture<PrewriteResponse> prewrite(PrewriteRequest request) {
        BiFunction<RegionError, List<KeyError>, PrewriteResponse> respond = (regionError, errors) -> {
            PrewriteResponse.Builder response = PrewriteResponse.newBuilder().addAllErrors(errors);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        List<ByteString> keys = new ArrayList<>();
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getMutationsCount());
            if (request.getPrimaryLock().isEmpty()) {
                throw new Refusal("prewrite needs a primary key");
            }
            if (request.getIsPessimisticLockCount() != 0 && request.getIsPessimisticLockCount() != request.getMutationsCount()) {
                throw new Refusal("is_pessimistic_lock must be empty or name every mutation");
            }
            long bytes = 0;
            for (Mutation mutation : request.getMutationsList()) {
                KvService.checkKey(mutation.getKey());
                KvService.checkValue(mutation.getValue());
                if (mutation.getOp() == Op.PESSIMISTIC_LOCK || mutation.getOp() == Op.UNRECOGNIZED) {
                    throw new Refusal("mutation " + mutation.getOp() + " cannot be prewritten");
                }
                bytes += KvLimits.pairBytes(mutation.getKey().size(), mutation.getValue().size());
                keys.add(mutation.getKey());
            }
            if (bytes > KvLimits.MAX_WRITE_BYTES) {
                throw new Refusal("prewrite of " + bytes + " bytes exceeds the limit of " + KvLimits.MAX_WRITE_BYTES
                        + " for one request");
            }
            checkDistinct(keys);
            peer = kv.checkedPeer(request.getContext(), keys, true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refused(refusal, respond));
        }
        TxnActions.PrewriteContext context = new TxnActions.PrewriteContext(request.getPrimaryLock().toByteArray(),
                request.getStartVersion(), request.getLockTtl(), request.getForUpdateTs(), request.getTxnSize());
        return latched(peer, keys, reader -> {
            List<KeyError> errors = new ArrayList<>();
            MvccTxn probe = new MvccTxn();
            PessimisticLockTable memory = peer.pessimisticLocks();
            List<Boolean> inLeaderMemory = new ArrayList<>();
            boolean anyInLeaderMemory = false;
            for (int i = 0; i < request.getMutationsCount(); i++) {
                boolean pessimistic = request.getIsPessimisticLockCount() > 0 && request.getIsPessimisticLock(i);
                ByteString key = request.getMutations(i).getKey();
                Lock held = pessimistic && memory.size() > 0 ? memory.lock(key) : null;
                boolean fromMemory = held != null && held.startTs() == request.getStartVersion()
                        && reader.engineLock(key.toByteArray()) == null;
                inLeaderMemory.add(fromMemory);
                anyInLeaderMemory |= fromMemory;
                KeyError error = TxnActions.prewrite(reader, probe, context, request.getMutations(i), pessimistic);
                if (error != null) {
                    errors.add(error);
                }
            }
            if (!errors.isEmpty()) {
                return Step.now(respond.apply(null, errors));
            }
            if (probe.isEmpty()) {
                return Step.now(respond.apply(null, List.of()));
            }
            TxnPrewrite.Builder command = TxnPrewrite.newBuilder().addAllMutations(request.getMutationsList())
                    .setPrimary(request.getPrimaryLock()).setStartTs(request.getStartVersion())
                    .setLockTtl(request.getLockTtl()).setForUpdateTs(request.getForUpdateTs())
                    .addAllIsPessimisticLock(request.getIsPessimisticLockList()).setTxnSize(request.getTxnSize());
            if (anyInLeaderMemory) {
                command.addAllLockedInLeaderMemory(inLeaderMemory);
            }
            if (!request.getTryOnePc()) {
                return Step.of(propose(peer, RaftCommand.newBuilder().setPrewrite(command)).thenApply(result -> {
                    PrewriteResponse response = respond.apply(result.hasRegionError() ? result.getRegionError() : null,
                            resultErrors(result));
                    if (!response.hasRegionError() && response.getErrorsCount() == 0) {
                        forgetMemoryLocks(peer, keys, request.getStartVersion());
                    }
                    return response;
                }));
            }
            // One-phase commit: readers of these keys wait from now until the commit applies (InflightCommits).
            InflightCommits.Registration registration = inflight.register(keys);
            CompletableFuture<PrewriteResponse> committed = onePhaseCommit(peer, command, registration, 1)
                    .thenApply(proposed -> {
                        CommandResult result = proposed.result();
                        PrewriteResponse response = respond.apply(result.hasRegionError() ? result.getRegionError() : null,
                                resultErrors(result));
                        if (response.hasRegionError() || response.getErrorsCount() > 0) {
                            return response;
                        }
                        forgetMemoryLocks(peer, keys, request.getStartVersion());
                        return response.toBuilder().setOnePcCommitTs(proposed.commitTs()).build();
                    });
            committed.whenComplete((response, error) -> {
                inflight.finish(registration);
                lockWaits.released(keys);
            });
            return Step.of(committed);
        });
    }

    private record OnePhaseCommit(CommandResult result, long commitTs) {
    }

    /**
     * Proposes a one-phase commit at a new timestamp. The region's leader refuses a timestamp that a resolved
     * timestamp proposed meanwhile has passed ({@link RegionPeer#proposeOnePhaseCommit}); then a newer one is taken.
     */
    private CompletableFuture<OnePhaseCommit> onePhaseCommit(RegionPeer peer, TxnPrewrite.Builder command,
            InflightCommits.Registration registration, int attempt) {
        long term = peer.currentTerm();
        return timestamps.get().thenCompose(commitTs -> {
            registration.setCommitTs(commitTs);
            Region region = peer.region();
            if (region == null) {
                return CompletableFuture.completedFuture(new OnePhaseCommit(CommandResult.newBuilder()
                        .setRegionError(RegionErrors.regionNotFound(peer.regionId())).build(), commitTs));
            }
            RaftCommand raftCommand = RaftCommand.newBuilder().setEpoch(region.getEpoch())
                    .setPrewrite(command.setOnePcCommitTs(commitTs)).build();
            Optional<CompletableFuture<CommandResult>> proposed = peer.proposeOnePhaseCommit(raftCommand, term);
            if (proposed.isPresent()) {
                return proposed.get().thenApply(result -> new OnePhaseCommit(result, commitTs));
            }
            if (attempt >= 5) {
                return CompletableFuture.completedFuture(new OnePhaseCommit(CommandResult.newBuilder()
                        .setRegionError(RegionErrors.serverIsBusy("region " + peer.regionId() + " changed leaders"
                                + " while a one-phase commit was proposed", 10)).build(), commitTs));
            }
            return onePhaseCommit(peer, command, registration, attempt + 1);
        });
    }

    public CompletableFuture<CommitResponse> commit(CommitRequest request) {
        BiFunction<RegionError, KeyError, CommitResponse> respond = singleErrorResponse(CommitResponse::newBuilder,
                CommitResponse.Builder::setRegionError, CommitResponse.Builder::setError, CommitResponse.Builder::build);
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getKeysCount());
            request.getKeysList().forEach(KvService::checkKey);
            checkDistinct(request.getKeysList());
            if (request.getCommitVersion() <= request.getStartVersion()) {
                throw new Refusal("commit ts " + request.getCommitVersion() + " is not after start ts "
                        + request.getStartVersion());
            }
            peer = kv.checkedPeer(request.getContext(), request.getKeysList(), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusedSingle(refusal, respond));
        }
        return commitKeys(peer, request.getKeysList(), request.getStartVersion(), request.getCommitVersion())
                .thenApply(outcome -> respond.apply(outcome.regionError, outcome.error));
    }

    private record Outcome(RegionError regionError, KeyError error) {
        static final Outcome OK = new Outcome(null, null);
    }

    private static Outcome outcomeOf(CommandResult result) {
        if (result.hasRegionError()) {
            return new Outcome(result.getRegionError(), null);
        }
        List<KeyError> errors = resultErrors(result);
        return new Outcome(null, errors.isEmpty() ? null : errors.get(0));
    }

    private CompletableFuture<Outcome> commitKeys(RegionPeer peer, List<ByteString> keys, long startTs, long commitTs) {
        return latched(peer, keys, reader -> {
            MvccTxn probe = new MvccTxn();
            for (ByteString key : keys) {
                KeyError error = TxnActions.commit(reader, probe, key.toByteArray(), startTs, commitTs);
                if (error != null) {
                    return Step.now(new Outcome(null, error));
                }
            }
            if (probe.isEmpty()) {
                return Step.now(Outcome.OK);
            }
            return Step.of(propose(peer, RaftCommand.newBuilder().setCommit(TxnCommit.newBuilder().addAllKeys(keys)
                    .setStartTs(startTs).setCommitTs(commitTs))).thenApply(result -> {
                        lockWaits.released(keys);
                        return outcomeOf(result);
                    }));
        });
    }

    private CompletableFuture<Outcome> rollbackKeys(RegionPeer peer, List<ByteString> keys, long startTs) {
        return latched(peer, keys, reader -> {
            MvccTxn probe = new MvccTxn();
            for (ByteString key : keys) {
                KeyError error = TxnActions.rollback(reader, probe, key.toByteArray(), startTs);
                if (error != null) {
                    return Step.now(new Outcome(null, error));
                }
            }
            if (probe.isEmpty()) {
                return Step.now(Outcome.OK);
            }
            return Step.of(propose(peer, RaftCommand.newBuilder().setRollback(TxnRollback.newBuilder().addAllKeys(keys)
                    .setStartTs(startTs))).thenApply(result -> {
                        Outcome outcome = outcomeOf(result);
                        if (outcome.regionError == null && outcome.error == null) {
                            forgetMemoryLocks(peer, keys, startTs);
                        }
                        lockWaits.released(keys);
                        return outcome;
                    }));
        });
    }

    public CompletableFuture<BatchRollbackResponse> batchRollback(BatchRollbackRequest request) {
        BiFunction<RegionError, KeyError, BatchRollbackResponse> respond = singleErrorResponse(BatchRollbackResponse::newBuilder,
                BatchRollbackResponse.Builder::setRegionError, BatchRollbackResponse.Builder::setError, BatchRollbackResponse.Builder::build);
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getKeysCount());
            request.getKeysList().forEach(KvService::checkKey);
            checkDistinct(request.getKeysList());
            peer = kv.checkedPeer(request.getContext(), request.getKeysList(), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusedSingle(refusal, respond));
        }
        return rollbackKeys(peer, request.getKeysList(), request.getStartVersion())
                .thenApply(outcome -> respond.apply(outcome.regionError, outcome.error));
    }

    public CompletableFuture<ResolveLockResponse> resolveLock(ResolveLockRequest request) {
        BiFunction<RegionError, KeyError, ResolveLockResponse> respond = singleErrorResponse(ResolveLockResponse::newBuilder,
                ResolveLockResponse.Builder::setRegionError, ResolveLockResponse.Builder::setError, ResolveLockResponse.Builder::build);
        RegionPeer peer;
        List<ByteString> keys;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getKeysCount());
            request.getKeysList().forEach(KvService::checkKey);
            if (request.getCommitVersion() != 0 && request.getCommitVersion() <= request.getStartVersion()) {
                throw new Refusal("commit ts " + request.getCommitVersion() + " is not after start ts "
                        + request.getStartVersion());
            }
            peer = kv.checkedPeer(request.getContext(), request.getKeysList(), true);
            keys = request.getKeysCount() > 0 ? new ArrayList<>(new LinkedHashSet<>(request.getKeysList()))
                    : locksOf(peer, peer.region(), request.getStartVersion());
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusedSingle(refusal, respond));
        }
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(respond.apply(null, null));
        }
        CompletableFuture<Outcome> outcome = request.getCommitVersion() == 0
                ? rollbackKeys(peer, keys, request.getStartVersion())
                : commitKeys(peer, keys, request.getStartVersion(), request.getCommitVersion());
        return outcome.thenApply(result -> respond.apply(result.regionError, result.error));
    }

    /** The keys of the region locked by one transaction. */
    private List<ByteString> locksOf(RegionPeer peer, Region region, long startTs) {
        Set<ByteString> keys = new LinkedHashSet<>(memoryLocks(peer).matching((key, lock) -> lock.startTs() == startTs,
                MAX_KEYS_PER_REQUEST).keySet());
        try (EngineIterator locks = node.engine().iterator(ColumnFamily.LOCK, Keys.dataKey(region.getStartKey().toByteArray()),
                Keys.dataEndKey(region.getEndKey().toByteArray()))) {
            for (locks.seekToFirst(); locks.valid() && keys.size() < MAX_KEYS_PER_REQUEST; locks.next()) {
                if (Lock.decode(locks.value()).startTs() == startTs) {
                    keys.add(ByteString.copyFrom(Keys.userKeyOf(locks.key())));
                }
            }
        }
        return new ArrayList<>(keys);
    }

    /**
     * The locks of a range, read at the leader behind the read barrier like any transactional read: a replica that
     * lost leadership may not have applied the latest prewrites or resolutions yet.
     */
    public CompletableFuture<ScanLockResponse> scanLock(ScanLockRequest request) {
        try {
            RegionPeer peer = readablePeer(request.getContext(), List.of());
            return afterBarrier(peer, request.getContext(),
                    error -> ScanLockResponse.newBuilder().setRegionError(error).build(), () -> null,
                    () -> scanLocks(peer, request));
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(scanLockRefused(refusal));
        }
    }

    private ScanLockResponse scanLocks(RegionPeer peer, ScanLockRequest request) {
        try {
            Region region = peer.region();
            byte[] start = KeyRanges.compare(request.getStartKey().toByteArray(), region.getStartKey().toByteArray()) > 0
                    ? request.getStartKey().toByteArray() : region.getStartKey().toByteArray();
            byte[] end = KeyRanges.compareEnds(request.getEndKey().toByteArray(), region.getEndKey().toByteArray()) <= 0
                    ? request.getEndKey().toByteArray() : region.getEndKey().toByteArray();
            int limit = request.getLimit() == 0 ? KvService.MAX_SCAN_LIMIT : Math.min(request.getLimit(), KvService.MAX_SCAN_LIMIT);
            // In-memory pessimistic locks and the lock column family, merged in key order: a full page ends at its
            // largest key, where the caller's next page starts.
            TreeMap<byte[], Lock> found = new TreeMap<>(Arrays::compareUnsigned);
            memoryLocks(peer).matching((key, lock) -> lock.startTs() <= request.getMaxVersion()
                    && KeyRanges.contains(start, end, key.toByteArray()), limit)
                    .forEach((key, lock) -> found.put(key.toByteArray(), lock));
            try (EngineIterator locks = node.engine().iterator(ColumnFamily.LOCK, Keys.dataKey(start), Keys.dataEndKey(end))) {
                int fromEngine = 0;
                for (locks.seekToFirst(); locks.valid() && fromEngine < limit; locks.next()) {
                    Lock lock = Lock.decode(locks.value());
                    if (lock.startTs() <= request.getMaxVersion()) {
                        found.putIfAbsent(Keys.userKeyOf(locks.key()), lock);
                        fromEngine++;
                    }
                }
            }
            ScanLockResponse.Builder response = ScanLockResponse.newBuilder();
            for (Map.Entry<byte[], Lock> lock : found.entrySet()) {
                if (response.getLocksCount() >= limit) {
                    break;
                }
                response.addLocks(KeyErrors.lockInfo(lock.getKey(), lock.getValue()));
            }
            return response.build();
        } catch (Refusal refusal) {
            return scanLockRefused(refusal);
        }
    }

    private static ScanLockResponse scanLockRefused(Refusal refusal) {
        ScanLockResponse.Builder response = ScanLockResponse.newBuilder();
        if (refusal.regionError != null) {
            response.setRegionError(refusal.regionError);
        } else {
            response.setError(refusal.getMessage());
        }
        return response.build();
    }

    public CompletableFuture<TxnHeartBeatResponse> heartBeat(TxnHeartBeatRequest request) {
        BiFunction<RegionError, KeyError, TxnHeartBeatResponse> heartBeatFailure = singleErrorResponse(
                TxnHeartBeatResponse::newBuilder, TxnHeartBeatResponse.Builder::setRegionError,
                TxnHeartBeatResponse.Builder::setError, TxnHeartBeatResponse.Builder::build);
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            KvService.checkKey(request.getPrimaryLock());
            peer = kv.checkedPeer(request.getContext(), List.of(request.getPrimaryLock()), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusedSingle(refusal, heartBeatFailure));
        }
        return latched(peer, List.of(request.getPrimaryLock()), reader -> {
            Lock inMemory = peer.pessimisticLocks().lock(request.getPrimaryLock());
            if (inMemory != null && inMemory.startTs() == request.getStartVersion()
                    && reader.engineLock(request.getPrimaryLock().toByteArray()) == null) {
                long ttl = Math.max(inMemory.ttlMillis(), request.getAdviseLockTtl());
                peer.pessimisticLocks().put(request.getPrimaryLock(), inMemory.withTtl(ttl));
                return Step.now(TxnHeartBeatResponse.newBuilder().setLockTtl(ttl).build());
            }
            TxnActions.HeartBeatOutcome outcome = TxnActions.heartBeat(reader, new MvccTxn(),
                    request.getPrimaryLock().toByteArray(), request.getStartVersion(), request.getAdviseLockTtl());
            if (outcome.error() != null) {
                return Step.now(TxnHeartBeatResponse.newBuilder().setError(outcome.error()).build());
            }
            if (outcome.ttl() != request.getAdviseLockTtl()) {
                return Step.now(TxnHeartBeatResponse.newBuilder().setLockTtl(outcome.ttl()).build());
            }
            return Step.of(propose(peer, RaftCommand.newBuilder().setTxnHeartBeat(TxnHeartBeat.newBuilder()
                    .setPrimary(request.getPrimaryLock()).setStartTs(request.getStartVersion())
                    .setLockTtl(request.getAdviseLockTtl()))).thenApply(result -> {
                        Outcome applied = outcomeOf(result);
                        return applied.regionError != null || applied.error != null
                                ? heartBeatFailure.apply(applied.regionError, applied.error)
                                : TxnHeartBeatResponse.newBuilder().setLockTtl(request.getAdviseLockTtl()).build();
                    }));
        });
    }

    public CompletableFuture<CheckTxnStatusResponse> checkTxnStatus(CheckTxnStatusRequest request) {
        BiFunction<RegionError, KeyError, CheckTxnStatusResponse> statusFailure = singleErrorResponse(
                CheckTxnStatusResponse::newBuilder, CheckTxnStatusResponse.Builder::setRegionError,
                CheckTxnStatusResponse.Builder::setError, CheckTxnStatusResponse.Builder::build);
        RegionPeer peer;
        try {
            checkVersion(request.getLockTs());
            KvService.checkKey(request.getPrimaryKey());
            peer = kv.checkedPeer(request.getContext(), List.of(request.getPrimaryKey()), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusedSingle(refusal, statusFailure));
        }
        byte[] primary = request.getPrimaryKey().toByteArray();
        return latched(peer, List.of(request.getPrimaryKey()), reader -> {
            TxnStatus status = TxnActions.checkTxnStatus(reader, primary, request.getLockTs(), request.getCurrentTs(),
                    request.getRollbackIfNotExist());
            if (status instanceof TxnStatus.Alive alive) {
                return Step.now(CheckTxnStatusResponse.newBuilder().setLockTtl(alive.lock().ttlMillis())
                        .setLockInfo(KeyErrors.lockInfo(primary, alive.lock())).build());
            }
            if (status instanceof TxnStatus.Committed committed) {
                return Step.now(CheckTxnStatusResponse.newBuilder().setCommitVersion(committed.commitTs()).build());
            }
            if (status instanceof TxnStatus.RolledBack) {
                return Step.now(CheckTxnStatusResponse.getDefaultInstance());
            }
            if (status instanceof TxnStatus.NotFound) {
                return Step.now(CheckTxnStatusResponse.newBuilder()
                        .setError(KeyErrors.txnNotFound(primary, request.getLockTs())).build());
            }
            Lock expired = ((TxnStatus.ShouldRollBack) status).lock();
            TxnAction action = expired == null ? TxnAction.LOCK_NOT_EXIST_ROLLBACK
                    : expired.type() == LockType.PESSIMISTIC ? TxnAction.TTL_EXPIRE_PESSIMISTIC_ROLLBACK
                            : TxnAction.TTL_EXPIRE_ROLLBACK;
            return Step.of(propose(peer, RaftCommand.newBuilder().setRollback(TxnRollback.newBuilder()
                    .addKeys(request.getPrimaryKey()).setStartTs(request.getLockTs()))).thenApply(result -> {
                        Outcome applied = outcomeOf(result);
                        if (applied.regionError == null && applied.error == null) {
                            forgetMemoryLocks(peer, List.of(request.getPrimaryKey()), request.getLockTs());
                        }
                        lockWaits.released(List.of(request.getPrimaryKey()));
                        return applied.regionError != null || applied.error != null
                                ? statusFailure.apply(applied.regionError, applied.error)
                                : CheckTxnStatusResponse.newBuilder().setAction(action).build();
                    }));
        });
    }

    public CompletableFuture<PessimisticLockResponse> pessimisticLock(PessimisticLockRequest request) {
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getKeysCount());
            request.getKeysList().forEach(KvService::checkKey);
            checkDistinct(request.getKeysList());
            KvService.checkKey(request.getPrimaryLock());
            if (request.getForUpdateTs() < request.getStartVersion()) {
                throw new Refusal("for_update_ts " + request.getForUpdateTs() + " is before start ts "
                        + request.getStartVersion());
            }
            if (request.getWaitTimeoutMs() > MAX_LOCK_WAIT_MILLIS) {
                throw new Refusal("lock wait timeout " + request.getWaitTimeoutMs() + " ms exceeds "
                        + MAX_LOCK_WAIT_MILLIS + " ms");
            }
            peer = kv.checkedPeer(request.getContext(), request.getKeysList(), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null
                    ? PessimisticLockResponse.newBuilder().setRegionError(refusal.regionError).build()
                    : PessimisticLockResponse.newBuilder().addErrors(KeyErrors.invalid(refusal.getMessage())).build());
        }
        CompletableFuture<PessimisticLockResponse> reply = new CompletableFuture<>();
        long deadline = System.nanoTime() + request.getWaitTimeoutMs() * 1_000_000L;
        attemptPessimisticLock(peer, request, deadline, reply);
        return reply;
    }

    private void attemptPessimisticLock(RegionPeer peer, PessimisticLockRequest request, long deadline,
            CompletableFuture<PessimisticLockResponse> reply) {
        latched(peer, request.getKeysList(), reader -> {
            MvccTxn probe = new MvccTxn();
            List<byte[]> values = new ArrayList<>();
            byte[] primary = request.getPrimaryLock().toByteArray();
            for (ByteString key : request.getKeysList()) {
                TxnActions.PessimisticLockOutcome outcome = TxnActions.pessimisticLock(reader, probe, key.toByteArray(),
                        primary, request.getStartVersion(), request.getForUpdateTs(), request.getLockTtl(), request.getReturnValues());
                if (outcome.error() != null) {
                    return Step.now(new LockAttempt(outcome.error(), null));
                }
                values.add(outcome.value());
            }
            PessimisticLockResponse.Builder response = PessimisticLockResponse.newBuilder();
            if (request.getReturnValues()) {
                for (byte[] value : values) {
                    response.addValues(value == null ? ByteString.EMPTY : ByteString.copyFrom(value));
                    response.addNotFounds(value == null);
                }
            }
            if (probe.isEmpty()) {
                return Step.now(new LockAttempt(null, response.build()));
            }
            if (inMemoryPessimisticLocks && keepInMemory(peer, reader, probe)) {
                metrics.pessimisticLocks.labelValues("memory").inc();
                return Step.now(new LockAttempt(null, response.build()));
            }
            metrics.pessimisticLocks.labelValues("log").inc();
            CompletableFuture<CommandResult> replicated = propose(peer, RaftCommand.newBuilder()
                    .setPessimisticLock(TxnPessimisticLock.newBuilder().addAllKeys(request.getKeysList())
                            .setPrimary(request.getPrimaryLock()).setStartTs(request.getStartVersion())
                            .setForUpdateTs(request.getForUpdateTs()).setLockTtl(request.getLockTtl())));
            if (!peer.pessimisticLocks().isAccepting()) {
                // A planned hand-over is under way: the old leader's last entries may never commit, so answer once
                // the lock applied, or with the region error that sends the client to the new leader.
                return Step.of(replicated.thenApply(result -> {
                    if (result.hasRegionError()) {
                        return new LockAttempt(null, PessimisticLockResponse.newBuilder()
                                .setRegionError(result.getRegionError()).build());
                    }
                    List<KeyError> errors = resultErrors(result);
                    return errors.isEmpty() ? new LockAttempt(null, response.build())
                            : new LockAttempt(null, PessimisticLockResponse.newBuilder().addAllErrors(errors).build());
                }));
            }
            // Answer before the lock is replicated: a lost lock fails the transaction's prewrite (docs/ARCHITECTURE.md).
            return new Step<>(CompletableFuture.completedFuture(new LockAttempt(null, response.build())), replicated);
        }).whenComplete((attempt, error) -> {
            if (error != null || attempt.response() == null && !(attempt.error().hasLocked() && System.nanoTime() < deadline)) {
                // This request gives up: let the next waiter of these keys try (LockWaits wakes one at a time).
                lockWaits.released(request.getKeysList());
            }
            if (error != null) {
                reply.completeExceptionally(error);
            } else if (attempt.response() != null) {
                reply.complete(attempt.response());
            } else if (attempt.error().hasLocked() && System.nanoTime() < deadline) {
                lockWaits.waitFor(request.getStartVersion(), attempt.error().getLocked(), deadline).whenComplete((result, failure) -> {
                    if (failure != null) {
                        reply.completeExceptionally(failure);
                    } else if (result != null) {
                        reply.complete(PessimisticLockResponse.newBuilder().addErrors(result).build());
                    } else {
                        attemptPessimisticLock(peer, request, deadline, reply);
                    }
                });
            } else if (attempt.error().hasLocked() && deadline > 0 && request.getWaitTimeoutMs() > 0) {
                reply.complete(PessimisticLockResponse.newBuilder().addErrors(KeyError.newBuilder()
                        .setLockWaitTimeout(attempt.error().getLocked())).build());
            } else {
                reply.complete(PessimisticLockResponse.newBuilder().addErrors(attempt.error()).build());
            }
        });
    }

    private record LockAttempt(KeyError error, PessimisticLockResponse response) {
    }

    /**
     * Keeps the new pessimistic locks in the leader's table instead of the log, when that is all the step
     * changes, none of the keys has a lock in the engine (which would shadow it), and the table has room.
     */
    private boolean keepInMemory(RegionPeer peer, MvccReader reader, MvccTxn probe) {
        if (!probe.onlyPutsLocks()) {
            return false;
        }
        Map<ByteString, Lock> locks = probe.putLocks();
        for (ByteString key : locks.keySet()) {
            if (reader.engineLock(key.toByteArray()) != null) {
                return false;
            }
        }
        // Only a leader of the current term may answer from memory: a leader stepping down sees the new term before
        // it stops leading, and its table (emptied for that term) would take locks nobody will ever see.
        long term = peer.currentTerm();
        if (!peer.isLeaderReady()) {
            return false;
        }
        PessimisticLockTable table = memoryLocks(peer);
        if (!table.putAll(locks)) {
            return false;
        }
        if (peer.currentTerm() != term || !peer.isLeaderReady()) {
            locks.forEach((key, lock) -> table.remove(key, lock.startTs()));
            return false;
        }
        return true;
    }

    public CompletableFuture<PessimisticRollbackResponse> pessimisticRollback(PessimisticRollbackRequest request) {
        RegionPeer peer;
        try {
            checkVersion(request.getStartVersion());
            checkCount(request.getKeysCount());
            request.getKeysList().forEach(KvService::checkKey);
            checkDistinct(request.getKeysList());
            peer = kv.checkedPeer(request.getContext(), request.getKeysList(), true);
        } catch (Refusal refusal) {
            return CompletableFuture.completedFuture(refusal.regionError != null
                    ? PessimisticRollbackResponse.newBuilder().setRegionError(refusal.regionError).build()
                    : PessimisticRollbackResponse.newBuilder().addErrors(KeyErrors.invalid(refusal.getMessage())).build());
        }
        return latched(peer, request.getKeysList(), reader -> {
            PessimisticLockTable memory = peer.pessimisticLocks();
            List<ByteString> releasedInMemory = new ArrayList<>();
            for (ByteString key : request.getKeysList()) {
                Lock held = memory.size() > 0 ? memory.lock(key) : null;
                if (held != null && held.startTs() == request.getStartVersion() && held.forUpdateTs() <= request.getForUpdateTs()
                        && memory.remove(key, request.getStartVersion())) {
                    releasedInMemory.add(key);
                }
            }
            if (!releasedInMemory.isEmpty()) {
                lockWaits.released(releasedInMemory);
            }
            MvccTxn probe = new MvccTxn();
            for (ByteString key : request.getKeysList()) {
                TxnActions.pessimisticRollback(reader, probe, key.toByteArray(), request.getStartVersion(),
                        request.getForUpdateTs());
            }
            if (probe.isEmpty()) {
                return Step.now(PessimisticRollbackResponse.getDefaultInstance());
            }
            return Step.of(propose(peer, RaftCommand.newBuilder().setPessimisticRollback(TxnPessimisticRollback.newBuilder()
                    .addAllKeys(request.getKeysList()).setStartTs(request.getStartVersion())
                    .setForUpdateTs(request.getForUpdateTs()))).thenApply(result -> {
                        lockWaits.released(request.getKeysList());
                        PessimisticRollbackResponse.Builder response = PessimisticRollbackResponse.newBuilder()
                                .addAllErrors(resultErrors(result));
                        if (result.hasRegionError()) {
                            response.setRegionError(result.getRegionError());
                        }
                        return response.build();
                    }));
        });
    }

    // ---- helpers ----

    private static List<KeyError> resultErrors(CommandResult result) {
        if (!result.getError().isEmpty()) {
            return List.of(KeyErrors.invalid(result.getError()));
        }
        return result.getKeyErrorsList();
    }

    /** A response that carries one region error or one key error, or neither. */
    private static <B, R> BiFunction<RegionError, KeyError, R> singleErrorResponse(Supplier<B> builder,
            BiConsumer<B, RegionError> setRegionError, BiConsumer<B, KeyError> setError,
            Function<B, R> build) {
        return (regionError, error) -> {
            B response = builder.get();
            if (regionError != null) {
                setRegionError.accept(response, regionError);
            }
            if (error != null) {
                setError.accept(response, error);
            }
            return build.apply(response);
        };
    }

    private static <T> T refused(Refusal refusal, BiFunction<RegionError, List<KeyError>, T> respond) {
        return refusal.regionError != null ? respond.apply(refusal.regionError, List.of())
                : respond.apply(null, List.of(KeyErrors.invalid(refusal.getMessage())));
    }

    private static <T> T refusedSingle(Refusal refusal, BiFunction<RegionError, KeyError, T> respond) {
        return refusal.regionError != null ? respond.apply(refusal.regionError, null)
                : respond.apply(null, KeyErrors.invalid(refusal.getMessage()));
    }

    private static void checkVersion(long version) {
        if (version <= 0) {
            throw new Refusal("a transactional request needs a positive timestamp");
        }
    }

    private KeyError tooEarly(long version) {
        long safePoint = gcSafePoint.getAsLong();
        return version < safePoint ? KeyError.newBuilder().setGcTooEarly("read timestamp " + version
                + " is older than the GC safe point " + safePoint + ": the versions it needs may be gone (raise the"
                + " GC life time for long transactions)").build() : null;
    }

    private static void checkCount(int count) {
        if (count > MAX_KEYS_PER_REQUEST) {
            throw new Refusal(count + " keys in one request exceed the limit of " + MAX_KEYS_PER_REQUEST);
        }
    }

    private static void checkDistinct(List<ByteString> keys) {
        Set<ByteString> seen = new HashSet<>();
        for (ByteString key : keys) {
            if (!seen.add(key)) {
                throw new Refusal("key " + Keys.describe(key.toByteArray()) + " appears twice in one request");
            }
        }
    }
}
