package io.duetdb.client.txn;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.kv.RegionRequestSender;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.proto.kv.ImportRequest;
import io.duetdb.proto.kv.ImportResponse;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.kv.TxnGetRequest;
import io.duetdb.proto.kv.TxnGetResponse;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreLiveness;
import io.duetdb.proto.store.GetResolvedTsRequest;
import io.duetdb.proto.store.GetResolvedTsResponse;
import io.duetdb.proto.store.StoreAdminGrpc;

/**
 * Distributed transactions over the cluster's stores (Percolator): {@link #begin} starts one at a timestamp
 * from placement. The client also keeps placement's GC safe point below its oldest live transaction.
 */
public final class TxnClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TxnClient.class);

    private static final String COLUMNAR_LABEL = "engine";
    private static final String COLUMNAR_ENGINE = "columnar";
    private static final long RESOLVED_TS_DEADLINE_MILLIS = 1000;
    private static final long LEARNER_STORES_TTL_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final PlacementClient placement;
    private final TxnClientConfig config;
    private final RegionRequestSender sender;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final RegionBatches batches;
    private final LockResolver resolver;
    private final CoprocessorReader coprocessor;
    private final MppCoordinator mpp;
    private final String serviceId = "txn-client-" + UUID.randomUUID();
    /** Start timestamps of live transactions, with how many transactions started at each. */
    private final ConcurrentSkipListMap<Long, AtomicInteger> live = new ConcurrentSkipListMap<>();
    private volatile LearnerStores knownLearnerStores;
    private volatile long publishedSafePoint;

    public TxnClient(PlacementClient placement, TxnClientConfig config) {
        this.placement = requireNonNull(placement, "placement is null");
        this.config = requireNonNull(config, "config is null");
        this.sender = new RegionRequestSender(new RegionCache(placement), config.requestTimeout(), ReplicaRead.LEADER);
        this.workers = Executors.newFixedThreadPool(8, new NamedThreadFactory("client", "txn", "worker"));
        java.util.concurrent.ScheduledThreadPoolExecutor timerPool = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
                new NamedThreadFactory("client", "txn", "timer"));
        // Most transactions end long before their first heartbeat: drop cancelled heartbeats at once.
        timerPool.setRemoveOnCancelPolicy(true);
        this.timers = timerPool;
        this.batches = new RegionBatches(sender, workers);
        this.resolver = new LockResolver(placement, batches);
        this.coprocessor = new CoprocessorReader(sender, resolver, workers);
        this.mpp = new MppCoordinator(sender);
        timers.scheduleWithFixedDelay(this::publishSafePoint, config.safePointInterval().toMillis(),
                config.safePointInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    public TxnClient(PlacementClient placement) {
        this(placement, TxnClientConfig.DEFAULT);
    }

    public Transaction begin(TxnMode mode, Isolation isolation) {
        long startTs = placement.getTimestamp().packed();
        live.computeIfAbsent(startTs, ts -> new AtomicInteger()).incrementAndGet();
        return new Transaction(this, startTs, mode, isolation);
    }

    /**
     * A read-only transaction that reads the newest committed version of a key without taking a timestamp from
     * placement (TiDB's MaxTS point get of an autocommit statement). A lock on the key is resolved or waited for as
     * any reader's would be, so the answer is the value of the last acknowledged commit: linearizable for one key.
     * Keys read one after another are not one snapshot, so it serves single-key statements only. It does not hold
     * back the GC safe point, since the newest version is never collected.
     */
    public Transaction beginLatestRead() {
        return new Transaction(this, Transaction.LATEST, TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
    }

    /**
     * The newest committed version of one key, as {@link #beginLatestRead} reads it, without blocking the calling
     * thread: see {@link #readWithoutBlocking}.
     */
    public Optional<CompletableFuture<PointRead>> readLatestWithoutBlocking(byte[] key) {
        return readWithoutBlocking(key, Transaction.LATEST);
    }

    /**
     * The version of one key a snapshot at {@code version} sees, without blocking the calling thread: one attempt
     * at the region leader the cache knows, answered on the transport's thread. Empty when the cache cannot route
     * it; an answer that does not stand (a lock on the key, a region error, a failed call) is
     * {@link PointRead#UNANSWERED}, and the caller reads again the blocking way, which resolves locks and retries.
     */
    Optional<CompletableFuture<PointRead>> readWithoutBlocking(byte[] key, long version) {
        requireNonNull(key, "key is null");
        ByteString wrapped = ByteString.copyFrom(key);
        return sender.<TxnGetResponse>tryWithoutBlocking(key, (context, stub, observer) -> stub.kvGet(
                        TxnGetRequest.newBuilder().setContext(context).setKey(wrapped).setVersion(version).build(),
                        observer), TxnGetResponse::hasRegionError)
                .map(sent -> sent.thenApply(response -> response.isEmpty() || response.get().hasError()
                        ? PointRead.UNANSWERED
                        : PointRead.of(response.get().getNotFound() ? Optional.empty()
                                : Optional.of(response.get().getValue().toByteArray()))));
    }

    public Transaction begin() {
        return begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ);
    }

    /**
     * A transaction that reads at {@code startTs}, a timestamp already handed out (stale and historical reads:
     * tidb_snapshot, tidb_read_staleness); for reads only. A timestamp placement has not reached is refused, since
     * commits could still land at or below it. One below the GC safe point is refused by the stores (9006).
     */
    public Transaction beginAt(long startTs) {
        long now = placement.getTimestamp().packed();
        if (startTs <= 0 || startTs > now) {
            throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP, "invalid as of timestamp: " + startTs
                    + (startTs > now ? " is in the future (placement is at " + now + ")" : " is not a timestamp"));
        }
        live.computeIfAbsent(startTs, ts -> new AtomicInteger()).incrementAndGet();
        return new Transaction(this, startTs, TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ);
    }

    /**
     * The lowest resolved timestamp of the column learner stores' replicas, or 0 when none is known (no learner
     * store, one that does not answer, a replica that resolved nothing yet): a read at or below it is served by
     * the learners alone, without the region leaders. One call to each learner store; the stores come from
     * placement, asked again after {@link #LEARNER_STORES_TTL_NANOS} (a store it does not know yet only makes a
     * read above that store's resolved timestamp wait for it, as any learner read does).
     */
    public long learnerResolvedTs() {
        long lowest = Long.MAX_VALUE;
        for (StoreInfo store : learnerStores()) {
            GetResolvedTsResponse response;
            try {
                response = StoreAdminGrpc.newBlockingStub(sender.channelTo(HostAndPort.parse(store.getStore().getAddress())))
                        .withDeadlineAfter(RESOLVED_TS_DEADLINE_MILLIS, TimeUnit.MILLISECONDS)
                        .getResolvedTs(GetResolvedTsRequest.getDefaultInstance());
            } catch (RuntimeException e) {
                LOG.debug("learner store {} did not give its resolved timestamp: {}", store.getStore().getId(),
                        e.toString());
                knownLearnerStores = null;
                return 0;
            }
            if (response.getReplicas() > 0) {
                lowest = Math.min(lowest, response.getMinResolvedTs());
            }
        }
        return lowest == Long.MAX_VALUE ? 0 : lowest;
    }

    private record LearnerStores(List<StoreInfo> stores, long fetchedNanos) {
    }

    private List<StoreInfo> learnerStores() {
        LearnerStores known = knownLearnerStores;
        long now = System.nanoTime();
        if (known != null && now - known.fetchedNanos() < LEARNER_STORES_TTL_NANOS) {
            return known.stores();
        }
        List<StoreInfo> stores = placement.getAllStores().stream()
                .filter(store -> store.getStore().getLabelsList().stream().anyMatch(label ->
                        label.getKey().equals(COLUMNAR_LABEL) && label.getValue().equals(COLUMNAR_ENGINE)))
                .filter(store -> store.getStore().getState() == StoreState.SERVING
                        && store.getLiveness() == StoreLiveness.UP)
                .toList();
        knownLearnerStores = new LearnerStores(stores, now);
        return stores;
    }

    /** A new timestamp from placement. */
    public long currentTimestamp() {
        return placement.getTimestamp().packed();
    }

    /**
     * Writes committed PUTs of {@code pairs} at {@code commitTs} without locks or conflict checks, one request per
     * region (and size), regions in parallel (KvImport). Only for versions no transaction needs checked: see
     * {@code ImportRequest} in kv.proto. Returns once every region has applied its part.
     */
    public void importCommitted(Map<ByteString, ByteString> pairs, long commitTs) {
        requireNonNull(pairs, "pairs is null");
        for (RegionBatches.Sent<ImportResponse> sent : batches.send(List.copyOf(pairs.keySet()), false,
                key -> KvLimits.pairBytes(key.size(), pairs.get(key).size()), (stub, context, keys) -> {
                    ImportRequest.Builder request = ImportRequest.newBuilder().setContext(context).setCommitVersion(commitTs);
                    for (ByteString key : keys) {
                        request.addPairs(KeyValue.newBuilder().setKey(key).setValue(pairs.get(key)));
                    }
                    return stub.kvImport(request.build());
                }, ImportResponse::getRegionError, ImportResponse::hasRegionError)) {
            if (!sent.response().getError().isEmpty()) {
                throw new DuetException(ErrorCode.INVALID_ARGUMENT, "import refused: " + sent.response().getError());
            }
        }
    }

    void finished(long startTs) {
        live.computeIfPresent(startTs, (ts, count) -> count.decrementAndGet() == 0 ? null : count);
    }

    private void publishSafePoint() {
        try {
            Long oldest = live.isEmpty() ? null : live.firstKey();
            long point = oldest == null ? 0 : oldest;
            if (point == publishedSafePoint) {
                return;
            }
            long ttl = Math.max(60, config.safePointInterval().toSeconds() * 10);
            placement.updateServiceSafePoint(serviceId, point, ttl);
            publishedSafePoint = point;
        } catch (RuntimeException e) {
            LOG.info("could not report the oldest live transaction to placement: {}", e.getMessage());
        }
    }

    public PlacementClient placement() {
        return placement;
    }

    TxnClientConfig config() {
        return config;
    }

    /** How many regions [start, end) spans now (from the region cache, asking placement what it lacks). */
    int regionCount(byte[] start, byte[] end) {
        return sender.regions().locateRange(start, end).size();
    }

    /** Whether every region of [start, end) has a replica on a column learner store (region cache). */
    boolean learnersCover(byte[] start, byte[] end) {
        return sender.learnersCover(start, end);
    }

    RegionBatches batches() {
        return batches;
    }

    LockResolver resolver() {
        return resolver;
    }

    CoprocessorReader coprocessor() {
        return coprocessor;
    }

    MppCoordinator mpp() {
        return mpp;
    }

    RegionRequestSender sender() {
        return sender;
    }

    ExecutorService workers() {
        return workers;
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    @Override
    public void close() {
        timers.shutdownNow();
        workers.shutdown();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.shutdownNow();
        try {
            if (publishedSafePoint != 0) {
                placement.updateServiceSafePoint(serviceId, 0, 0);
            }
        } catch (RuntimeException e) {
            LOG.debug("service safe point not removed: {}", e.getMessage());
        }
        sender.close();
    }
}
