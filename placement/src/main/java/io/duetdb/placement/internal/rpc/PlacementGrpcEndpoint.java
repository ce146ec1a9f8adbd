package io.duetdb.placement.internal.rpc;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.placement.internal.PlacementError;
import io.duetdb.placement.internal.PlacementService;
import io.duetdb.placement.internal.metrics.PlacementMetrics;
import io.duetdb.placement.internal.tso.TimestampOracle;
import io.duetdb.proto.meta.Timestamp;
import io.duetdb.proto.placement.AllocIdRequest;
import io.duetdb.proto.placement.AllocIdResponse;
import io.duetdb.proto.placement.DeletePlacementRuleRequest;
import io.duetdb.proto.placement.DeletePlacementRuleResponse;
import io.duetdb.proto.placement.Error;
import io.duetdb.proto.placement.ErrorType;
import io.duetdb.proto.placement.GetAllStoresRequest;
import io.duetdb.proto.placement.GetAllStoresResponse;
import io.duetdb.proto.placement.GetMembersRequest;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.GetPlacementRulesRequest;
import io.duetdb.proto.placement.GetPlacementRulesResponse;
import io.duetdb.proto.placement.GetRegionByIdRequest;
import io.duetdb.proto.placement.GetRegionRequest;
import io.duetdb.proto.placement.CleanUpWaitForRequest;
import io.duetdb.proto.placement.CleanUpWaitForResponse;
import io.duetdb.proto.placement.DetectDeadlockRequest;
import io.duetdb.proto.placement.DetectDeadlockResponse;
import io.duetdb.proto.placement.GetGcSafePointRequest;
import io.duetdb.proto.placement.GetGcSafePointResponse;
import io.duetdb.proto.placement.GetRegionResponse;
import io.duetdb.proto.placement.UpdateServiceSafePointRequest;
import io.duetdb.proto.placement.UpdateServiceSafePointResponse;
import io.duetdb.proto.placement.GetStoreRequest;
import io.duetdb.proto.placement.GetStoreResponse;
import io.duetdb.proto.placement.PlacementGrpc;
import io.duetdb.proto.placement.PutPlacementRuleRequest;
import io.duetdb.proto.placement.PutPlacementRuleResponse;
import io.duetdb.proto.placement.RegionHeartbeatRequest;
import io.duetdb.proto.placement.RegionHeartbeatResponse;
import io.duetdb.proto.placement.RegisterStoreRequest;
import io.duetdb.proto.placement.RegisterStoreResponse;
import io.duetdb.proto.placement.ResponseHeader;
import io.duetdb.proto.placement.ScanRegionsRequest;
import io.duetdb.proto.placement.ScanRegionsResponse;
import io.duetdb.proto.placement.SetStoreStateRequest;
import io.duetdb.proto.placement.SetStoreStateResponse;
import io.duetdb.proto.placement.StoreHeartbeatRequest;
import io.duetdb.proto.placement.StoreHeartbeatResponse;
import io.duetdb.proto.placement.TsoRequest;
import io.duetdb.proto.placement.TsoResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * The gRPC face of {@link PlacementService}: errors the service raises go back in response headers, so
 * that clients can follow NOT_LEADER redirects; only unexpected failures become gRPC statuses.
 */
public final class PlacementGrpcEndpoint extends PlacementGrpc.PlacementImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementGrpcEndpoint.class);

    private final PlacementService service;
    private final PlacementMetrics metrics;

    public PlacementGrpcEndpoint(PlacementService service, PlacementMetrics metrics) {
        this.service = requireNonNull(service, "service is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void getMembers(GetMembersRequest request, StreamObserver<GetMembersResponse> observer) {
        unary("GetMembers", observer, () -> service.members().toBuilder().setHeader(ok()).build(),
                header -> GetMembersResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public StreamObserver<TsoRequest> tso(StreamObserver<TsoResponse> responses) {
        return new StreamObserver<>() {
            @Override
            public void onNext(TsoRequest request) {
                long started = System.nanoTime();
                TsoResponse response;
                try {
                    TimestampOracle.Batch batch = service.timestamps(request.getHeader().getClusterId(), request.getCount());
                    response = TsoResponse.newBuilder().setHeader(ok()).setCount(batch.count())
                            .setLast(Timestamp.newBuilder().setPhysical(batch.physical()).setLogical(batch.lastLogical()))
                            .build();
                } catch (PlacementError e) {
                    response = TsoResponse.newBuilder().setHeader(error(e)).build();
                } catch (RuntimeException e) {
                    LOG.warn("TSO request failed", e);
                    response = TsoResponse.newBuilder().setHeader(error(new PlacementError(ErrorType.INTERNAL,
                            String.valueOf(e.getMessage())))).build();
                }
                try {
                    responses.onNext(response);
                } catch (RuntimeException e) {
                    // The client went away; its stream is closing.
                    return;
                }
                metrics.rpcSeconds.labelValues("Tso").observe((System.nanoTime() - started) / 1e9);
            }

            @Override
            public void onError(Throwable error) {
                // The client cancelled or disconnected.
            }

            @Override
            public void onCompleted() {
                responses.onCompleted();
            }
        };
    }

    @Override
    public void allocId(AllocIdRequest request, StreamObserver<AllocIdResponse> observer) {
        unary("AllocId", observer, () -> {
            int count = Math.max(1, request.getCount());
            long first = service.allocateIds(request.getHeader().getClusterId(), request.getKind(), count).join();
            return AllocIdResponse.newBuilder().setHeader(ok()).setFirstId(first).setCount(count).build();
        }, header -> AllocIdResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void registerStore(RegisterStoreRequest request, StreamObserver<RegisterStoreResponse> observer) {
        unary("RegisterStore", observer,
                () -> service.registerStore(request.getHeader().getClusterId(), request.getStore()).toBuilder()
                        .setHeader(ok()).build(),
                header -> RegisterStoreResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void setStoreState(SetStoreStateRequest request, StreamObserver<SetStoreStateResponse> observer) {
        unary("SetStoreState", observer, () -> SetStoreStateResponse.newBuilder().setHeader(ok())
                        .setStore(service.setStoreState(request.getHeader().getClusterId(), request.getStoreId(),
                                request.getState())).build(),
                header -> SetStoreStateResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void storeHeartbeat(StoreHeartbeatRequest request, StreamObserver<StoreHeartbeatResponse> observer) {
        unary("StoreHeartbeat", observer, () -> {
            service.storeHeartbeat(request.getHeader().getClusterId(), request.getStats());
            return StoreHeartbeatResponse.newBuilder().setHeader(ok()).build();
        }, header -> StoreHeartbeatResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getStore(GetStoreRequest request, StreamObserver<GetStoreResponse> observer) {
        unary("GetStore", observer, () -> GetStoreResponse.newBuilder().setHeader(ok())
                        .setStore(service.store(request.getHeader().getClusterId(), request.getStoreId())).build(),
                header -> GetStoreResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getAllStores(GetAllStoresRequest request, StreamObserver<GetAllStoresResponse> observer) {
        unary("GetAllStores", observer, () -> GetAllStoresResponse.newBuilder().setHeader(ok())
                        .addAllStores(service.stores(request.getHeader().getClusterId(), request.getExcludeTombstones()))
                        .build(),
                header -> GetAllStoresResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void regionHeartbeat(RegionHeartbeatRequest request, StreamObserver<RegionHeartbeatResponse> observer) {
        unary("RegionHeartbeat", observer, () -> service.regionHeartbeat(request).toBuilder().setHeader(ok()).build(),
                header -> RegionHeartbeatResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void reportSplit(io.duetdb.proto.placement.ReportSplitRequest request,
            StreamObserver<io.duetdb.proto.placement.ReportSplitResponse> observer) {
        unary("ReportSplit", observer, () -> {
            service.reportSplit(request.getHeader().getClusterId(), request.getRegionsList());
            return io.duetdb.proto.placement.ReportSplitResponse.newBuilder().setHeader(ok()).build();
        }, header -> io.duetdb.proto.placement.ReportSplitResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getRegion(GetRegionRequest request, StreamObserver<GetRegionResponse> observer) {
        unary("GetRegion", observer, () -> service.regionByKey(request.getHeader().getClusterId(),
                        request.getKey().toByteArray())
                        .map(region -> GetRegionResponse.newBuilder().setHeader(ok()).setRegion(region).build())
                        .orElseThrow(() -> new PlacementError(ErrorType.REGION_NOT_FOUND,
                                "no region holds the key (cluster not bootstrapped?)")),
                header -> GetRegionResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getRegionById(GetRegionByIdRequest request, StreamObserver<GetRegionResponse> observer) {
        unary("GetRegionById", observer, () -> service.regionById(request.getHeader().getClusterId(), request.getRegionId())
                        .map(region -> GetRegionResponse.newBuilder().setHeader(ok()).setRegion(region).build())
                        .orElseThrow(() -> new PlacementError(ErrorType.REGION_NOT_FOUND,
                                "no region " + request.getRegionId())),
                header -> GetRegionResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void detectDeadlock(DetectDeadlockRequest request, StreamObserver<DetectDeadlockResponse> observer) {
        unary("DetectDeadlock", observer, () -> DetectDeadlockResponse.newBuilder().setHeader(ok())
                        .addAllCycle(service.detectDeadlock(request.getHeader().getClusterId(), request.getWaiterTs(),
                                request.getHolderTs(), request.getKeyHash())).build(),
                header -> DetectDeadlockResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void cleanUpWaitFor(CleanUpWaitForRequest request, StreamObserver<CleanUpWaitForResponse> observer) {
        unary("CleanUpWaitFor", observer, () -> {
            service.cleanUpWaitFor(request.getHeader().getClusterId(), request.getWaiterTs(), request.getHolderTs());
            return CleanUpWaitForResponse.newBuilder().setHeader(ok()).build();
        }, header -> CleanUpWaitForResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void updateServiceSafePoint(UpdateServiceSafePointRequest request,
            StreamObserver<UpdateServiceSafePointResponse> observer) {
        unary("UpdateServiceSafePoint", observer, () -> UpdateServiceSafePointResponse.newBuilder().setHeader(ok())
                        .setGcSafePoint(service.updateServiceSafePoint(request.getHeader().getClusterId(),
                                request.getServiceId(), request.getSafePoint(), request.getTtlSeconds())).build(),
                header -> UpdateServiceSafePointResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getGcSafePoint(GetGcSafePointRequest request, StreamObserver<GetGcSafePointResponse> observer) {
        unary("GetGcSafePoint", observer, () -> service.gcSafePoint(request.getHeader().getClusterId()).toBuilder()
                        .setHeader(ok()).build(),
                header -> GetGcSafePointResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void scanRegions(ScanRegionsRequest request, StreamObserver<ScanRegionsResponse> observer) {
        unary("ScanRegions", observer, () -> ScanRegionsResponse.newBuilder().setHeader(ok())
                        .addAllRegions(service.scanRegions(request.getHeader().getClusterId(),
                                request.getStartKey().toByteArray(), request.getEndKey().toByteArray(), request.getLimit()))
                        .build(),
                header -> ScanRegionsResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void putPlacementRule(PutPlacementRuleRequest request, StreamObserver<PutPlacementRuleResponse> observer) {
        unary("PutPlacementRule", observer, () -> {
            service.putRule(request.getHeader().getClusterId(), request.getRule());
            return PutPlacementRuleResponse.newBuilder().setHeader(ok()).build();
        }, header -> PutPlacementRuleResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void deletePlacementRule(DeletePlacementRuleRequest request,
            StreamObserver<DeletePlacementRuleResponse> observer) {
        unary("DeletePlacementRule", observer, () -> DeletePlacementRuleResponse.newBuilder().setHeader(ok())
                        .setExisted(service.deleteRule(request.getHeader().getClusterId(), request.getRuleId())).build(),
                header -> DeletePlacementRuleResponse.newBuilder().setHeader(header).build());
    }

    @Override
    public void getPlacementRules(GetPlacementRulesRequest request, StreamObserver<GetPlacementRulesResponse> observer) {
        unary("GetPlacementRules", observer, () -> GetPlacementRulesResponse.newBuilder().setHeader(ok())
                        .addAllRules(service.rules(request.getHeader().getClusterId())).build(),
                header -> GetPlacementRulesResponse.newBuilder().setHeader(header).build());
    }

    private <R> void unary(String method, StreamObserver<R> observer, Supplier<R> handler,
            Function<ResponseHeader, R> errorResponse) {
        long started = System.nanoTime();
        R response;
        try {
            response = handler.get();
        } catch (PlacementError e) {
            response = errorResponse.apply(error(e));
        } catch (RuntimeException e) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof PlacementError placementError) {
                response = errorResponse.apply(error(placementError));
            } else {
                LOG.warn("{} failed", method, cause);
                observer.onError(Status.INTERNAL.withDescription(method + ": " + cause).asRuntimeException());
                return;
            }
        }
        observer.onNext(response);
        observer.onCompleted();
        metrics.rpcSeconds.labelValues(method).observe((System.nanoTime() - started) / 1e9);
    }

    private ResponseHeader ok() {
        return ResponseHeader.newBuilder().setClusterId(service.clusterId()).build();
    }

    private ResponseHeader error(PlacementError error) {
        Error proto = error.toProto();
        return ResponseHeader.newBuilder().setClusterId(service.clusterId()).setError(proto).build();
    }
}
