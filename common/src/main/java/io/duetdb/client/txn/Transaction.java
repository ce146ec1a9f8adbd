package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.proto.kv.BatchRollbackRequest;
import io.duetdb.proto.kv.BatchRollbackResponse;
import io.duetdb.proto.kv.CommitRequest;
import io.duetdb.proto.kv.CommitResponse;
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.LockInfo;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.kv.PessimisticLockRequest;
import io.duetdb.proto.kv.PessimisticLockResponse;
import io.duetdb.proto.kv.PessimisticRollbackRequest;
import io.duetdb.proto.kv.PessimisticRollbackResponse;
import io.duetdb.proto.kv.PrewriteRequest;
import io.duetdb.proto.kv.PrewriteResponse;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.TxnBatchGetRequest;
import io.duetdb.proto.kv.TxnBatchGetResponse;
import io.duetdb.proto.kv.TxnGetRequest;
import io.duetdb.proto.kv.TxnGetResponse;
import io.duetdb.proto.kv.TxnHeartBeatRequest;
import io.duetdb.proto.kv.TxnHeartBeatResponse;
import io.duetdb.proto.kv.TxnScanRequest;
import io.duetdb.proto.kv.TxnScanResponse;

/**
 * One transaction: reads at its snapshot (or, under READ COMMITTED, at a fresh timestamp per read), buffers
 * its writes, and commits them with two-phase commit: prewrite every key (in parallel across regions), then
 * commit the primary key, which decides the outcome, then the other keys in the background. In pessimistic
 * mode writes and {@link #getForUpdate} lock their keys as they happen. Not thread-safe.
 */
public final class Transaction implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Transaction.class);

    private enum State { ACTIVE, COMMITTED, ROLLED_BACK }

    /** The read timestamp of {@link TxnClient#beginLatestRead()}: above every commit timestamp placement gives. */
    static final long LATEST = Long.MAX_VALUE;
    /** The longest lock wait the stores accept. */
    private static final Duration MAX_LOCK_WAIT = Duration.ofSeconds(60);

    private final TxnClient client;
    private final long startTs;
    private final TxnMode mode;
    private final Isolation isolation;
    private final NavigableMap<ByteString, Mutation> writes = new TreeMap<>(ByteString.unsignedLexicographicalComparator());
    /** Keys put by {@link #insert}: their PUT is sent as an INSERT, which the prewrite checks is new. */
    private Set<ByteString> presumedAbsent = new HashSet<>();
    /** Keys this transaction holds pessimistic locks on. */
    private final Set<ByteString> locked = new LinkedHashSet<>();
    /** The latest committed value (or its absence) that each lock request with values answered for its keys. */
    private final Map<ByteString, Optional<ByteString>> lockedValues = new HashMap<>();
    private long writtenBytes;
    private ByteString primary;
    private long forUpdateTs;
    /** Within a statement ({@link #startStatement}): the for_update_ts its locks share; 0 before its first lock. */
    private long statementForUpdateTs;
    private boolean statementScoped;
    private long commitTs;
    private State state = State.ACTIVE;
    private ScheduledFuture<?> heartbeat;
    /** How long the next pessimistic locks wait for other transactions' locks; zero fails at once (NOWAIT). */
    private Duration lockWaitTimeout;

    Transaction(TxnClient client, long startTs, TxnMode mode, Isolation isolation) {
        this.client = requireNonNull(client, "client is null");
        this.startTs = startTs;
        this.mode = requireNonNull(mode, "mode is null");
        this.isolation = requireNonNull(isolation, "isolation is null");
        this.lockWaitTimeout = client.config().lockWaitTimeout();
    }

    /**
     * Starts a statement (of SQL): its pessimistic locks share one for_update_ts, taken by its first lock (TiDB's
     * per-statement for_update_ts), instead of a timestamp from placement per lock request; and they wait
     * {@code lockWaitTimeout} (see {@link #setLockWaitTimeout}). Without statements, every lock request takes a
     * fresh timestamp.
     */
    public void startStatement(Duration lockWaitTimeout) {
        setLockWaitTimeout(lockWaitTimeout);
        statementScoped = true;
        statementForUpdateTs = 0;
    }

    /**
     * How long later pessimistic locks wait for a conflicting lock (innodb_lock_wait_timeout), at most the stores'
     * 60 s; {@link Duration#ZERO} fails at once with 3572 instead of waiting (FOR UPDATE NOWAIT).
     */
    public void setLockWaitTimeout(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("lock wait timeout " + timeout + " is negative");
        }
        this.lockWaitTimeout = timeout.compareTo(MAX_LOCK_WAIT) > 0 ? MAX_LOCK_WAIT : timeout;
    }

    public long startTs() {
        return startTs;
    }

    /** The commit timestamp, once committed; 0 before. */
    public long commitTs() {
        return commitTs;
    }

    public TxnMode mode() {
        return mode;
    }

    public Isolation isolation() {
        return isolation;
    }

    // ---- reads ----

    /** True for a read of the newest committed versions ({@link TxnClient#beginLatestRead()}), which cannot write. */
    public boolean readsLatest() {
        return startTs == LATEST;
    }

    private long readTs() {
        return isolation == Isolation.READ_COMMITTED ? client.placement().getTimestamp().packed() : startTs;
    }

    public Optional<byte[]> get(byte[] key) {
        checkActive();
        checkKey(key);
        ByteString wrapped = ByteString.copyFrom(key);
        Mutation own = writes.get(wrapped);
        if (own != null && own.getOp() != Op.LOCK) {
            return own.getOp() == Op.PUT ? Optional.of(own.getValue().toByteArray()) : Optional.empty();
        }
        long version = readTs();
        long deadline = deadline();
        LockBackoff backoff = new LockBackoff();
        while (true) {
            TxnGetResponse response = client.batches().sendOne(wrapped, true, (stub, context, keys) ->
                    stub.kvGet(TxnGetRequest.newBuilder().setContext(context).setKey(wrapped).setVersion(version).build()),
                    TxnGetResponse::getRegionError, TxnGetResponse::hasRegionError);
            if (!response.hasError()) {
                return response.getNotFound() ? Optional.empty() : Optional.of(response.getValue().toByteArray());
            }
            resolveOrFail(List.of(response.getError()), deadline, backoff);
        }
    }

    /**
     * What {@link #get} answers, without blocking the calling thread: the transaction's own write of the key if it
     * has one, else one asynchronous read at its snapshot (see {@link TxnClient#readLatestWithoutBlocking}). Empty
     * when that cannot be: READ COMMITTED takes a timestamp from placement, or the cache cannot route the key.
     */
    public Optional<CompletableFuture<PointRead>> getWithoutBlocking(byte[] key) {
        checkActive();
        checkKey(key);
        Mutation own = writes.get(ByteString.copyFrom(key));
        if (own != null && own.getOp() != Op.LOCK) {
            return Optional.of(CompletableFuture.completedFuture(PointRead.of(own.getOp() == Op.PUT
                    ? Optional.of(own.getValue().toByteArray()) : Optional.empty())));
        }
        if (isolation == Isolation.READ_COMMITTED) {
            return Optional.empty();
        }
        return client.readWithoutBlocking(key, startTs);
    }

    /** The values of those keys that exist. */
    public Map<ByteString, byte[]> batchGet(List<byte[]> keys) {
        checkActive();
        Map<ByteString, byte[]> result = new LinkedHashMap<>();
        List<ByteString> remote = new ArrayList<>();
        for (byte[] key : keys) {
            checkKey(key);
            ByteString wrapped = ByteString.copyFrom(key);
            Mutation own = writes.get(wrapped);
            if (own != null && own.getOp() != Op.LOCK) {
                if (own.getOp() == Op.PUT) {
                    result.put(wrapped, own.getValue().toByteArray());
                }
            } else {
                remote.add(wrapped);
            }
        }
        long version = readTs();
        long deadline = deadline();
        LockBackoff backoff = new LockBackoff();
        List<ByteString> pending = remote.stream().distinct().toList();
        while (!pending.isEmpty()) {
            List<KeyError> errors = new ArrayList<>();
            List<ByteString> retry = new ArrayList<>();
            for (RegionBatches.Sent<TxnBatchGetResponse> sent : client.batches().send(pending, true, key -> 1,
                    (stub, context, batch) -> stub.kvBatchGet(TxnBatchGetRequest.newBuilder().setContext(context)
                            .addAllKeys(batch).setVersion(version).build()),
                    TxnBatchGetResponse::getRegionError, TxnBatchGetResponse::hasRegionError)) {
                for (KeyValue pair : sent.response().getPairsList()) {
                    result.put(pair.getKey(), pair.getValue().toByteArray());
                }
                for (KeyError error : sent.response().getErrorsList()) {
                    errors.add(error);
                    if (error.hasLocked()) {
                        retry.add(error.getLocked().getKey());
                    }
                }
            }
            if (errors.isEmpty()) {
                break;
            }
            resolveOrFail(errors, deadline, backoff);
            pending = retry;
        }
        return result;
    }

    /** Up to {@code limit} pairs in [start, end) in key order, this transaction's own writes included. */
    public List<Map.Entry<ByteString, byte[]>> scan(byte[] start, byte[] end, int limit) {
        checkActive();
        return scanAt(start, end, limit, readTs());
    }

    /**
     * {@link #scan} of the newest committed versions in pessimistic mode (a fresh timestamp, as a pessimistic lock
     * reads), for checks that must see what other transactions committed since this one began, such as the rows that
     * reference a parent row being deleted; the snapshot's versions in optimistic mode, whose commit checks conflicts.
     */
    public List<Map.Entry<ByteString, byte[]>> scanLatest(byte[] start, byte[] end, int limit) {
        checkActive();
        return scanAt(start, end, limit, mode == TxnMode.PESSIMISTIC ? client.placement().getTimestamp().packed()
                : readTs());
    }

    private List<Map.Entry<ByteString, byte[]>> scanAt(byte[] start, byte[] end, int limit, long version) {
        if (limit <= 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "scan limit must be positive");
        }
        long deadline = deadline();
        LockBackoff backoff = new LockBackoff();
        NavigableMap<ByteString, byte[]> merged = new TreeMap<>(ByteString.unsignedLexicographicalComparator());
        ByteString endKey = ByteString.copyFrom(end);
        byte[] cursor = start;
        // Fetch committed pairs region by region until the limit is reached past what our own deletes remove.
        while (true) {
            byte[] from = cursor;
            int want = limit + writes.size();
            TxnScanResponse response = client.batches().sendOne(ByteString.copyFrom(from), true, (stub, context, keys) ->
                    stub.kvScan(TxnScanRequest.newBuilder().setContext(context).setStartKey(ByteString.copyFrom(from))
                            .setEndKey(endKey).setLimit(Math.min(want, 10_000)).setVersion(version).build()),
                    TxnScanResponse::getRegionError, TxnScanResponse::hasRegionError);
            if (response.hasError()) {
                resolveOrFail(List.of(response.getError()), deadline, backoff);
                continue;
            }
            for (KeyValue pair : response.getPairsList()) {
                merged.put(pair.getKey(), pair.getValue().toByteArray());
            }
            byte[] regionEnd = client.batches().regionEnd(from);
            boolean regionExhausted = response.getPairsCount() < Math.min(want, 10_000);
            if (merged.size() >= want && !regionExhausted) {
                break;
            }
            if (!regionExhausted) {
                byte[] last = response.getPairs(response.getPairsCount() - 1).getKey().toByteArray();
                cursor = java.util.Arrays.copyOf(last, last.length + 1);
                continue;
            }
            if (regionEnd.length == 0 || (end.length > 0 && io.duetdb.common.keys.KeyRanges.compare(regionEnd, end) >= 0)
                    || merged.size() >= want) {
                break;
            }
            cursor = regionEnd;
        }
        ByteString startKey = ByteString.copyFrom(start);
        Map<ByteString, Mutation> own = end.length == 0 ? writes.tailMap(startKey, true) : writes.subMap(startKey, true, endKey, false);
        for (Map.Entry<ByteString, Mutation> entry : own.entrySet()) {
            switch (entry.getValue().getOp()) {
                case PUT -> merged.put(entry.getKey(), entry.getValue().getValue().toByteArray());
                case DELETE -> merged.remove(entry.getKey());
                default -> {
                }
            }
        }
        List<Map.Entry<ByteString, byte[]>> result = new ArrayList<>();
        for (Map.Entry<ByteString, byte[]> entry : merged.entrySet()) {
            if (result.size() >= limit) {
                break;
            }
            result.add(Map.entry(entry.getKey(), entry.getValue()));
        }
        return result;
    }

    /** How many regions the keys [start, end) span, for planning (no snapshot: regions change under any read). */
    public int regionCount(byte[] start, byte[] end) {
        return client.regionCount(start, end);
    }

    /**
     * Whether every region of [start, end) has a replica on a column learner store, as the region cache knows them
     * (for planning: a learner read of a region without one cannot be served).
     */
    public boolean learnersCover(byte[] start, byte[] end) {
        return client.learnersCover(start, end);
    }

    /**
     * Runs a coprocessor plan (an encoded DagRequest) over [start, end) at this transaction's read timestamp, on
     * every region at once; answers the output batches as Arrow IPC streams in key order. The stores see committed
     * data only: a caller whose transaction wrote in the range ({@link #hasWritesIn}) reads it another way. The
     * read fails with MEMORY_QUOTA_EXCEEDED once the answers pass {@code maxBytes} (none when zero or less).
     */
    public List<byte[]> coprocessor(byte[] plan, byte[] start, byte[] end, long maxBytes) {
        checkActive();
        return client.coprocessor().read(io.duetdb.proto.coprocessor.PlanType.DAG, plan, start, end, readTs(), deadline(),
                maxBytes).stream().map(response -> response.getArrowIpc().toByteArray()).toList();
    }

    /**
     * The same answers as {@link #coprocessor}, handed out one at a time with at most {@code readAhead} regions read
     * at once, so a consumer that does not keep them holds a few regions' answers, not the whole range's. The
     * {@code maxBytes} limit counts the answers received and not yet handed out. Close it to stop the reads.
     */
    public CoprocessorStream coprocessorStream(byte[] plan, byte[] start, byte[] end, long maxBytes, int readAhead) {
        return coprocessorStream(plan, start, end, maxBytes, readAhead, ReplicaRead.LEADER);
    }

    /**
     * As above, from the replicas {@code replica} names: LEARNER reads the regions' column learners (after a ReadIndex
     * each, so they see every write committed before this transaction's read timestamp was taken).
     */
    public CoprocessorStream coprocessorStream(byte[] plan, byte[] start, byte[] end, long maxBytes, int readAhead,
            ReplicaRead replica) {
        checkActive();
        CoprocessorReader.Answers answers = client.coprocessor().stream(io.duetdb.proto.coprocessor.PlanType.DAG, plan,
                start, end, readTs(), deadline(), maxBytes, readAhead, replica);
        return new CoprocessorStream() {
            @Override
            public byte[] next() {
                io.duetdb.proto.coprocessor.CoprocessorResponse answer = answers.next();
                return answer == null ? null : answer.getArrowIpc().toByteArray();
            }

            @Override
            public CoprocessorSummary summary() {
                return answers.summary();
            }

            @Override
            public void close() {
                answers.close();
            }
        };
    }

    /**
     * Runs an MPP query on the column learners at this transaction's read timestamp: its fragments become tasks on the
     * learners holding the scanned regions, and the answers are the root fragment's Arrow batches as they come (in no
     * particular order). Like the coprocessor, the learners see committed data only. Each task may hold
     * {@code memoryQuota} bytes (none when zero or less). Close it to cancel the tasks. {@code checkpoint} runs while
     * the stream waits for the learners (every few tens of milliseconds): what it throws (a KILL QUERY) cancels the
     * tasks and is thrown on.
     */
    public CoprocessorStream mppStream(io.duetdb.proto.mpp.MppQuery query, long memoryQuota, Runnable checkpoint) {
        checkActive();
        return new MppStream(client.mpp(), client.resolver(), client.sender().regions(), query, readTs(), memoryQuota,
                System.nanoTime() + CoprocessorReader.CALL_TIMEOUT.toNanos(), checkpoint);
    }

    /**
     * Runs an ANALYZE plan (an encoded AnalyzeRequest) over [start, end) on every region at once; answers each
     * region's result followed by its sample batches, in key order.
     */
    public List<io.duetdb.proto.coprocessor.CoprocessorResponse> analyze(byte[] plan, byte[] start, byte[] end) {
        checkActive();
        return client.coprocessor().read(io.duetdb.proto.coprocessor.PlanType.ANALYZE, plan, start, end, readTs(),
                deadline(), 0);
    }

    /**
     * The checksum of the committed pairs of [start, end) at this transaction's read timestamp (see
     * {@code ChecksumResult} in coprocessor.proto), computed by the stores region by region.
     */
    public KeyValueChecksum checksum(byte[] start, byte[] end) {
        checkActive();
        KeyValueChecksum checksum = new KeyValueChecksum();
        for (io.duetdb.proto.coprocessor.CoprocessorResponse answer : client.coprocessor().read(
                io.duetdb.proto.coprocessor.PlanType.CHECKSUM, new byte[0], start, end, readTs(), deadline(), 0)) {
            checksum.add(answer.getChecksumResult());
        }
        return checksum;
    }

    /** Whether this transaction has buffered writes in [start, end). */
    public boolean hasWritesIn(byte[] start, byte[] end) {
        ByteString from = ByteString.copyFrom(start);
        return end.length == 0 ? !writes.tailMap(from, true).isEmpty()
                : !writes.subMap(from, true, ByteString.copyFrom(end), false).isEmpty();
    }

    // ---- writes ----

    public void put(byte[] key, byte[] value) {
        checkActive();
        checkKey(key);
        requireNonNull(value, "value is null");
        if (value.length > KvLimits.MAX_VALUE_BYTES) {
            throw new DuetException(ErrorCode.TRANSACTION_TOO_LARGE, "value of " + value.length
                    + " bytes exceeds the limit of " + KvLimits.MAX_VALUE_BYTES);
        }
        ByteString wrapped = ByteString.copyFrom(key);
        if (mode == TxnMode.PESSIMISTIC) {
            lock(List.of(wrapped), false);
        }
        buffer(Mutation.newBuilder().setOp(Op.PUT).setKey(wrapped).setValue(ByteString.copyFrom(value)).build());
    }

    /**
     * Puts a key the caller presumes has no value (an INSERT's primary or unique key), checked when the transaction
     * prewrites instead of read first: a value there fails the commit with {@link ErrorCode#DUPLICATE_ENTRY} and
     * writes nothing (TiDB's lazy uniqueness check). Optimistic transactions only: a pessimistic one reads and locks
     * the key at once.
     */
    public void insert(byte[] key, byte[] value) {
        if (mode != TxnMode.OPTIMISTIC) {
            throw new IllegalStateException("only an optimistic transaction checks keys at prewrite");
        }
        put(key, value);
        presumedAbsent.add(ByteString.copyFrom(key));
    }

    /** Whether this transaction has put a value for the key (its own write, not a lock). */
    public boolean putsValue(byte[] key) {
        Mutation own = writes.get(ByteString.copyFrom(key));
        return own != null && own.getOp() == Op.PUT;
    }

    /** Whether any key was put by {@link #insert}, so that a duplicate may only show at commit. */
    public boolean presumesAbsentKeys() {
        return !presumedAbsent.isEmpty();
    }

    public void delete(byte[] key) {
        checkActive();
        checkKey(key);
        ByteString wrapped = ByteString.copyFrom(key);
        if (mode == TxnMode.PESSIMISTIC) {
            lock(List.of(wrapped), false);
        }
        buffer(Mutation.newBuilder().setOp(Op.DELETE).setKey(wrapped).build());
    }

    /**
     * Reads the latest committed value and keeps others from changing it until this transaction ends
     * (SELECT ... FOR UPDATE): a pessimistic lock, or in optimistic mode a lock checked at commit.
     */
    public Optional<byte[]> getForUpdate(byte[] key) {
        checkActive();
        checkKey(key);
        ByteString wrapped = ByteString.copyFrom(key);
        if (mode == TxnMode.OPTIMISTIC) {
            Optional<byte[]> value = get(key);
            if (!writes.containsKey(wrapped)) {
                buffer(Mutation.newBuilder().setOp(Op.LOCK).setKey(wrapped).build());
            }
            return value;
        }
        Mutation own = writes.get(wrapped);
        byte[] latest = lock(List.of(wrapped), true).get(wrapped);
        if (own != null && own.getOp() != Op.LOCK) {
            return own.getOp() == Op.PUT ? Optional.of(own.getValue().toByteArray()) : Optional.empty();
        }
        return Optional.ofNullable(latest);
    }

    /**
     * {@link #getForUpdate} for many keys in one round trip per region: the values of those that exist (this
     * transaction's own writes first), each key locked (pessimistic mode) or checked at commit (optimistic mode).
     */
    public Map<ByteString, byte[]> getForUpdateAll(List<byte[]> keys) {
        checkActive();
        List<ByteString> wrapped = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            checkKey(key);
            wrapped.add(ByteString.copyFrom(key));
        }
        if (mode == TxnMode.OPTIMISTIC) {
            Map<ByteString, byte[]> values = batchGet(keys);
            for (ByteString key : wrapped) {
                if (!writes.containsKey(key)) {
                    buffer(Mutation.newBuilder().setOp(Op.LOCK).setKey(key).build());
                }
            }
            return values;
        }
        Map<ByteString, byte[]> latest = lock(wrapped, true);
        Map<ByteString, byte[]> values = new HashMap<>();
        for (ByteString key : wrapped) {
            Mutation own = writes.get(key);
            if (own != null && own.getOp() != Op.LOCK) {
                if (own.getOp() == Op.PUT) {
                    values.put(key, own.getValue().toByteArray());
                }
            } else if (latest.containsKey(key)) {
                values.put(key, latest.get(key));
            }
        }
        return values;
    }

    /** Locks keys without changing them (pessimistic mode; in optimistic mode they are checked at commit). */
    public void lockKeys(List<byte[]> keys) {
        checkActive();
        List<ByteString> wrapped = new ArrayList<>();
        for (byte[] key : keys) {
            checkKey(key);
            wrapped.add(ByteString.copyFrom(key));
        }
        if (mode == TxnMode.PESSIMISTIC) {
            lock(wrapped, false);
        } else {
            for (ByteString key : wrapped) {
                if (!writes.containsKey(key)) {
                    buffer(Mutation.newBuilder().setOp(Op.LOCK).setKey(key).build());
                }
            }
        }
    }

    /**
     * {@link #getForUpdateAll} without waiting for other transactions' locks (FOR UPDATE SKIP LOCKED): the keys it
     * could lock, with the values of those that exist; keys another live transaction holds are left out. In
     * optimistic mode every key is read and checked at commit, as there is no lock to find.
     */
    public LockedValues getForUpdateSkipLocked(List<byte[]> keys) {
        checkActive();
        if (mode == TxnMode.OPTIMISTIC) {
            Map<ByteString, byte[]> values = getForUpdateAll(keys);
            Set<ByteString> all = new LinkedHashSet<>();
            keys.forEach(key -> all.add(ByteString.copyFrom(key)));
            return new LockedValues(all, values);
        }
        Set<ByteString> taken = new LinkedHashSet<>();
        Map<ByteString, byte[]> values = new HashMap<>();
        Duration wait = lockWaitTimeout;
        lockWaitTimeout = Duration.ZERO;
        try {
            for (byte[] key : keys) {
                checkKey(key);
                ByteString wrapped = ByteString.copyFrom(key);
                try {
                    byte[] value = lock(List.of(wrapped), true).get(wrapped);
                    taken.add(wrapped);
                    Mutation own = writes.get(wrapped);
                    if (own != null && own.getOp() != Op.LOCK) {
                        value = own.getOp() == Op.PUT ? own.getValue().toByteArray() : null;
                    }
                    if (value != null) {
                        values.put(wrapped, value);
                    }
                } catch (DuetException e) {
                    if (e.code() != ErrorCode.LOCK_NOWAIT) {
                        throw e;
                    }
                }
            }
        } finally {
            lockWaitTimeout = wait;
        }
        return new LockedValues(taken, values);
    }

    /** The keys a {@link #getForUpdateSkipLocked} locked, and the values of those that exist. */
    public record LockedValues(Set<ByteString> locked, Map<ByteString, byte[]> values) {
        public LockedValues {
            locked = Set.copyOf(requireNonNull(locked, "locked is null"));
            values = Map.copyOf(requireNonNull(values, "values is null"));
        }
    }

    /** The buffered writes at a point in the transaction, to undo one statement's writes (statement atomicity). */
    public static final class Savepoint {
        private final NavigableMap<ByteString, Mutation> writes;
        private final Set<ByteString> presumedAbsent;
        private final long writtenBytes;
        private final int lockedKeys;

        private Savepoint(NavigableMap<ByteString, Mutation> writes, Set<ByteString> presumedAbsent, long writtenBytes,
                int lockedKeys) {
            this.writes = writes;
            this.presumedAbsent = presumedAbsent;
            this.writtenBytes = writtenBytes;
            this.lockedKeys = lockedKeys;
        }
    }

    public Savepoint savepoint() {
        checkActive();
        return new Savepoint(new TreeMap<>(writes), Set.copyOf(presumedAbsent), writtenBytes, locked.size());
    }

    /**
     * Forgets the writes buffered since the savepoint and releases the pessimistic locks taken since (as TiDB
     * does for a failed statement), so that a failed statement holds back nobody for the rest of the transaction.
     * A release that does not reach a store leaves the lock until the transaction ends or its TTL runs out.
     */
    public void rollbackTo(Savepoint savepoint) {
        checkActive();
        writes.clear();
        writes.putAll(savepoint.writes);
        presumedAbsent = new HashSet<>(savepoint.presumedAbsent);
        writtenBytes = savepoint.writtenBytes;
        if (locked.size() > savepoint.lockedKeys) {
            List<ByteString> since = new ArrayList<>(locked).subList(savepoint.lockedKeys, locked.size());
            List<ByteString> release = new ArrayList<>(since);
            since.forEach(key -> {
                locked.remove(key);
                lockedValues.remove(key);
            });
            releaseLocks(release);
            if (primary != null && !locked.contains(primary) && !writes.containsKey(primary)) {
                // The statement took the transaction's first lock: the next one chooses the primary again.
                primary = null;
                stopHeartbeat();
            }
        }
    }

    private void releaseLocks(List<ByteString> keys) {
        try {
            for (RegionBatches.Sent<PessimisticRollbackResponse> sent : client.batches().send(keys, false,
                    key -> key.size(), (stub, context, batch) -> stub.kvPessimisticRollback(PessimisticRollbackRequest
                            .newBuilder().setContext(context).setStartVersion(startTs).setForUpdateTs(forUpdateTs)
                            .addAllKeys(batch).build()),
                    PessimisticRollbackResponse::getRegionError, PessimisticRollbackResponse::hasRegionError)) {
                if (sent.response().getErrorsCount() > 0) {
                    LOG.info("transaction {}: releasing {} locks answered {}", startTs, sent.keys().size(),
                            sent.response().getErrors(0));
                }
            }
        } catch (RuntimeException e) {
            LOG.info("transaction {}: releasing {} locks failed ({}); they go with the transaction", startTs,
                    keys.size(), e.getMessage());
        }
    }

    private void buffer(Mutation mutation) {
        if (readsLatest()) {
            throw new IllegalStateException("a read of the newest versions cannot write");
        }
        Mutation previous = writes.put(mutation.getKey(), mutation);
        writtenBytes += mutation.getKey().size() + mutation.getValue().size()
                - (previous == null ? 0 : previous.getKey().size() + previous.getValue().size());
        if (writes.size() > client.config().maxEntries() || writtenBytes > client.config().maxBytes()) {
            throw new DuetException(ErrorCode.TRANSACTION_TOO_LARGE, "transaction writes " + writes.size() + " keys and "
                    + writtenBytes + " bytes, over the limits of " + client.config().maxEntries() + " keys and "
                    + client.config().maxBytes() + " bytes");
        }
    }

    /** Takes pessimistic locks; answers the latest committed values when asked. */
    private Map<ByteString, byte[]> lock(List<ByteString> keys, boolean returnValues) {
        List<ByteString> needed = keys.stream().distinct()
                .filter(key -> !locked.contains(key) || returnValues && !lockedValues.containsKey(key)).toList();
        if (!needed.isEmpty()) {
            boolean newPrimary = primary == null;
            if (newPrimary) {
                primary = needed.get(0);
            }
            try {
                Map<ByteString, byte[]> latest = lockWithPrimary(needed, returnValues);
                if (returnValues) {
                    for (ByteString key : needed) {
                        byte[] value = latest.get(key);
                        lockedValues.put(key, value == null ? Optional.empty() : Optional.of(ByteString.copyFrom(value)));
                    }
                }
            } catch (RuntimeException e) {
                if (newPrimary && !locked.contains(primary)) {
                    // The statement failed before the primary was locked: the next lock chooses again.
                    primary = null;
                }
                throw e;
            }
        }
        if (!returnValues) {
            return Map.of();
        }
        // While this transaction holds a key's lock no other commit can change it: the value the lock answered is
        // still the latest (a lost in-memory lock fails this transaction's prewrite), so locking it again in a later
        // statement (UPDATE after SELECT ... FOR UPDATE) needs no request.
        Map<ByteString, byte[]> values = new HashMap<>();
        for (ByteString key : keys) {
            Optional<ByteString> value = lockedValues.get(key);
            if (value != null && value.isPresent()) {
                values.put(key, value.get().toByteArray());
            }
        }
        return values;
    }

    private Map<ByteString, byte[]> lockWithPrimary(List<ByteString> needed, boolean returnValues) {
        long waitMillis = lockWaitTimeout.toMillis();
        long deadline = System.nanoTime() + client.config().requestTimeout().toNanos() + lockWaitTimeout.toNanos();
        LockBackoff backoff = new LockBackoff();
        Map<ByteString, byte[]> values = new HashMap<>();
        List<ByteString> pending = needed;
        // The transaction's first lock uses its start timestamp as for_update_ts, which saves a timestamp round
        // trip: no commit after the snapshot means the snapshot's value is the newest. A newer commit answers with
        // a conflict, and the retry below locks at a fresh timestamp, as every later lock does.
        boolean firstLock = forUpdateTs == 0;
        while (!pending.isEmpty()) {
            long lockTs = statementForUpdateTs != 0 ? statementForUpdateTs
                    : firstLock ? startTs : client.placement().getTimestamp().packed();
            firstLock = false;
            statementForUpdateTs = statementScoped ? lockTs : 0;
            forUpdateTs = Math.max(forUpdateTs, lockTs);
            List<KeyError> errors = new ArrayList<>();
            List<ByteString> retry = new ArrayList<>();
            for (RegionBatches.Sent<PessimisticLockResponse> sent : client.batches().send(pending, false, key -> 1,
                    (stub, context, batch) -> stub.kvPessimisticLock(PessimisticLockRequest.newBuilder().setContext(context)
                            .addAllKeys(batch).setPrimaryLock(primary).setStartVersion(startTs).setForUpdateTs(lockTs)
                            .setLockTtl(client.config().lockTtl().toMillis())
                            .setWaitTimeoutMs(waitMillis)
                            .setReturnValues(returnValues).build()),
                    PessimisticLockResponse::getRegionError, PessimisticLockResponse::hasRegionError)) {
                PessimisticLockResponse response = sent.response();
                if (response.getErrorsCount() == 0) {
                    locked.addAll(sent.keys());
                    startHeartbeat();
                    for (int i = 0; i < response.getValuesCount(); i++) {
                        if (!response.getNotFounds(i)) {
                            values.put(sent.keys().get(i), response.getValues(i).toByteArray());
                        }
                    }
                    continue;
                }
                retry.addAll(sent.keys());
                errors.addAll(response.getErrorsList());
            }
            if (errors.isEmpty()) {
                break;
            }
            for (KeyError error : errors) {
                switch (error.getKindCase()) {
                    case DEADLOCK -> {
                        rollbackQuietly();
                        throw new DuetException(ErrorCode.DEADLOCK, "Deadlock found when trying to get lock; try"
                                + " restarting transaction (transaction " + startTs + " waits for "
                                + error.getDeadlock().getLockTs() + ", cycle " + error.getDeadlock().getWaitChainList() + ")");
                    }
                    case LOCK_WAIT_TIMEOUT -> throw new DuetException(ErrorCode.LOCK_WAIT_TIMEOUT,
                            "Lock wait timeout exceeded; try restarting transaction (key "
                                    + Keys.describe(error.getLockWaitTimeout().getKey().toByteArray()) + " is locked by "
                                    + error.getLockWaitTimeout().getLockVersion() + ")");
                    default -> {
                    }
                }
            }
            // Locked by an expired transaction: resolve it. A newer commit than our for_update_ts: lock again later.
            List<KeyError> lockErrors = errors.stream().filter(KeyError::hasLocked).toList();
            List<KeyError> others = errors.stream().filter(error -> !error.hasLocked() && !error.hasConflict()).toList();
            if (!others.isEmpty()) {
                throw failure(others.get(0));
            }
            if (!lockErrors.isEmpty() && waitMillis == 0) {
                // NOWAIT: locks of finished or expired transactions are resolved; a live one fails the statement.
                if (client.resolver().resolve(lockErrors.stream().map(KeyError::getLocked).toList()) > 0) {
                    throw new DuetException(ErrorCode.LOCK_NOWAIT, "Statement aborted because lock(s) could not be"
                            + " acquired immediately and NOWAIT is set.");
                }
            } else if (!lockErrors.isEmpty()) {
                resolveOrFail(lockErrors, deadline, backoff);
            }
            if (System.nanoTime() > deadline) {
                throw new DuetException(ErrorCode.LOCK_WAIT_TIMEOUT, "Lock wait timeout exceeded; try restarting transaction");
            }
            // A newer commit, or a lock now released by its commit: the retry locks at a fresh timestamp.
            statementForUpdateTs = 0;
            pending = retry;
        }
        return values;
    }

    private void startHeartbeat() {
        if (heartbeat != null || primary == null) {
            return;
        }
        long ttl = client.config().lockTtl().toMillis();
        heartbeat = client.timers().scheduleWithFixedDelay(() -> {
            try {
                long alive = System.currentTimeMillis() - io.duetdb.common.time.Timestamp.fromPacked(startTs).physical();
                ByteString key = primary;
                TxnHeartBeatResponse response = client.batches().sendOne(key, false, (stub, context, keys) ->
                        stub.kvTxnHeartBeat(TxnHeartBeatRequest.newBuilder().setContext(context).setPrimaryLock(key)
                                .setStartVersion(startTs).setAdviseLockTtl(alive + ttl).build()),
                        TxnHeartBeatResponse::getRegionError, TxnHeartBeatResponse::hasRegionError);
                if (response.hasError()) {
                    LOG.debug("heartbeat of transaction {}: {}", startTs, response.getError());
                }
            } catch (RuntimeException e) {
                LOG.debug("heartbeat of transaction {} failed: {}", startTs, e.getMessage());
            }
        }, ttl / 2, ttl / 2, TimeUnit.MILLISECONDS);
    }

    private void stopHeartbeat() {
        if (heartbeat != null) {
            heartbeat.cancel(false);
            heartbeat = null;
        }
    }

    // ---- commit and rollback ----

    public void commit() {
        checkActive();
        try {
            commitOrThrow();
        } finally {
            stopHeartbeat();
            client.finished(startTs);
        }
    }

    private void commitOrThrow() {
        List<Mutation> mutations = new ArrayList<>(writes.values());
        if (mode == TxnMode.PESSIMISTIC) {
            for (ByteString key : locked) {
                if (!writes.containsKey(key)) {
                    // Locked but not written (SELECT ... FOR UPDATE): committed as a lock record to release it.
                    mutations.add(Mutation.newBuilder().setOp(Op.LOCK).setKey(key).build());
                }
            }
        }
        if (mutations.isEmpty()) {
            state = State.COMMITTED;
            return;
        }
        if (primary == null) {
            primary = mutations.get(0).getKey();
        }
        Map<ByteString, Mutation> byKey = new HashMap<>();
        mutations.forEach(mutation -> byKey.put(mutation.getKey(), mutation.getOp() == Op.PUT
                && presumedAbsent.contains(mutation.getKey()) ? mutation.toBuilder().setOp(Op.INSERT).build() : mutation));
        List<ByteString> keys = mutations.stream().map(Mutation::getKey).toList();
        startHeartbeat();
        long onePhase;
        try {
            onePhase = prewrite(keys, byKey);
        } catch (DuetException e) {
            rollbackQuietly();
            throw e;
        }
        if (onePhase != 0) {
            commitTs = onePhase;
            state = State.COMMITTED;
            return;
        }
        long ts = client.placement().getTimestamp().packed();
        CommitResponse primaryCommit = client.batches().sendOne(primary, false, (stub, context, batch) ->
                stub.kvCommit(CommitRequest.newBuilder().setContext(context).setStartVersion(startTs)
                        .addKeys(primary).setCommitVersion(ts).build()),
                CommitResponse::getRegionError, CommitResponse::hasRegionError);
        if (primaryCommit.hasError()) {
            state = State.ROLLED_BACK;
            KeyError error = primaryCommit.getError();
            if (error.hasRolledBack() || error.hasTxnNotFound()) {
                throw new DuetException(ErrorCode.TRANSACTION_RETRYABLE, "transaction " + startTs
                        + " was rolled back before it committed (its locks outlived their TTL and another transaction"
                        + " resolved them); retry it");
            }
            throw failure(error);
        }
        commitTs = ts;
        state = State.COMMITTED;
        List<ByteString> secondaries = keys.stream().filter(key -> !key.equals(primary)).toList();
        if (!secondaries.isEmpty()) {
            client.workers().execute(() -> commitSecondaries(secondaries, ts));
        }
    }

    /**
     * Prewrites every key; when they all fit in one request to one region, asks for a one-phase commit and
     * answers its commit ts (0 when the keys were prewritten and still need committing).
     */
    private long prewrite(List<ByteString> keys, Map<ByteString, Mutation> byKey) {
        long deadline = deadline();
        LockBackoff backoff = new LockBackoff();
        List<ByteString> pending = keys;
        long onePhaseCommitTs = 0;
        while (!pending.isEmpty()) {
            List<KeyError> errors = new ArrayList<>();
            List<ByteString> retry = new ArrayList<>();
            for (RegionBatches.Sent<PrewriteResponse> sent : client.batches().send(pending, false,
                    key -> key.size() + byKey.get(key).getValue().size() + 16,
                    (stub, context, batch) -> {
                        PrewriteRequest.Builder request = PrewriteRequest.newBuilder().setContext(context)
                                .setPrimaryLock(primary).setStartVersion(startTs)
                                .setLockTtl(client.config().lockTtl().toMillis()).setTxnSize(keys.size())
                                .setForUpdateTs(forUpdateTs);
                        for (ByteString key : batch) {
                            request.addMutations(byKey.get(key));
                            if (mode == TxnMode.PESSIMISTIC) {
                                request.addIsPessimisticLock(locked.contains(key));
                            }
                        }
                        // Only a request that carries the whole transaction may commit it in one phase (a
                        // batch regrouped after a split carries part of it).
                        request.setTryOnePc(batch.size() == keys.size());
                        return stub.kvPrewrite(request.build());
                    }, PrewriteResponse::getRegionError, PrewriteResponse::hasRegionError)) {
                if (sent.response().getErrorsCount() > 0) {
                    errors.addAll(sent.response().getErrorsList());
                    retry.addAll(sent.keys());
                } else if (sent.response().getOnePcCommitTs() != 0) {
                    onePhaseCommitTs = sent.response().getOnePcCommitTs();
                }
            }
            if (errors.isEmpty()) {
                return onePhaseCommitTs;
            }
            for (KeyError error : errors) {
                if (!error.hasLocked()) {
                    throw failure(error);
                }
            }
            resolveOrFail(errors, deadline, backoff);
            pending = retry;
        }
        return onePhaseCommitTs;
    }

    private void commitSecondaries(List<ByteString> keys, long ts) {
        try {
            for (RegionBatches.Sent<CommitResponse> sent : client.batches().send(keys, false, key -> key.size(),
                    (stub, context, batch) -> stub.kvCommit(CommitRequest.newBuilder().setContext(context)
                            .setStartVersion(startTs).addAllKeys(batch).setCommitVersion(ts).build()),
                    CommitResponse::getRegionError, CommitResponse::hasRegionError)) {
                if (sent.response().hasError()) {
                    LOG.info("transaction {}: committing {} secondary keys failed ({}); readers will resolve them",
                            startTs, sent.keys().size(), sent.response().getError());
                }
            }
        } catch (RuntimeException e) {
            LOG.info("transaction {}: secondary keys not committed ({}); readers will resolve them", startTs, e.getMessage());
        }
    }

    public void rollback() {
        if (state != State.ACTIVE) {
            return;
        }
        try {
            rollbackKeys();
        } finally {
            state = State.ROLLED_BACK;
            stopHeartbeat();
            client.finished(startTs);
        }
    }

    private void rollbackQuietly() {
        try {
            rollback();
        } catch (RuntimeException e) {
            LOG.info("transaction {}: rollback failed ({}); its locks expire after their TTL", startTs, e.getMessage());
        }
    }

    private void rollbackKeys() {
        Set<ByteString> keys = new LinkedHashSet<>(locked);
        keys.addAll(writes.keySet());
        if (keys.isEmpty() || (mode == TxnMode.OPTIMISTIC && primary == null)) {
            return;
        }
        for (RegionBatches.Sent<BatchRollbackResponse> sent : client.batches().send(new ArrayList<>(keys), false,
                key -> key.size(), (stub, context, batch) -> stub.kvBatchRollback(BatchRollbackRequest.newBuilder()
                        .setContext(context).setStartVersion(startTs).addAllKeys(batch).build()),
                BatchRollbackResponse::getRegionError, BatchRollbackResponse::hasRegionError)) {
            if (sent.response().hasError()) {
                LOG.info("transaction {}: rollback answered {}", startTs, sent.response().getError());
            }
        }
    }

    @Override
    public void close() {
        if (state == State.ACTIVE) {
            rollbackQuietly();
        }
    }

    // ---- helpers ----

    private void resolveOrFail(List<KeyError> errors, long deadline, LockBackoff backoff) {
        resolveOrFail(client, startTs, errors, deadline, backoff);
    }

    /**
     * Resolves the locks {@code errors} name (waiting with backoff while their owners live, up to {@code deadline});
     * an error that is not a lock fails the transaction.
     */
    static void resolveOrFail(TxnClient client, long startTs, List<KeyError> errors, long deadline, LockBackoff backoff) {
        List<LockInfo> locks = new ArrayList<>();
        for (KeyError error : errors) {
            if (!error.hasLocked()) {
                throw failure(startTs, error);
            }
            locks.add(error.getLocked());
        }
        long wait = client.resolver().resolve(locks);
        if (wait > 0) {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                throw new DuetException(ErrorCode.RESOLVE_LOCK_TIMEOUT, "transaction " + startTs + " gave up waiting for "
                        + "the lock of transaction " + locks.get(0).getLockVersion() + " on "
                        + Keys.describe(locks.get(0).getKey().toByteArray()));
            }
            try {
                Thread.sleep(backoff.next(Math.min(wait, remaining)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for a lock");
            }
        }
    }

    private DuetException failure(KeyError error) {
        return failure(startTs, error);
    }

    /** What a key error means to the transaction that started at {@code startTs}. */
    static DuetException failure(long startTs, KeyError error) {
        return switch (error.getKindCase()) {
            case CONFLICT -> new DuetException(ErrorCode.WRITE_CONFLICT, "Write conflict, txnStartTS=" + startTs
                    + ", conflictStartTS=" + error.getConflict().getConflictTs() + ", conflictCommitTS="
                    + error.getConflict().getConflictCommitTs() + ", key=" + Keys.describe(error.getConflict().getKey()
                            .toByteArray()) + " [try again later]");
            case ALREADY_EXIST -> new DuetException(ErrorCode.DUPLICATE_ENTRY, "key "
                    + Keys.describe(error.getAlreadyExist().getKey().toByteArray()) + " already exists");
            case ROLLED_BACK, TXN_NOT_FOUND -> new DuetException(ErrorCode.TRANSACTION_RETRYABLE, "transaction " + startTs
                    + " was rolled back: " + error);
            case PESSIMISTIC_LOCK_NOT_FOUND -> new DuetException(ErrorCode.TRANSACTION_RETRYABLE,
                    error.getPessimisticLockNotFound() + "; retry the transaction");
            case GC_TOO_EARLY -> new DuetException(ErrorCode.GC_TOO_EARLY, error.getGcTooEarly());
            case DEADLOCK -> new DuetException(ErrorCode.DEADLOCK, "Deadlock found when trying to get lock; try restarting"
                    + " transaction");
            case LOCK_WAIT_TIMEOUT -> new DuetException(ErrorCode.LOCK_WAIT_TIMEOUT, "Lock wait timeout exceeded; try"
                    + " restarting transaction");
            case COMMITTED -> new DuetException(ErrorCode.UNKNOWN_ERROR, "transaction " + startTs + " already committed at "
                    + error.getCommitted().getCommitTs());
            default -> new DuetException(ErrorCode.INVALID_ARGUMENT, "transaction " + startTs + ": " + error);
        };
    }

    private long deadline() {
        return System.nanoTime() + client.config().requestTimeout().toNanos() + client.config().lockTtl().toNanos();
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "transaction " + startTs + " already "
                    + (state == State.COMMITTED ? "committed" : "rolled back"));
        }
    }

    private static void checkKey(byte[] key) {
        requireNonNull(key, "key is null");
        if (key.length == 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "key must not be empty");
        }
        if (key.length > KvLimits.MAX_KEY_BYTES) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "key of " + key.length + " bytes exceeds the limit of "
                    + KvLimits.MAX_KEY_BYTES);
        }
    }
}
