package io.duetdb.client.kv;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.region.RegionCache;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.KvGrpc;
import io.duetdb.proto.kv.RawBatchGetRequest;
import io.duetdb.proto.kv.RawBatchGetResponse;
import io.duetdb.proto.kv.RawBatchPutRequest;
import io.duetdb.proto.kv.RawBatchPutResponse;
import io.duetdb.proto.kv.RawDeleteRangeRequest;
import io.duetdb.proto.kv.RawDeleteRangeResponse;
import io.duetdb.proto.kv.RawDeleteRequest;
import io.duetdb.proto.kv.RawDeleteResponse;
import io.duetdb.proto.kv.RawScanRequest;
import io.duetdb.proto.kv.RawScanResponse;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.meta.Region;

/**
 * The raw (non-transactional) key-value API of the cluster. Finds each key's region through the region
 * cache, sends to the region's leader (or to a follower for follower reads), and on a region error refreshes
 * what it knows and retries with backoff until the request timeout.
 */
public final class RawKvClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RawKvClient.class);
    private static final long MAX_BACKOFF_MILLIS = 500;

    /** Keys a batch RPC carries at most. */
    private static final int MAX_BATCH = 256;
    /** Batch RPCs in flight per region. */
    private static final int MAX_INFLIGHT = 2;

    private final RegionCache regions;
    private final RegionRequestSender sender;
    private final ExecutorService senders;
    private final RequestBatcher<byte[], Void> puts;
    private final RequestBatcher<Void, Optional<byte[]>> gets;

    public RawKvClient(PlacementClient placement, Duration timeout, ReplicaRead readMode) {
        this.regions = new RegionCache(requireNonNull(placement, "placement is null"));
        this.sender = new RegionRequestSender(regions, requireNonNull(timeout, "timeout is null"),
                requireNonNull(readMode, "readMode is null"));
        this.senders = Executors.newFixedThreadPool(8, new NamedThreadFactory("client", "kv", "batch"));
        this.puts = new RequestBatcher<>(key -> regions.locate(key).region().getId(), this::sendPuts, senders,
                MAX_BATCH, KvLimits.MAX_WRITE_BYTES,
                pending -> KvLimits.pairBytes(pending.key().length, pending.request().length), MAX_INFLIGHT);
        this.gets = new RequestBatcher<>(key -> regions.locate(key).region().getId(), this::sendGets, senders,
                MAX_BATCH, Long.MAX_VALUE, pending -> 0, MAX_INFLIGHT);
    }

    public RawKvClient(PlacementClient placement) {
        this(placement, Duration.ofSeconds(20), ReplicaRead.LEADER);
    }

    /** The value of {@code key}, or empty. Concurrent gets of one region share a batch RPC. */
    public Optional<byte[]> get(byte[] key) {
        checkKey(key);
        return await(gets.submit(key, null));
    }

    /** Writes one pair; concurrent puts to one region share a batch RPC (and one Raft command). */
    public void put(byte[] key, byte[] value) {
        await(putAsync(key, value));
    }

    /** As {@link #put}, without waiting: completes when the write is replicated and applied. */
    public java.util.concurrent.CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
        checkKey(key);
        checkValue(value);
        return puts.submit(key, value);
    }

    private static void checkValue(byte[] value) {
        if (value.length > KvLimits.MAX_VALUE_BYTES) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "value of " + value.length
                    + " bytes exceeds the limit of " + KvLimits.MAX_VALUE_BYTES);
        }
    }

    /** Cuts each region's keys into groups that fit in one write. */
    private static List<List<byte[]>> bySize(List<List<byte[]>> groups, Map<byte[], byte[]> pairs) {
        List<List<byte[]>> cut = new ArrayList<>();
        for (List<byte[]> group : groups) {
            List<byte[]> current = new ArrayList<>();
            long bytes = 0;
            for (byte[] key : group) {
                long weight = KvLimits.pairBytes(key.length, pairs.get(key).length);
                if (!current.isEmpty() && bytes + weight > KvLimits.MAX_WRITE_BYTES) {
                    cut.add(current);
                    current = new ArrayList<>();
                    bytes = 0;
                }
                current.add(key);
                bytes += weight;
            }
            if (!current.isEmpty()) {
                cut.add(current);
            }
        }
        return cut;
    }

    /** As {@link #get}, without waiting. */
    public java.util.concurrent.CompletableFuture<Optional<byte[]>> getAsync(byte[] key) {
        checkKey(key);
        return gets.submit(key, null);
    }

    private static void checkKey(byte[] key) {
        if (key.length == 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "key must not be empty");
        }
        if (key.length > KvLimits.MAX_KEY_BYTES) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "key of " + key.length
                    + " bytes exceeds the limit of " + KvLimits.MAX_KEY_BYTES);
        }
    }

    private static <V> V await(java.util.concurrent.CompletableFuture<V> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    private void sendPuts(long regionId, List<RequestBatcher.Pending<byte[], Void>> batch) {
        try {
            call(batch.get(0).key(), false, (context, stub) -> {
                RawBatchPutRequest.Builder request = RawBatchPutRequest.newBuilder().setContext(context);
                for (RequestBatcher.Pending<byte[], Void> pending : batch) {
                    request.addPairs(KeyValue.newBuilder().setKey(ByteString.copyFrom(pending.key()))
                            .setValue(ByteString.copyFrom(pending.request())));
                }
                return stub.rawBatchPut(request.build());
            }, RawBatchPutResponse::getRegionError, RawBatchPutResponse::hasRegionError, RawBatchPutResponse::getError,
                    region -> { }, true);
            batch.forEach(pending -> pending.result().complete(null));
        } catch (RegionRequestSender.RegionChanged e) {
            batch.forEach(puts::enqueue);
        }
    }

    private void sendGets(long regionId, List<RequestBatcher.Pending<Void, Optional<byte[]>>> batch) {
        try {
            RawBatchGetResponse response = call(batch.get(0).key(), true, (context, stub) -> stub.rawBatchGet(
                    RawBatchGetRequest.newBuilder().setContext(context)
                            .addAllKeys(batch.stream().map(pending -> ByteString.copyFrom(pending.key())).toList()).build()),
                    RawBatchGetResponse::getRegionError, RawBatchGetResponse::hasRegionError, RawBatchGetResponse::getError,
                    region -> { }, true);
            Map<ByteString, byte[]> found = new java.util.HashMap<>();
            for (KeyValue pair : response.getPairsList()) {
                found.put(pair.getKey(), pair.getValue().toByteArray());
            }
            for (RequestBatcher.Pending<Void, Optional<byte[]>> pending : batch) {
                pending.result().complete(Optional.ofNullable(found.get(ByteString.copyFrom(pending.key()))));
            }
        } catch (RegionRequestSender.RegionChanged e) {
            batch.forEach(gets::enqueue);
        }
    }

    public void delete(byte[] key) {
        call(key, false, (context, stub) -> stub.rawDelete(RawDeleteRequest.newBuilder().setContext(context)
                .setKey(ByteString.copyFrom(key)).build()),
                RawDeleteResponse::getRegionError, RawDeleteResponse::hasRegionError, RawDeleteResponse::getError);
    }

    /** Values of the keys that exist, by key (in the order given). */
    public Map<ByteString, byte[]> batchGet(List<byte[]> keys) {
        Map<ByteString, byte[]> result = new LinkedHashMap<>();
        for (List<byte[]> group : groupByRegion(keys)) {
            RawBatchGetResponse response = call(group.get(0), true, (context, stub) -> stub.rawBatchGet(
                    RawBatchGetRequest.newBuilder().setContext(context)
                            .addAllKeys(group.stream().map(ByteString::copyFrom).toList()).build()),
                    RawBatchGetResponse::getRegionError, RawBatchGetResponse::hasRegionError, RawBatchGetResponse::getError);
            for (KeyValue pair : response.getPairsList()) {
                result.put(pair.getKey(), pair.getValue().toByteArray());
            }
        }
        return result;
    }

    /**
     * Puts every pair. Pairs in one region are written atomically when together they fit in one write
     * ({@link KvLimits#MAX_WRITE_BYTES}); larger groups and different regions are written one after another.
     */
    public void batchPut(Map<byte[], byte[]> pairs) {
        List<byte[]> keys = new ArrayList<>(pairs.keySet());
        for (byte[] key : keys) {
            checkKey(key);
            checkValue(pairs.get(key));
        }
        for (List<byte[]> group : bySize(groupByRegion(keys), pairs)) {
            call(group.get(0), false, (context, stub) -> {
                RawBatchPutRequest.Builder request = RawBatchPutRequest.newBuilder().setContext(context);
                for (byte[] key : group) {
                    request.addPairs(KeyValue.newBuilder().setKey(ByteString.copyFrom(key))
                            .setValue(ByteString.copyFrom(pairs.get(key))));
                }
                return stub.rawBatchPut(request.build());
            }, RawBatchPutResponse::getRegionError, RawBatchPutResponse::hasRegionError, RawBatchPutResponse::getError);
        }
    }

    /** Up to {@code limit} pairs in [start, end), ascending (or descending with {@code reverse}). */
    public List<KeyValue> scan(byte[] start, byte[] end, int limit, boolean reverse) {
        if (!KeyRanges.isValid(start, end)) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "scan range is reversed: start key is not before end key");
        }
        if (limit <= 0) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "scan limit must be positive");
        }
        List<KeyValue> result = new ArrayList<>();
        if (!reverse) {
            byte[] cursor = start;
            while (result.size() < limit) {
                byte[] from = cursor;
                int remaining = limit - result.size();
                byte[][] regionEnd = new byte[1][];
                RawScanResponse response = call(from, true, (context, stub) -> stub.rawScan(RawScanRequest.newBuilder()
                        .setContext(context).setStartKey(ByteString.copyFrom(from)).setEndKey(ByteString.copyFrom(end))
                        .setLimit(Math.min(remaining, 10_000)).build()), RawScanResponse::getRegionError,
                        RawScanResponse::hasRegionError, RawScanResponse::getError, region -> regionEnd[0] = region.getEndKey().toByteArray());
                result.addAll(response.getPairsList());
                byte[] next = regionEnd[0];
                if (next == null || next.length == 0 || (end.length > 0 && KeyRanges.compare(next, end) >= 0)
                        || response.getPairsCount() >= remaining) {
                    break;
                }
                cursor = next;
            }
            return result.size() > limit ? result.subList(0, limit) : result;
        }
        List<RegionCache.CachedRegion> covering = regions.locateRange(start, end);
        for (int i = covering.size() - 1; i >= 0 && result.size() < limit; i--) {
            Region region = covering.get(i).region();
            byte[] from = KeyRanges.compare(start, region.getStartKey().toByteArray()) > 0 ? start : region.getStartKey().toByteArray();
            byte[] to = KeyRanges.compareEnds(end, region.getEndKey().toByteArray()) <= 0 ? end : region.getEndKey().toByteArray();
            int remaining = limit - result.size();
            RawScanResponse response = call(from, true, (context, stub) -> stub.rawScan(RawScanRequest.newBuilder()
                    .setContext(context).setStartKey(ByteString.copyFrom(from)).setEndKey(ByteString.copyFrom(to))
                    .setLimit(Math.min(remaining, 10_000)).setReverse(true).build()), RawScanResponse::getRegionError,
                    RawScanResponse::hasRegionError, RawScanResponse::getError);
            result.addAll(response.getPairsList());
        }
        return result;
    }

    /** Deletes every key in [start, end), region by region. */
    public void deleteRange(byte[] start, byte[] end) {
        deleteRange(start, end, false);
    }

    /**
     * Deletes every version, lock and value of the transactional data in [start, end), region by region, at
     * once: only for data no snapshot can read any more (a dropped table after the GC safe point passed).
     */
    public void destroyTransactionalRange(byte[] start, byte[] end) {
        deleteRange(start, end, true);
    }

    private void deleteRange(byte[] start, byte[] end, boolean transactionalData) {
        if (!KeyRanges.isValid(start, end)) {
            throw new DuetException(ErrorCode.INVALID_ARGUMENT, "delete range is reversed: start key is not before end key");
        }
        for (RegionCache.CachedRegion cached : regions.locateRange(start, end)) {
            Region region = cached.region();
            byte[] from = KeyRanges.compare(start, region.getStartKey().toByteArray()) > 0 ? start : region.getStartKey().toByteArray();
            byte[] to = KeyRanges.compareEnds(end, region.getEndKey().toByteArray()) <= 0 ? end : region.getEndKey().toByteArray();
            call(from, false, (context, stub) -> stub.rawDeleteRange(RawDeleteRangeRequest.newBuilder().setContext(context)
                    .setStartKey(ByteString.copyFrom(from)).setEndKey(ByteString.copyFrom(to))
                    .setTransactionalData(transactionalData).build()),
                    RawDeleteRangeResponse::getRegionError, RawDeleteRangeResponse::hasRegionError,
                    RawDeleteRangeResponse::getError);
        }
    }

    private List<List<byte[]>> groupByRegion(List<byte[]> keys) {
        Map<Long, List<byte[]>> groups = new LinkedHashMap<>();
        for (byte[] key : keys) {
            groups.computeIfAbsent(regions.locate(key).region().getId(), id -> new ArrayList<>()).add(key);
        }
        return new ArrayList<>(groups.values());
    }

    private <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf) {
        return sender.call(key, read, rpc, regionErrorOf, hasRegionError, errorOf);
    }

    private <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed) {
        return sender.call(key, read, rpc, regionErrorOf, hasRegionError, errorOf, regionUsed, false);
    }

    private <R> R call(byte[] key, boolean read, BiFunction<Context, KvGrpc.KvBlockingStub, R> rpc,
            Function<R, RegionError> regionErrorOf, Function<R, Boolean> hasRegionError, Function<R, String> errorOf,
            java.util.function.Consumer<Region> regionUsed, boolean batched) {
        return sender.call(key, read, rpc, regionErrorOf, hasRegionError, errorOf, regionUsed, batched);
    }

    @Override
    public void close() {
        senders.shutdownNow();
        sender.close();
    }
}
