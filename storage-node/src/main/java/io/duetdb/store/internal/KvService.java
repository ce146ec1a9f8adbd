package io.duetdb.store.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.keys.KvLimits;
import io.duetdb.common.region.RegionErrors;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.kv.Context;
import io.duetdb.proto.kv.KeyValue;
import io.duetdb.proto.kv.RawBatchGetRequest;
import io.duetdb.proto.kv.RawBatchGetResponse;
import io.duetdb.proto.kv.RawBatchPutRequest;
import io.duetdb.proto.kv.RawBatchPutResponse;
import io.duetdb.proto.kv.RawDeleteRangeRequest;
import io.duetdb.proto.kv.RawDeleteRangeResponse;
import io.duetdb.proto.kv.RawDeleteRequest;
import io.duetdb.proto.kv.RawDeleteResponse;
import io.duetdb.proto.kv.RawGetRequest;
import io.duetdb.proto.kv.RawGetResponse;
import io.duetdb.proto.kv.RawPutRequest;
import io.duetdb.proto.kv.RawPutResponse;
import io.duetdb.proto.kv.RawScanRequest;
import io.duetdb.proto.kv.RawScanResponse;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RawDelete;
import io.duetdb.proto.raftcmd.RawDeleteRange;
import io.duetdb.proto.raftcmd.RawPut;
import io.duetdb.raft.NotLeaderException;
import io.duetdb.raft.RaftGroupHandle;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.internal.region.RegionPeer;

/**
 * The raw key-value API of a store: every request names a region and its epoch; the store checks them,
 * reads under the leader's lease (or after a ReadIndex round), and writes through the region's proposer.
 */
public final class KvService {
    public static final int MAX_SCAN_LIMIT = 10_000;

    private final StoreNode node;
    private final DiskMonitor disk;

    public KvService(StoreNode node, DiskMonitor disk) {
        this.node = requireNonNull(node, "node is null");
        this.disk = requireNonNull(disk, "disk is null");
    }

    /** A request the store refuses before touching data: a region error, or a plain error for bad input. */
    static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient RegionError regionError;

        Refusal(RegionError regionError) {
            super(regionError.getMessage(), null, false, false);
            this.regionError = regionError;
        }

        Refusal(String message) {
            super(message, null, false, false);
            this.regionError = null;
        }
    }

    RegionPeer checkedPeer(Context context, List<ByteString> keys, boolean write) {
        RegionPeer peer = node.peer(context.getRegionId())
                .orElseThrow(() -> new Refusal(RegionErrors.regionNotFound(context.getRegionId())));
        RegionLocalState state = peer.state();
        if (state == null || state.getState() == PeerState.TOMBSTONE || !peer.isAttached()) {
            throw new Refusal(RegionErrors.regionNotFound(context.getRegionId()));
        }
        if (context.hasPeer() && context.getPeer().getStoreId() != 0 && context.getPeer().getStoreId() != node.storeId()) {
            throw new Refusal(RegionErrors.storeNotMatch(context.getPeer().getStoreId(), node.storeId()));
        }
        Region region = state.getRegion();
        if (context.getRegionEpoch().getVersion() != region.getEpoch().getVersion()) {
            throw new Refusal(RegionErrors.epochNotMatch(currentRegions(region),
                    "region " + region.getId() + " is at version " + region.getEpoch().getVersion()
                            + ", the request named version " + context.getRegionEpoch().getVersion()));
        }
        if (write && state.getState() == PeerState.MERGING) {
            throw new Refusal(RegionErrors.merging(region.getId()));
        }
        for (ByteString key : keys) {
            if (!KeyRanges.contains(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), key.toByteArray())) {
                throw new Refusal(RegionErrors.keyNotInRegion(key.toByteArray(), region));
            }
        }
        if (write) {
            if (!peer.isLeaderReady()) {
                throw new Refusal(RegionErrors.notLeader(region.getId(), peer.leaderPeer().orElse(null)));
            }
            if (disk.isFull()) {
                throw new Refusal(RegionErrors.diskFull(node.storeId(), disk.describe()));
            }
        }
        return peer;
    }

    /** The region and what this store knows of regions split off it, for a client to refresh its cache. */
    private List<Region> currentRegions(Region region) {
        List<Region> regions = new ArrayList<>();
        regions.add(region);
        for (RegionPeer other : node.peers()) {
            Region candidate = other.region();
            if (candidate != null && candidate.getId() != region.getId()
                    && candidate.getStartKey().equals(region.getEndKey()) && !region.getEndKey().isEmpty()) {
                regions.add(candidate);
            }
        }
        return regions;
    }

    /** Completes when a read at this replica sees every write acknowledged before the read began. */
    CompletableFuture<Void> readBarrier(RegionPeer peer, ReplicaRead mode) {
        RaftGroupHandle handle = peer.handle();
        if (mode == ReplicaRead.FOLLOWER) {
            return handle.readIndex();
        }
        if (!peer.isLeaderReady()) {
            throw new Refusal(RegionErrors.notLeader(peer.regionId(), peer.leaderPeer().orElse(null)));
        }
        long term = handle.currentTerm();
        long now = System.nanoTime();
        if (peer.lease().isValid(term, now)) {
            if (peer.lease().isExpiringSoon(now)) {
                handle.readIndex().thenRun(() -> peer.lease().renew(term, now));
            }
            return CompletableFuture.completedFuture(null);
        }
        return handle.readIndex().thenRun(() -> peer.lease().renew(term, now));
    }

    RegionError barrierError(RegionPeer peer, Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof Refusal refusal && refusal.regionError != null) {
            return refusal.regionError;
        }
        if (cause instanceof NotLeaderException notLeader) {
            peer.lease().revoke();
            return RegionErrors.notLeader(peer.regionId(), notLeader.leaderId().flatMap(id -> peer.region() == null
                    ? Optional.empty() : peer.region().getPeersList().stream()
                            .filter(p -> p.getStoreId() == StorePeers.storeIdOf(id)).findFirst()).orElse(null));
        }
        return RegionErrors.serverIsBusy("read barrier: " + cause.getMessage(), 50);
    }

    static void checkKey(ByteString key) {
        if (key.isEmpty()) {
            throw new Refusal("key must not be empty");
        }
        if (key.size() > KvLimits.MAX_KEY_BYTES) {
            throw new Refusal("key of " + key.size() + " bytes exceeds the limit of " + KvLimits.MAX_KEY_BYTES);
        }
    }

    static void checkValue(ByteString value) {
        if (value.size() > KvLimits.MAX_VALUE_BYTES) {
            throw new Refusal("value of " + value.size() + " bytes exceeds the limit of " + KvLimits.MAX_VALUE_BYTES);
        }
    }

    private static <T> CompletableFuture<T> refused(Refusal refusal, java.util.function.BiFunction<RegionError, String, T> respond) {
        return CompletableFuture.completedFuture(refusal.regionError != null ? respond.apply(refusal.regionError, "")
                : respond.apply(null, refusal.getMessage()));
    }

    // ---- reads ----

    public CompletableFuture<RawGetResponse> get(RawGetRequest request) {
        java.util.function.BiFunction<RegionError, String, RawGetResponse> failure = (regionError, error) -> {
            RawGetResponse.Builder response = RawGetResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        RegionPeer peer;
        try {
            checkKey(request.getKey());
            peer = checkedPeer(request.getContext(), List.of(request.getKey()), false);
            return readBarrier(peer, request.getContext().getReplicaRead()).handle((ignored, error) -> {
                if (error != null) {
                    return failure.apply(barrierError(peer, error), "");
                }
                byte[] value = node.engine().get(ColumnFamily.DEFAULT, Keys.dataKey(request.getKey().toByteArray()));
                return value == null ? RawGetResponse.newBuilder().setNotFound(true).build()
                        : RawGetResponse.newBuilder().setValue(ByteString.copyFrom(value)).build();
            });
        } catch (Refusal refusal) {
            return refused(refusal, failure);
        }
    }

    public CompletableFuture<RawBatchGetResponse> batchGet(RawBatchGetRequest request) {
        java.util.function.BiFunction<RegionError, String, RawBatchGetResponse> failure = (regionError, error) -> {
            RawBatchGetResponse.Builder response = RawBatchGetResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        try {
            request.getKeysList().forEach(KvService::checkKey);
            RegionPeer peer = checkedPeer(request.getContext(), request.getKeysList(), false);
            return readBarrier(peer, request.getContext().getReplicaRead()).handle((ignored, error) -> {
                if (error != null) {
                    return failure.apply(barrierError(peer, error), "");
                }
                RawBatchGetResponse.Builder response = RawBatchGetResponse.newBuilder();
                for (ByteString key : request.getKeysList()) {
                    byte[] value = node.engine().get(ColumnFamily.DEFAULT, Keys.dataKey(key.toByteArray()));
                    if (value != null) {
                        response.addPairs(KeyValue.newBuilder().setKey(key).setValue(ByteString.copyFrom(value)));
                    }
                }
                return response.build();
            });
        } catch (Refusal refusal) {
            return refused(refusal, failure);
        }
    }

    public CompletableFuture<RawScanResponse> scan(RawScanRequest request) {
        java.util.function.BiFunction<RegionError, String, RawScanResponse> failure = (regionError, error) -> {
            RawScanResponse.Builder response = RawScanResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        try {
            byte[] start = request.getStartKey().toByteArray();
            byte[] end = request.getEndKey().toByteArray();
            if (!KeyRanges.isValid(start, end)) {
                throw new Refusal("scan range is reversed: start key is not before end key");
            }
            if (request.getLimit() > MAX_SCAN_LIMIT) {
                throw new Refusal("scan limit " + request.getLimit() + " exceeds " + MAX_SCAN_LIMIT);
            }
            RegionPeer peer = checkedPeer(request.getContext(), List.of(request.getStartKey()), false);
            int limit = request.getLimit() == 0 ? MAX_SCAN_LIMIT : request.getLimit();
            return readBarrier(peer, request.getContext().getReplicaRead()).handle((ignored, error) -> {
                if (error != null) {
                    return failure.apply(barrierError(peer, error), "");
                }
                Region region = peer.region();
                byte[] lower = Keys.dataKey(start);
                byte[] upperUser = KeyRanges.compareEnds(end, region.getEndKey().toByteArray()) <= 0
                        ? end : region.getEndKey().toByteArray();
                byte[] upper = Keys.dataEndKey(upperUser);
                RawScanResponse.Builder response = RawScanResponse.newBuilder();
                try (EngineIterator iterator = node.engine().iterator(ColumnFamily.DEFAULT, lower, upper)) {
                    if (request.getReverse()) {
                        iterator.seekToLast();
                    } else {
                        iterator.seekToFirst();
                    }
                    while (iterator.valid() && response.getPairsCount() < limit) {
                        KeyValue.Builder pair = KeyValue.newBuilder().setKey(ByteString.copyFrom(Keys.userKeyOf(iterator.key())));
                        if (!request.getKeyOnly()) {
                            pair.setValue(ByteString.copyFrom(iterator.value()));
                        }
                        response.addPairs(pair);
                        if (request.getReverse()) {
                            iterator.prev();
                        } else {
                            iterator.next();
                        }
                    }
                }
                return response.build();
            });
        } catch (Refusal refusal) {
            return refused(refusal, failure);
        }
    }

    // ---- writes ----

    private <T> CompletableFuture<T> write(Context context, List<ByteString> keys, RaftCommand.Builder command,
            java.util.function.BiFunction<RegionError, String, T> respond) {
        try {
            RegionPeer peer = checkedPeer(context, keys, true);
            command.setEpoch(peer.region().getEpoch());
            return peer.propose(command.build()).thenApply((CommandResult result) -> result.hasRegionError()
                    ? respond.apply(result.getRegionError(), "") : respond.apply(null, result.getError()));
        } catch (Refusal refusal) {
            return refused(refusal, respond);
        }
    }

    public CompletableFuture<RawPutResponse> put(RawPutRequest request) {
        java.util.function.BiFunction<RegionError, String, RawPutResponse> respond = (regionError, error) -> {
            RawPutResponse.Builder response = RawPutResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        try {
            checkKey(request.getKey());
            checkValue(request.getValue());
        } catch (Refusal refusal) {
            return refused(refusal, respond);
        }
        RaftCommand.Builder command = RaftCommand.newBuilder().setRawPut(RawPut.newBuilder()
                .addPairs(io.duetdb.proto.raftcmd.KeyValue.newBuilder().setKey(request.getKey()).setValue(request.getValue())));
        return write(request.getContext(), List.of(request.getKey()), command, respond);
    }

    public CompletableFuture<RawBatchPutResponse> batchPut(RawBatchPutRequest request) {
        java.util.function.BiFunction<RegionError, String, RawBatchPutResponse> respond = (regionError, error) -> {
            RawBatchPutResponse.Builder response = RawBatchPutResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        RawPut.Builder put = RawPut.newBuilder();
        List<ByteString> keys = new ArrayList<>();
        long total = 0;
        try {
            for (KeyValue pair : request.getPairsList()) {
                checkKey(pair.getKey());
                checkValue(pair.getValue());
                total += KvLimits.pairBytes(pair.getKey().size(), pair.getValue().size());
                keys.add(pair.getKey());
                put.addPairs(io.duetdb.proto.raftcmd.KeyValue.newBuilder().setKey(pair.getKey()).setValue(pair.getValue()));
            }
            if (total > KvLimits.MAX_WRITE_BYTES) {
                throw new Refusal("batch of " + total + " bytes exceeds the limit of " + KvLimits.MAX_WRITE_BYTES
                        + " for one write");
            }
        } catch (Refusal refusal) {
            return refused(refusal, respond);
        }
        return write(request.getContext(), keys, RaftCommand.newBuilder().setRawPut(put), respond);
    }

    public CompletableFuture<RawDeleteResponse> delete(RawDeleteRequest request) {
        java.util.function.BiFunction<RegionError, String, RawDeleteResponse> respond = (regionError, error) -> {
            RawDeleteResponse.Builder response = RawDeleteResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        try {
            checkKey(request.getKey());
        } catch (Refusal refusal) {
            return refused(refusal, respond);
        }
        return write(request.getContext(), List.of(request.getKey()),
                RaftCommand.newBuilder().setRawDelete(RawDelete.newBuilder().addKeys(request.getKey())), respond);
    }

    public CompletableFuture<RawDeleteRangeResponse> deleteRange(RawDeleteRangeRequest request) {
        java.util.function.BiFunction<RegionError, String, RawDeleteRangeResponse> respond = (regionError, error) -> {
            RawDeleteRangeResponse.Builder response = RawDeleteRangeResponse.newBuilder().setError(error);
            if (regionError != null) {
                response.setRegionError(regionError);
            }
            return response.build();
        };
        byte[] start = request.getStartKey().toByteArray();
        byte[] end = request.getEndKey().toByteArray();
        if (!KeyRanges.isValid(start, end)) {
            return refused(new Refusal("delete range is reversed: start key is not before end key"), respond);
        }
        return write(request.getContext(), List.of(request.getStartKey()), RaftCommand.newBuilder()
                .setRawDeleteRange(RawDeleteRange.newBuilder().setStartKey(request.getStartKey()).setEndKey(request.getEndKey())
                        .setAllColumnFamilies(request.getTransactionalData())),
                respond);
    }
}
