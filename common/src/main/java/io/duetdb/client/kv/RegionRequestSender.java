package io.duetdb.client.kv;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.region.RegionCache;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KvGrpc;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;

/**
 * Sends a request to the replica of the region holding a key: finds the region through the region cache,
 * prefers the leader (or any replica for follower reads), and on a region error or an unreachable store
 * refreshes what it knows and retries with backoff until the request timeout.
 */
public final class RegionRequestSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RegionRequestSender.class);
    private static final long MAX_BACKOFF_MILLIS = 500;

    /** A batch met a region that changed under it; its requests must be regrouped by region and sent again. */
    public static final class RegionChanged extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RegionChanged() {
            super(null, null, false, false);
        }
    }

    private final RegionCache regions;
    /** When a region without a learner in the cache was last asked of placement again, by region id. */
    private final Map<Long, Long> learnerRechecks = new ConcurrentHashMap<>();
    private final Duration timeout;
    private static final String COLUMNAR_LABEL = "engine";
    private static final long LEARNER_RECHECK_NANOS = 2_000_000_000L;
    private static final String COLUMNAR_ENGINE = "columnar";
    private final ReplicaRead readMode;
    private final Map<HostAndPort, BatchCommandChannel> channels = new ConcurrentHashMap<>();
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            new NamedThreadFactory("client", "kv", "deadlines"));

    public RegionRequestSender(RegionCache regions, Duration timeout, ReplicaRead readMode) {
        this.regions = requireNonNull(regions, "regions is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.readMode = requireNonNull(readMode, "readMode is null");
    }

    /** How reads are served unless a call says otherwise. */
    public ReplicaRead readMode() {
        return readMode;
    }

    public RegionCache regions() {
        return regions;
    }

    public Duration timeout() {
        return timeout;
    }

    public <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf) {
        return call(key, read, rpc, regionErrorOf, hasRegionError, errorOf, region -> { }, false);
    }

    public <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed) {
        return call(key, read, rpc, regionErrorOf, hasRegionError, errorOf, regionUsed, false);
    }

    /**
     * Sends to the replica of the region holding {@code key}, retrying on region errors. With
     * {@code batched}, a change of the region's range (split, merge, moved keys) throws {@link RegionChanged}
     * so that the batch's requests are regrouped; otherwise the request is retried as it is.
     */
    public <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed, boolean batched) {
        return callChannel(key, read, (context, channel, remainingMillis) -> rpc.apply(context,
                KvGrpc.newBlockingStub(channel).withDeadlineAfter(Math.min(remainingMillis, 10_000), TimeUnit.MILLISECONDS)),
                regionErrorOf, hasRegionError, errorOf, regionUsed, batched);
    }

    /** One call over a store's channel; {@code remainingMillis} is what is left of the request timeout. */
    public interface ChannelCall<R> {
        R call(Context context, io.grpc.Channel channel, long remainingMillis);
    }

    /** As {@link #call} for any service of the store: the call gets the channel and sets its own deadline. */
    public <R> R callChannel(byte[] key, boolean read, ChannelCall<R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed, boolean batched) {
        return callChannel(key, read ? readMode : ReplicaRead.LEADER, rpc, regionErrorOf, hasRegionError, errorOf,
                regionUsed, batched);
    }

    /**
     * As above, reading from the replicas {@code replica} names: the leader, any replica (FOLLOWER), or a column
     * learner (LEARNER: a learner peer on a store labelled engine=columnar, which reads after a ReadIndex).
     */
    public <R> R callChannel(byte[] key, ReplicaRead replica, ChannelCall<R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed, boolean batched) {
        boolean read = replica != ReplicaRead.LEADER;
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = 5;
        String lastProblem = "no attempt";
        int attempt = 0;
        while (true) {
            RegionCache.CachedRegion cached;
            try {
                cached = regions.locate(key);
            } catch (DuetException e) {
                if (e.code() != ErrorCode.REGION_UNAVAILABLE) {
                    throw e;
                }
                // A region that has just split may not be known to placement yet.
                lastProblem = e.getMessage();
                backoff = sleep(deadline, backoff, lastProblem);
                continue;
            }
            Region region = cached.region();
            Peer target = choosePeer(cached, replica, attempt);
            if (target == null) {
                // No column learner in the region yet (placement adds them, and a split region waits for its own).
                regions.invalidate(region.getId());
                lastProblem = "region " + region.getId() + " has no column learner replica";
                backoff = sleep(deadline, backoff, lastProblem);
                continue;
            }
            attempt++;
            HostAndPort address;
            try {
                address = HostAndPort.parse(regions.store(target.getStoreId()).getStore().getAddress());
            } catch (RuntimeException e) {
                regions.invalidateStore(target.getStoreId());
                lastProblem = "store " + target.getStoreId() + " unknown: " + e.getMessage();
                backoff = sleep(deadline, backoff, lastProblem);
                continue;
            }
            Context context = Context.newBuilder().setRegionId(region.getId()).setRegionEpoch(region.getEpoch())
                    .setPeer(target).setReplicaRead(replica).build();
            R response;
            LOG.debug("attempt {} on region {} at store {} ({})", attempt, region.getId(), target.getStoreId(), address);
            try {
                long remaining = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                response = rpc.call(context, channel(address), remaining);
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (code != Status.Code.UNAVAILABLE && code != Status.Code.DEADLINE_EXCEEDED) {
                    throw new DuetException(ErrorCode.UNKNOWN_ERROR, "store " + target.getStoreId() + " failed: " + e.getStatus());
                }
                lastProblem = "store " + target.getStoreId() + " at " + address + ": " + e.getStatus().getCode();
                // The cached membership may be old (a store that left, or one that was never cached): ask placement.
                regions.invalidate(region.getId());
                regions.invalidateStore(target.getStoreId());
                backoff = sleep(deadline, backoff, lastProblem);
                continue;
            }
            if (!hasRegionError.apply(response)) {
                String error = errorOf.apply(response);
                if (error != null && !error.isEmpty()) {
                    throw new DuetException(ErrorCode.INVALID_ARGUMENT, error);
                }
                regionUsed.accept(region);
                if (!read && !target.equals(cached.leader())) {
                    regions.updateLeader(region.getId(), target);
                }
                return response;
            }
            RegionError error = regionErrorOf.apply(response);
            lastProblem = error.getMessage();
            LOG.debug("region {} at store {}: {}", region.getId(), target.getStoreId(), lastProblem);
            switch (error.getDetailCase()) {
                case NOT_LEADER -> {
                    Peer hint = error.getNotLeader().getLeader();
                    boolean known = error.getNotLeader().hasLeader() && !hint.equals(target)
                            && region.getPeersList().stream().anyMatch(p -> p.getStoreId() == hint.getStoreId());
                    if (known && attempt < 8) {
                        regions.updateLeader(region.getId(), hint);
                        continue;
                    }
                    regions.invalidate(region.getId());
                }
                case EPOCH_NOT_MATCH -> {
                    regions.invalidate(region.getId());
                    regions.updateRegions(error.getEpochNotMatch().getCurrentRegionsList());
                    if (batched) {
                        throw new RegionChanged();
                    }
                    continue;
                }
                case REGION_NOT_FOUND, KEY_NOT_IN_REGION, STORE_NOT_MATCH, REGION_IS_MERGING -> {
                    regions.invalidate(region.getId());
                    if (batched && error.getDetailCase() != RegionError.DetailCase.STORE_NOT_MATCH) {
                        throw new RegionChanged();
                    }
                }
                case DISK_FULL -> throw new DuetException(ErrorCode.STORE_SERVER_BUSY, error.getMessage());
                case SERVER_IS_BUSY -> backoff = Math.max(backoff, error.getServerIsBusy().getBackoffMs());
                default -> regions.invalidate(region.getId());
            }
            backoff = sleep(deadline, backoff, lastProblem);
        }
    }

    /** One asynchronous call to a store's KV service; the answer goes to {@code observer}. */
    public interface AsyncCall<R> {
        void call(Context context, KvGrpc.KvStub stub, StreamObserver<R> observer);
    }

    /**
     * One attempt, without blocking the calling thread, at a call to the region holding {@code key}: sent only
     * when the cache knows the region's leader and the leader's store (nothing here asks placement or sleeps).
     * The answer completes with the response, or with nothing when the attempt did not get one that stands (a
     * region error, a failed call): the caller then sends the request the blocking way, which retries, asks
     * placement and backs off. Empty when nothing was sent.
     */
    public <R> Optional<CompletableFuture<Optional<R>>> tryWithoutBlocking(byte[] key, AsyncCall<R> rpc,
            Function<R, Boolean> hasRegionError) {
        if (readMode != ReplicaRead.LEADER) {
            return Optional.empty();
        }
        Optional<RegionCache.CachedRegion> cached = regions.cachedLocation(key);
        if (cached.isEmpty() || cached.get().leader() == null) {
            return Optional.empty();
        }
        Peer leader = cached.get().leader();
        Optional<HostAndPort> address = regions.cachedStore(leader.getStoreId())
                .map(store -> HostAndPort.parse(store.getStore().getAddress()));
        if (address.isEmpty()) {
            return Optional.empty();
        }
        Region region = cached.get().region();
        Context context = Context.newBuilder().setRegionId(region.getId()).setRegionEpoch(region.getEpoch())
                .setPeer(leader).setReplicaRead(ReplicaRead.LEADER).build();
        CompletableFuture<Optional<R>> answer = new CompletableFuture<>();
        rpc.call(context, KvGrpc.newStub(channel(address.get())).withDeadlineAfter(Math.min(timeout.toMillis(),
                10_000), TimeUnit.MILLISECONDS), new StreamObserver<>() {
                    @Override
                    public void onNext(R response) {
                        answer.complete(hasRegionError.apply(response) ? Optional.empty() : Optional.of(response));
                    }

                    @Override
                    public void onError(Throwable t) {
                        answer.complete(Optional.empty());
                    }

                    @Override
                    public void onCompleted() {
                        answer.complete(Optional.empty());
                    }
                });
        return Optional.of(answer);
    }

    /**
     * The leader if known; else the voters in turn; for follower reads, any replica; for learner reads, the column
     * learners in turn (null when the region has none).
     */
    private Peer choosePeer(RegionCache.CachedRegion cached, ReplicaRead replica, int attempt) {
        if (replica == ReplicaRead.LEARNER) {
            List<Peer> learners = cached.region().getPeersList().stream()
                    .filter(p -> p.getRole() == PeerRole.LEARNER && isColumnarStore(p.getStoreId())).toList();
            return learners.isEmpty() ? null : learners.get(attempt % learners.size());
        }
        List<Peer> voters = cached.region().getPeersList().stream().filter(p -> p.getRole() == PeerRole.VOTER).toList();
        List<Peer> candidates = voters.isEmpty() ? cached.region().getPeersList() : voters;
        if (replica == ReplicaRead.FOLLOWER) {
            List<Peer> all = cached.region().getPeersList();
            return all.get(ThreadLocalRandom.current().nextInt(all.size()));
        }
        if (cached.leader() != null && attempt == 0) {
            return cached.leader();
        }
        if (cached.leader() != null && candidates.stream().anyMatch(p -> Objects.equals(p, cached.leader())) && attempt % 2 == 0) {
            return cached.leader();
        }
        return candidates.get(attempt % candidates.size());
    }

    /**
     * Whether every region of [start, end) has a learner on a column store. A cached region without one is asked of
     * placement again (at most once per {@link #LEARNER_RECHECK_NANOS} per region): the cache does not hear of
     * learners added since it loaded a region.
     */
    public boolean learnersCover(byte[] start, byte[] end) {
        for (RegionCache.CachedRegion cached : regions.locateRange(start, end)) {
            if (hasColumnarLearner(cached)) {
                continue;
            }
            long now = System.nanoTime();
            Long checked = learnerRechecks.get(cached.region().getId());
            if (checked != null && now - checked < LEARNER_RECHECK_NANOS) {
                return false;
            }
            learnerRechecks.put(cached.region().getId(), now);
            regions.invalidate(cached.region().getId());
            byte[] key = cached.region().getStartKey().toByteArray();
            if (!hasColumnarLearner(regions.locate(key.length == 0 ? start : key))) {
                return false;
            }
        }
        return true;
    }

    private boolean hasColumnarLearner(RegionCache.CachedRegion cached) {
        return cached.region().getPeersList().stream()
                .anyMatch(peer -> peer.getRole() == PeerRole.LEARNER && isColumnarStore(peer.getStoreId()));
    }

    private boolean isColumnarStore(long storeId) {
        try {
            return regions.store(storeId).getStore().getLabelsList().stream()
                    .anyMatch(label -> label.getKey().equals(COLUMNAR_LABEL) && label.getValue().equals(COLUMNAR_ENGINE));
        } catch (RuntimeException e) {
            return false;
        }
    }

    long sleep(long deadline, long backoff, String problem) {
        if (System.nanoTime() - deadline > 0) {
            throw new DuetException(ErrorCode.REGION_UNAVAILABLE, "no replica answered within " + timeout.toMillis()
                    + " ms (last: " + problem + ")");
        }
        try {
            Thread.sleep(backoff);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted");
        }
        return Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
    }

    /** The channel to a store, for its other services. */
    public io.grpc.Channel channelTo(HostAndPort address) {
        return channel(address);
    }

    private BatchCommandChannel channel(HostAndPort address) {
        // Direct executor: callers use blocking stubs, whose calls bring their own executor, and the command stream's
        // observer only hands answers over, so answers need no extra thread hop.
        return channels.computeIfAbsent(address, a -> new BatchCommandChannel(NettyChannelBuilder.forAddress(a.host(), a.port())
                .usePlaintext().directExecutor().maxInboundMessageSize(64 << 20).build(), deadlines));
    }


    @Override
    public void close() {
        channels.values().forEach(BatchCommandChannel::close);
        channels.clear();
        deadlines.shutdownNow();
    }
}
