package io.duetdb.store.internal.rpc;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.proto.kv.KvGrpc;
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
import io.duetdb.proto.kv.KeyError;
import io.duetdb.proto.kv.RegionError;
import io.duetdb.proto.kv.TxnGetRequest;
import io.duetdb.proto.kv.TxnGetResponse;
import io.duetdb.proto.kv.TxnBatchGetRequest;
import io.duetdb.proto.kv.TxnBatchGetResponse;
import io.duetdb.proto.kv.TxnScanRequest;
import io.duetdb.proto.kv.TxnScanResponse;
import io.duetdb.proto.kv.PrewriteRequest;
import io.duetdb.proto.kv.PrewriteResponse;
import io.duetdb.proto.kv.CommitRequest;
import io.duetdb.proto.kv.ImportRequest;
import io.duetdb.proto.kv.ImportResponse;
import io.duetdb.proto.kv.CommitResponse;
import io.duetdb.proto.kv.BatchRollbackRequest;
import io.duetdb.proto.kv.BatchRollbackResponse;
import io.duetdb.proto.kv.PessimisticLockRequest;
import io.duetdb.proto.kv.PessimisticLockResponse;
import io.duetdb.proto.kv.PessimisticRollbackRequest;
import io.duetdb.proto.kv.PessimisticRollbackResponse;
import io.duetdb.proto.kv.CheckTxnStatusRequest;
import io.duetdb.proto.kv.CheckTxnStatusResponse;
import io.duetdb.proto.kv.TxnHeartBeatRequest;
import io.duetdb.proto.kv.TxnHeartBeatResponse;
import io.duetdb.proto.kv.ResolveLockRequest;
import io.duetdb.proto.kv.ResolveLockResponse;
import io.duetdb.proto.kv.ScanLockRequest;
import io.duetdb.proto.kv.ScanLockResponse;
import io.duetdb.store.internal.ImportService;
import io.duetdb.store.internal.KvService;
import io.duetdb.store.internal.TxnService;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/** The gRPC face of {@link KvService}; region errors travel in responses, failures as gRPC statuses. */
public final class KvGrpcEndpoint extends KvGrpc.KvImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(KvGrpcEndpoint.class);

    /**
     * Serves the messages of a BatchCommands stream on the transport thread that read them rather than handing
     * each to the RPC pool first (the stream's first message still goes through the pool while gRPC looks the
     * method up). The stream only dispatches, and serves single-key gets in place: a get never blocks (its read
     * barrier and in-flight waits are futures), and on two cores each thread hand-off costs more than the read.
     */
    public static final ServerCallExecutorSupplier INLINE_CALLS = new ServerCallExecutorSupplier() {
        @Override
        public <RequestT, ResponseT> Executor getExecutor(ServerCall<RequestT, ResponseT> call, Metadata metadata) {
            return call.getMethodDescriptor().getFullMethodName().equals(KvGrpc.getBatchCommandsMethod().getFullMethodName())
                    ? Runnable::run : null;
        }
    };

    private final KvService service;
    private final TxnService txn;
    private final ImportService imports;
    private final StoreMetrics metrics;
    private final Executor executor;

    public KvGrpcEndpoint(KvService service, TxnService txn, ImportService imports, StoreMetrics metrics,
            Executor executor) {
        this.service = requireNonNull(service, "service is null");
        this.txn = requireNonNull(txn, "txn is null");
        this.imports = requireNonNull(imports, "imports is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    @Override
    public StreamObserver<BatchCommandsRequest> batchCommands(StreamObserver<BatchCommandsResponse> responses) {
        return new BatchCommandsStream(this, executor, metrics, responses);
    }

    @Override
    public void rawGet(RawGetRequest request, StreamObserver<RawGetResponse> observer) {
        serve("RawGet", observer, () -> service.get(request), RawGetResponse::getRegionError, RawGetResponse::hasRegionError);
    }

    @Override
    public void rawBatchGet(RawBatchGetRequest request, StreamObserver<RawBatchGetResponse> observer) {
        serve("RawBatchGet", observer, () -> service.batchGet(request), RawBatchGetResponse::getRegionError,
                RawBatchGetResponse::hasRegionError);
    }

    @Override
    public void rawScan(RawScanRequest request, StreamObserver<RawScanResponse> observer) {
        serve("RawScan", observer, () -> service.scan(request), RawScanResponse::getRegionError, RawScanResponse::hasRegionError);
    }

    @Override
    public void rawPut(RawPutRequest request, StreamObserver<RawPutResponse> observer) {
        serve("RawPut", observer, () -> service.put(request), RawPutResponse::getRegionError, RawPutResponse::hasRegionError);
    }

    @Override
    public void rawBatchPut(RawBatchPutRequest request, StreamObserver<RawBatchPutResponse> observer) {
        serve("RawBatchPut", observer, () -> service.batchPut(request), RawBatchPutResponse::getRegionError,
                RawBatchPutResponse::hasRegionError);
    }

    @Override
    public void rawDelete(RawDeleteRequest request, StreamObserver<RawDeleteResponse> observer) {
        serve("RawDelete", observer, () -> service.delete(request), RawDeleteResponse::getRegionError,
                RawDeleteResponse::hasRegionError);
    }

    @Override
    public void rawDeleteRange(RawDeleteRangeRequest request, StreamObserver<RawDeleteRangeResponse> observer) {
        serve("RawDeleteRange", observer, () -> service.deleteRange(request), RawDeleteRangeResponse::getRegionError,
                RawDeleteRangeResponse::hasRegionError);
    }

    @Override
    public void kvGet(TxnGetRequest request, StreamObserver<TxnGetResponse> observer) {
        serveTxn("KvGet", observer, () -> txn.get(request), TxnGetResponse::getRegionError,
                TxnGetResponse::hasRegionError, single(TxnGetResponse::hasError, TxnGetResponse::getError));
    }

    @Override
    public void kvBatchGet(TxnBatchGetRequest request, StreamObserver<TxnBatchGetResponse> observer) {
        serveTxn("KvBatchGet", observer, () -> txn.batchGet(request), TxnBatchGetResponse::getRegionError,
                TxnBatchGetResponse::hasRegionError, TxnBatchGetResponse::getErrorsList);
    }

    @Override
    public void kvScan(TxnScanRequest request, StreamObserver<TxnScanResponse> observer) {
        serveTxn("KvScan", observer, () -> txn.scan(request), TxnScanResponse::getRegionError,
                TxnScanResponse::hasRegionError, single(TxnScanResponse::hasError, TxnScanResponse::getError));
    }

    @Override
    public void kvPrewrite(PrewriteRequest request, StreamObserver<PrewriteResponse> observer) {
        serveTxn("KvPrewrite", observer, () -> txn.prewrite(request), PrewriteResponse::getRegionError,
                PrewriteResponse::hasRegionError, PrewriteResponse::getErrorsList);
    }

    @Override
    public void kvImport(ImportRequest request, StreamObserver<ImportResponse> observer) {
        serve("KvImport", observer, () -> imports.importCommitted(request), ImportResponse::getRegionError,
                ImportResponse::hasRegionError);
    }

    @Override
    public void kvCommit(CommitRequest request, StreamObserver<CommitResponse> observer) {
        serveTxn("KvCommit", observer, () -> txn.commit(request), CommitResponse::getRegionError,
                CommitResponse::hasRegionError, single(CommitResponse::hasError, CommitResponse::getError));
    }

    @Override
    public void kvBatchRollback(BatchRollbackRequest request, StreamObserver<BatchRollbackResponse> observer) {
        serveTxn("KvBatchRollback", observer, () -> txn.batchRollback(request), BatchRollbackResponse::getRegionError,
                BatchRollbackResponse::hasRegionError, single(BatchRollbackResponse::hasError, BatchRollbackResponse::getError));
    }

    @Override
    public void kvPessimisticLock(PessimisticLockRequest request, StreamObserver<PessimisticLockResponse> observer) {
        serveTxn("KvPessimisticLock", observer, () -> txn.pessimisticLock(request), PessimisticLockResponse::getRegionError,
                PessimisticLockResponse::hasRegionError, PessimisticLockResponse::getErrorsList);
    }

    @Override
    public void kvPessimisticRollback(PessimisticRollbackRequest request, StreamObserver<PessimisticRollbackResponse> observer) {
        serveTxn("KvPessimisticRollback", observer, () -> txn.pessimisticRollback(request), PessimisticRollbackResponse::getRegionError,
                PessimisticRollbackResponse::hasRegionError, PessimisticRollbackResponse::getErrorsList);
    }

    @Override
    public void kvCheckTxnStatus(CheckTxnStatusRequest request, StreamObserver<CheckTxnStatusResponse> observer) {
        serveTxn("KvCheckTxnStatus", observer, () -> txn.checkTxnStatus(request), CheckTxnStatusResponse::getRegionError,
                CheckTxnStatusResponse::hasRegionError, single(CheckTxnStatusResponse::hasError, CheckTxnStatusResponse::getError));
    }

    @Override
    public void kvTxnHeartBeat(TxnHeartBeatRequest request, StreamObserver<TxnHeartBeatResponse> observer) {
        serveTxn("KvTxnHeartBeat", observer, () -> txn.heartBeat(request), TxnHeartBeatResponse::getRegionError,
                TxnHeartBeatResponse::hasRegionError, single(TxnHeartBeatResponse::hasError, TxnHeartBeatResponse::getError));
    }

    @Override
    public void kvResolveLock(ResolveLockRequest request, StreamObserver<ResolveLockResponse> observer) {
        serveTxn("KvResolveLock", observer, () -> txn.resolveLock(request), ResolveLockResponse::getRegionError,
                ResolveLockResponse::hasRegionError, single(ResolveLockResponse::hasError, ResolveLockResponse::getError));
    }

    @Override
    public void kvScanLock(ScanLockRequest request, StreamObserver<ScanLockResponse> observer) {
        serve("KvScanLock", observer, () -> txn.scanLock(request), ScanLockResponse::getRegionError, ScanLockResponse::hasRegionError);
    }

    private <R> void serveTxn(String method, StreamObserver<R> observer, Supplier<CompletableFuture<R>> call,
            Function<R, RegionError> regionError, Function<R, Boolean> hasRegionError, Function<R, List<KeyError>> keyErrors) {
        serve(method, observer, () -> call.get().whenComplete((response, error) -> {
            if (response != null) {
                for (KeyError keyError : keyErrors.apply(response)) {
                    metrics.keyErrors.labelValues(keyError.getKindCase().name()).inc();
                }
            }
        }), regionError, hasRegionError);
    }

    private static <R> Function<R, List<KeyError>> single(Function<R, Boolean> has, Function<R, KeyError> get) {
        return response -> has.apply(response) ? List.of(get.apply(response)) : List.of();
    }

    private <R> void serve(String method, StreamObserver<R> observer, Supplier<CompletableFuture<R>> call,
            Function<R, RegionError> regionError, Function<R, Boolean> hasRegionError) {
        long started = System.nanoTime();
        metrics.requests.labelValues(method).inc();
        CompletableFuture<R> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        future.whenComplete((response, error) -> {
            if (error != null) {
                LOG.warn("{} failed: {}", method, error.toString());
                observer.onError(Status.INTERNAL.withDescription(method + ": " + error).asRuntimeException());
                return;
            }
            if (hasRegionError.apply(response)) {
                metrics.regionErrors.labelValues(regionError.apply(response).getDetailCase().name()).inc();
            }
            try {
                observer.onNext(response);
                observer.onCompleted();
            } catch (RuntimeException e) {
                // The client went away.
            }
            metrics.requestSeconds.labelValues(method).observe((System.nanoTime() - started) / 1e9);
        });
    }
}
