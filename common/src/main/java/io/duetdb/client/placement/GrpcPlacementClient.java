package io.duetdb.client.placement;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;
import io.duetdb.proto.meta.Store;
import io.duetdb.proto.meta.StoreState;
import io.duetdb.proto.placement.AllocIdRequest;
import io.duetdb.proto.placement.DeletePlacementRuleRequest;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.GetAllStoresRequest;
import io.duetdb.proto.placement.GetMembersRequest;
import io.duetdb.proto.placement.CleanUpWaitForRequest;
import io.duetdb.proto.placement.CleanUpWaitForResponse;
import io.duetdb.proto.placement.DetectDeadlockRequest;
import io.duetdb.proto.placement.DetectDeadlockResponse;
import io.duetdb.proto.placement.GetGcSafePointRequest;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.UpdateServiceSafePointRequest;
import io.duetdb.proto.placement.UpdateServiceSafePointResponse;
import io.duetdb.proto.placement.GetPlacementRulesRequest;
import io.duetdb.proto.placement.GetRegionByIdRequest;
import io.duetdb.proto.placement.GetRegionRequest;
import io.duetdb.proto.placement.GetRegionResponse;
import io.duetdb.proto.placement.GetStoreRequest;
import io.duetdb.proto.placement.IdKind;
import io.duetdb.proto.placement.Member;
import io.duetdb.proto.placement.PlacementGrpc;
import io.duetdb.proto.placement.PlacementRule;
import io.duetdb.proto.placement.PutPlacementRuleRequest;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegionInfo;
import io.duetdb.proto.placement.RegisterStoreRequest;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.RequestHeader;
import io.duetdb.proto.placement.ResponseHeader;
import io.duetdb.proto.placement.ScanRegionsRequest;
import io.duetdb.proto.placement.SetStoreStateRequest;
import io.duetdb.proto.placement.StoreHeartbeatRequest;
import io.duetdb.proto.placement.StoreInfo;
import io.duetdb.proto.placement.StoreStats;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** The placement client over gRPC: leader discovery through GetMembers, redirects, retries with backoff. */
public final class GrpcPlacementClient implements PlacementClient {
    private static final Logger LOG = LoggerFactory.getLogger(GrpcPlacementClient.class);
    private static final long DISCOVERY_CALL_MILLIS = 1_000;
    private static final long MAX_BACKOFF_MILLIS = 500;

    private final PlacementClientConfig config;
    private final Set<HostAndPort> endpoints = new CopyOnWriteArraySet<>();
    private final ConcurrentHashMap<HostAndPort, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final TsoDispatcher tso;
    private volatile HostAndPort leader;
    private volatile long clusterId;
    private volatile boolean closed;
    private volatile String lastDiscoveryError = "no member answered";

    public GrpcPlacementClient(PlacementClientConfig config, String owner) {
        this.config = requireNonNull(config, "config is null");
        endpoints.addAll(config.endpoints());
        tso = new TsoDispatcher(new TsoDispatcher.StreamTarget() {
            @Override
            public PlacementGrpc.PlacementStub leaderStub(long deadlineNanos) {
                HostAndPort target = leader != null ? leader : discoverLeader(deadlineNanos);
                return target == null ? null : PlacementGrpc.newStub(channel(target));
            }

            @Override
            public RequestHeader header() {
                return GrpcPlacementClient.this.header();
            }

            @Override
            public void leaderMoved(String leaderAddress) {
                moveLeader(leaderAddress);
            }

            @Override
            public void learnClusterId(long id) {
                GrpcPlacementClient.this.learnClusterId(id);
            }
        }, config.requestTimeout().toNanos(), config.tsoMaxBatch(), config.tsoMaxInflight(),
                () -> lastDiscoveryError, new NamedThreadFactory("client", owner, "tso"));
    }

    @Override
    public long clusterId() {
        return clusterId;
    }

    @Override
    public Timestamp getTimestamp() {
        try {
            return tso.next().get();
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while waiting for a timestamp");
        }
    }

    @Override
    public CompletableFuture<Timestamp> getTimestampAsync() {
        return tso.next();
    }

    /** TSO batching and latency since the previous call (for benchmarks and metrics). */
    public TsoStatistics tsoStatistics() {
        return tso.statistics();
    }

    @Override
    public long allocateIds(IdKind kind, int count) {
        return call("AllocId", (stub, header) -> stub.allocId(AllocIdRequest.newBuilder()
                .setHeader(header).setKind(kind).setCount(count).build()), r -> r.getHeader()).getFirstId();
    }

    @Override
    public GetMembersResponse getMembers() {
        return call("GetMembers", (stub, header) -> stub.getMembers(GetMembersRequest.newBuilder()
                .setHeader(header).build()), GetMembersResponse::getHeader);
    }

    @Override
    public RegisterStoreResponse registerStore(Store store) {
        return call("RegisterStore", (stub, header) -> stub.registerStore(RegisterStoreRequest.newBuilder()
                .setHeader(header).setStore(store).build()), RegisterStoreResponse::getHeader);
    }

    @Override
    public Store setStoreState(long storeId, StoreState state) {
        return call("SetStoreState", (stub, header) -> stub.setStoreState(SetStoreStateRequest.newBuilder()
                .setHeader(header).setStoreId(storeId).setState(state).build()), r -> r.getHeader()).getStore();
    }

    @Override
    public void storeHeartbeat(StoreStats stats) {
        call("StoreHeartbeat", (stub, header) -> stub.storeHeartbeat(StoreHeartbeatRequest.newBuilder()
                .setHeader(header).setStats(stats).build()), r -> r.getHeader());
    }

    @Override
    public RegionHeartbeatResponse regionHeartbeat(RegionHeartbeatRequest request) {
        return call("RegionHeartbeat", (stub, header) -> stub.regionHeartbeat(request.toBuilder()
                .setHeader(header).build()), RegionHeartbeatResponse::getHeader);
    }

    @Override
    public void reportSplit(List<io.duetdb.proto.meta.Region> regions) {
        call("ReportSplit", (stub, header) -> stub.reportSplit(io.duetdb.proto.placement.ReportSplitRequest.newBuilder()
                .setHeader(header).addAllRegions(regions).build()), r -> r.getHeader());
    }

    @Override
    public Optional<StoreInfo> getStore(long storeId) {
        try {
            return Optional.of(call("GetStore", (stub, header) -> stub.getStore(GetStoreRequest.newBuilder()
                    .setHeader(header).setStoreId(storeId).build()), r -> r.getHeader()).getStore());
        } catch (PlacementException e) {
            if (e.type() == ErrorType.STORE_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public List<StoreInfo> getAllStores() {
        return call("GetAllStores", (stub, header) -> stub.getAllStores(GetAllStoresRequest.newBuilder()
                .setHeader(header).build()), r -> r.getHeader()).getStoresList();
    }

    @Override
    public Optional<RegionInfo> getRegion(byte[] key) {
        return region(call("GetRegion", (stub, header) -> stub.getRegion(GetRegionRequest.newBuilder()
                .setHeader(header).setKey(ByteString.copyFrom(key)).build()), GetRegionResponse::getHeader, true));
    }

    @Override
    public Optional<RegionInfo> getRegionById(long regionId) {
        return region(call("GetRegionById", (stub, header) -> stub.getRegionById(GetRegionByIdRequest.newBuilder()
                .setHeader(header).setRegionId(regionId).build()), GetRegionResponse::getHeader, true));
    }

    private static Optional<RegionInfo> region(GetRegionResponse response) {
        return response == null || !response.hasRegion() ? Optional.empty() : Optional.of(response.getRegion());
    }

    @Override
    public List<RegionInfo> scanRegions(byte[] start, byte[] end, int limit) {
        return call("ScanRegions", (stub, header) -> stub.scanRegions(ScanRegionsRequest.newBuilder()
                .setHeader(header).setStartKey(ByteString.copyFrom(start)).setEndKey(ByteString.copyFrom(end))
                .setLimit(limit).build()), r -> r.getHeader()).getRegionsList();
    }

    @Override
    public List<Long> detectDeadlock(long waiterTs, long holderTs, long keyHash) {
        return call("DetectDeadlock", (stub, header) -> stub.detectDeadlock(DetectDeadlockRequest.newBuilder()
                .setHeader(header).setWaiterTs(waiterTs).setHolderTs(holderTs).setKeyHash(keyHash).build()),
                DetectDeadlockResponse::getHeader).getCycleList();
    }

    @Override
    public void cleanUpWaitFor(long waiterTs, long holderTs) {
        call("CleanUpWaitFor", (stub, header) -> stub.cleanUpWaitFor(CleanUpWaitForRequest.newBuilder()
                .setHeader(header).setWaiterTs(waiterTs).setHolderTs(holderTs).build()), CleanUpWaitForResponse::getHeader);
    }

    @Override
    public long updateServiceSafePoint(String serviceId, long safePoint, long ttlSeconds) {
        return call("UpdateServiceSafePoint", (stub, header) -> stub.updateServiceSafePoint(
                UpdateServiceSafePointRequest.newBuilder().setHeader(header).setServiceId(serviceId)
                        .setSafePoint(safePoint).setTtlSeconds(ttlSeconds).build()),
                UpdateServiceSafePointResponse::getHeader).getGcSafePoint();
    }

    @Override
    public GetGcSafePointResponse getGcSafePoint() {
        return call("GetGcSafePoint", (stub, header) -> stub.getGcSafePoint(GetGcSafePointRequest.newBuilder()
                .setHeader(header).build()), GetGcSafePointResponse::getHeader);
    }

    @Override
    public void putPlacementRule(PlacementRule rule) {
        call("PutPlacementRule", (stub, header) -> stub.putPlacementRule(PutPlacementRuleRequest.newBuilder()
                .setHeader(header).setRule(rule).build()), r -> r.getHeader());
    }

    @Override
    public boolean deletePlacementRule(String ruleId) {
        return call("DeletePlacementRule", (stub, header) -> stub.deletePlacementRule(
                DeletePlacementRuleRequest.newBuilder().setHeader(header).setRuleId(ruleId).build()),
                r -> r.getHeader()).getExisted();
    }

    @Override
    public List<PlacementRule> getPlacementRules() {
        return call("GetPlacementRules", (stub, header) -> stub.getPlacementRules(GetPlacementRulesRequest.newBuilder()
                .setHeader(header).build()), r -> r.getHeader()).getRulesList();
    }

    private <R> R call(String what, BiFunction<PlacementGrpc.PlacementBlockingStub, RequestHeader, R> rpc,
            Function<R, ResponseHeader> headerOf) {
        return call(what, rpc, headerOf, false);
    }

    /**
     * Calls the leader, following redirects and retrying unreachable members until the request timeout.
     * With {@code absentIsEmpty}, REGION_NOT_FOUND returns null instead of throwing.
     */
    private <R> R call(String what, BiFunction<PlacementGrpc.PlacementBlockingStub, RequestHeader, R> rpc,
            Function<R, ResponseHeader> headerOf, boolean absentIsEmpty) {
        long deadline = System.nanoTime() + config.requestTimeout().toNanos();
        long backoff = 10;
        String lastError = "no member answered";
        while (!closed) {
            HostAndPort target = leader != null ? leader : discoverLeader(deadline);
            if (target == null) {
                lastError = lastDiscoveryError;
            } else {
                try {
                    long remaining = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                    R response = rpc.apply(PlacementGrpc.newBlockingStub(channel(target))
                            .withDeadlineAfter(Math.min(remaining, 5_000), TimeUnit.MILLISECONDS), header());
                    ResponseHeader header = headerOf.apply(response);
                    learnClusterId(header.getClusterId());
                    ErrorType type = header.hasError() ? header.getError().getType() : ErrorType.OK;
                    switch (type) {
                        case OK:
                            return response;
                        case NOT_LEADER:
                            lastError = target + " is not the leader";
                            moveLeader(header.getError().getLeaderAddress());
                            break;
                        case UNAVAILABLE:
                            lastError = target + ": " + header.getError().getMessage();
                            break;
                        case REGION_NOT_FOUND:
                            if (absentIsEmpty) {
                                return null;
                            }
                            throw new PlacementException(type, header.getError().getMessage());
                        default:
                            throw new PlacementException(type, header.getError().getMessage());
                    }
                } catch (StatusRuntimeException e) {
                    Status.Code code = e.getStatus().getCode();
                    if (code != Status.Code.UNAVAILABLE && code != Status.Code.DEADLINE_EXCEEDED
                            && code != Status.Code.CANCELLED) {
                        throw new DuetException(ErrorCode.UNKNOWN_ERROR,
                                what + " failed at placement member " + target + ": " + e.getStatus());
                    }
                    lastError = target + ": " + describe(e.getStatus());
                    if (target.equals(leader)) {
                        leader = null;
                    }
                }
            }
            if (System.nanoTime() - deadline > 0) {
                break;
            }
            sleep(backoff);
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
        if (closed) {
            throw new DuetException(ErrorCode.PLACEMENT_SERVER_TIMEOUT, "placement client is closed");
        }
        throw new DuetException(ErrorCode.PLACEMENT_SERVER_TIMEOUT, "placement driver did not answer " + what
                + " within " + config.requestTimeout().toMillis() + " ms (" + lastError + ")");
    }

    /** Asks the known members who leads; returns the leader's client address, or null. */
    private HostAndPort discoverLeader(long deadlineNanos) {
        for (HostAndPort endpoint : List.copyOf(endpoints)) {
            if (closed || System.nanoTime() - deadlineNanos > 0) {
                return null;
            }
            try {
                GetMembersResponse members = PlacementGrpc.newBlockingStub(channel(endpoint))
                        .withDeadlineAfter(DISCOVERY_CALL_MILLIS, TimeUnit.MILLISECONDS)
                        .getMembers(GetMembersRequest.newBuilder().setHeader(header()).build());
                learnClusterId(members.getHeader().getClusterId());
                HostAndPort found = null;
                for (Member member : members.getMembersList()) {
                    if (member.getClientAddress().isEmpty()) {
                        continue;
                    }
                    HostAndPort address = HostAndPort.parse(member.getClientAddress());
                    endpoints.add(address);
                    if (member.getName().equals(members.getLeaderName())) {
                        found = address;
                    }
                }
                if (found != null) {
                    if (!found.equals(leader)) {
                        LOG.info("placement leader is {} at {}", members.getLeaderName(), found);
                    }
                    leader = found;
                    return found;
                }
            } catch (StatusRuntimeException e) {
                lastDiscoveryError = "cannot reach " + endpoint + ": " + describe(e.getStatus());
                LOG.debug("placement member {} did not answer GetMembers: {}", endpoint, e.getStatus());
            }
        }
        return null;
    }

    private void moveLeader(String leaderAddress) {
        if (leaderAddress == null || leaderAddress.isEmpty()) {
            leader = null;
            return;
        }
        try {
            HostAndPort address = HostAndPort.parse(leaderAddress);
            endpoints.add(address);
            leader = address;
        } catch (IllegalArgumentException e) {
            leader = null;
        }
    }

    private void learnClusterId(long id) {
        if (id != 0 && clusterId == 0) {
            clusterId = id;
        }
    }

    private RequestHeader header() {
        return RequestHeader.newBuilder().setClusterId(clusterId).build();
    }

    private ManagedChannel channel(HostAndPort address) {
        return channels.computeIfAbsent(address, a -> NettyChannelBuilder.forAddress(a.host(), a.port())
                .usePlaintext()
                .maxInboundMessageSize(64 << 20)
                .build());
    }

    private static String describe(Status status) {
        return status.getDescription() == null ? status.getCode().toString()
                : status.getCode() + " " + status.getDescription();
    }

    private static RuntimeException unwrap(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new DuetException(ErrorCode.UNKNOWN_ERROR, String.valueOf(cause), cause);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "interrupted while calling the placement driver");
        }
    }

    @Override
    public void close() {
        closed = true;
        tso.close();
        List<ManagedChannel> open = new ArrayList<>(channels.values());
        channels.clear();
        for (ManagedChannel channel : open) {
            channel.shutdownNow();
        }
        for (ManagedChannel channel : open) {
            try {
                channel.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
