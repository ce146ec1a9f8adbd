package io.duetdb.client.kv;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.proto.kv.KvGrpc;
import io.grpc.MethodDescriptor;

/** A unary KV method that can travel in a BatchCommands stream: how its request is wrapped and its answer found. */
record BatchedMethod<Q, R>(
        MethodDescriptor<Q, R> method,
        BiConsumer<BatchCommandsRequest.Command.Builder, Q> wrap,
        Predicate<BatchCommandsResponse.Reply> answered,
        Function<BatchCommandsResponse.Reply, R> unwrap) {

    BatchedMethod {
        requireNonNull(method, "method is null");
        requireNonNull(wrap, "wrap is null");
        requireNonNull(answered, "answered is null");
        requireNonNull(unwrap, "unwrap is null");
    }

    /** The batched methods by full method name; scans and lock scans stay unary (large answers). */
    static Map<String, BatchedMethod<?, ?>> all() {
        return Stream.of(
                new BatchedMethod<>(KvGrpc.getRawGetMethod(), (b, q) -> b.setRawGet(q),
                        BatchCommandsResponse.Reply::hasRawGet, BatchCommandsResponse.Reply::getRawGet),
                new BatchedMethod<>(KvGrpc.getRawBatchGetMethod(), (b, q) -> b.setRawBatchGet(q),
                        BatchCommandsResponse.Reply::hasRawBatchGet, BatchCommandsResponse.Reply::getRawBatchGet),
                new BatchedMethod<>(KvGrpc.getRawPutMethod(), (b, q) -> b.setRawPut(q),
                        BatchCommandsResponse.Reply::hasRawPut, BatchCommandsResponse.Reply::getRawPut),
                new BatchedMethod<>(KvGrpc.getRawBatchPutMethod(), (b, q) -> b.setRawBatchPut(q),
                        BatchCommandsResponse.Reply::hasRawBatchPut, BatchCommandsResponse.Reply::getRawBatchPut),
                new BatchedMethod<>(KvGrpc.getRawDeleteMethod(), (b, q) -> b.setRawDelete(q),
                        BatchCommandsResponse.Reply::hasRawDelete, BatchCommandsResponse.Reply::getRawDelete),
                new BatchedMethod<>(KvGrpc.getKvGetMethod(), (b, q) -> b.setGet(q),
                        BatchCommandsResponse.Reply::hasGet, BatchCommandsResponse.Reply::getGet),
                new BatchedMethod<>(KvGrpc.getKvBatchGetMethod(), (b, q) -> b.setBatchGet(q),
                        BatchCommandsResponse.Reply::hasBatchGet, BatchCommandsResponse.Reply::getBatchGet),
                new BatchedMethod<>(KvGrpc.getKvPrewriteMethod(), (b, q) -> b.setPrewrite(q),
                        BatchCommandsResponse.Reply::hasPrewrite, BatchCommandsResponse.Reply::getPrewrite),
                new BatchedMethod<>(KvGrpc.getKvCommitMethod(), (b, q) -> b.setCommit(q),
                        BatchCommandsResponse.Reply::hasCommit, BatchCommandsResponse.Reply::getCommit),
                new BatchedMethod<>(KvGrpc.getKvBatchRollbackMethod(), (b, q) -> b.setBatchRollback(q),
                        BatchCommandsResponse.Reply::hasBatchRollback, BatchCommandsResponse.Reply::getBatchRollback),
                new BatchedMethod<>(KvGrpc.getKvPessimisticLockMethod(), (b, q) -> b.setPessimisticLock(q),
                        BatchCommandsResponse.Reply::hasPessimisticLock, BatchCommandsResponse.Reply::getPessimisticLock),
                new BatchedMethod<>(KvGrpc.getKvPessimisticRollbackMethod(), (b, q) -> b.setPessimisticRollback(q),
                        BatchCommandsResponse.Reply::hasPessimisticRollback, BatchCommandsResponse.Reply::getPessimisticRollback),
                new BatchedMethod<>(KvGrpc.getKvCheckTxnStatusMethod(), (b, q) -> b.setCheckTxnStatus(q),
                        BatchCommandsResponse.Reply::hasCheckTxnStatus, BatchCommandsResponse.Reply::getCheckTxnStatus),
                new BatchedMethod<>(KvGrpc.getKvTxnHeartBeatMethod(), (b, q) -> b.setTxnHeartBeat(q),
                        BatchCommandsResponse.Reply::hasTxnHeartBeat, BatchCommandsResponse.Reply::getTxnHeartBeat),
                new BatchedMethod<>(KvGrpc.getKvResolveLockMethod(), (b, q) -> b.setResolveLock(q),
                        BatchCommandsResponse.Reply::hasResolveLock, BatchCommandsResponse.Reply::getResolveLock))
                .collect(Collectors.toUnmodifiableMap(m -> m.method().getFullMethodName(), m -> m));
    }
}
