package io.duetdb.store.internal.rpc;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

import io.duetdb.common.concurrent.CoalescingSender;
import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.grpc.stub.StreamObserver;

/**
 * The store's side of one client's BatchCommands stream: each command is served as its unary method would be
 * (same handler, metrics and errors); answers go back as they complete, those finished together in one message.
 */
final class BatchCommandsStream implements StreamObserver<BatchCommandsRequest> {
    private static final int MAX_REPLIES_PER_MESSAGE = 256;

    private final KvGrpcEndpoint endpoint;
    private final Executor executor;
    private final StoreMetrics metrics;
    private final StreamObserver<BatchCommandsResponse> responses;
    private final CoalescingSender<BatchCommandsResponse.Reply> outbox = new CoalescingSender<>(MAX_REPLIES_PER_MESSAGE,
            Long.MAX_VALUE, reply -> 0, replies -> write(BatchCommandsResponse.newBuilder().addAllReplies(replies).build()));
    private volatile boolean closed;

    BatchCommandsStream(KvGrpcEndpoint endpoint, Executor executor, StoreMetrics metrics,
            StreamObserver<BatchCommandsResponse> responses) {
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.responses = requireNonNull(responses, "responses is null");
    }

    @Override
    public void onNext(BatchCommandsRequest message) {
        metrics.batchMessages.inc();
        metrics.batchCommands.inc(message.getCommandsCount());
        // gRPC delivers one stream's messages one at a time, on its transport thread (KvGrpcEndpoint.INLINE_CALLS).
        // A small command is started here: reads of one key never block, and writes only check their input before
        // they wait for latches, timestamps and Raft through futures. Anything that may read or check a lot runs on
        // its own in the pool, as a unary call would, so that nothing holds up the stream.
        for (BatchCommandsRequest.Command command : message.getCommandsList()) {
            if (startsInline(command)) {
                serve(command);
            } else {
                executor.execute(() -> serve(command));
            }
        }
    }

    private static final int MAX_INLINE_KEYS = 64;

    private static boolean startsInline(BatchCommandsRequest.Command command) {
        return switch (command.getRequestCase()) {
            case GET, RAW_GET, COMMIT, PREWRITE, PESSIMISTIC_LOCK, PESSIMISTIC_ROLLBACK, BATCH_ROLLBACK, TXN_HEART_BEAT,
                    CHECK_TXN_STATUS, RAW_PUT, RAW_DELETE -> keyCount(command) <= MAX_INLINE_KEYS;
            default -> false;
        };
    }

    private static int keyCount(BatchCommandsRequest.Command command) {
        return switch (command.getRequestCase()) {
            case COMMIT -> command.getCommit().getKeysCount();
            case PREWRITE -> command.getPrewrite().getMutationsCount();
            case PESSIMISTIC_LOCK -> command.getPessimisticLock().getKeysCount();
            case PESSIMISTIC_ROLLBACK -> command.getPessimisticRollback().getKeysCount();
            case BATCH_ROLLBACK -> command.getBatchRollback().getKeysCount();
            default -> 1;
        };
    }

    private void serve(BatchCommandsRequest.Command command) {
        long id = command.getId();
        try {
            switch (command.getRequestCase()) {
                case RAW_GET -> endpoint.rawGet(command.getRawGet(), answer(id, BatchCommandsResponse.Reply.Builder::setRawGet));
                case RAW_BATCH_GET -> endpoint.rawBatchGet(command.getRawBatchGet(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setRawBatchGet));
                case RAW_PUT -> endpoint.rawPut(command.getRawPut(), answer(id, BatchCommandsResponse.Reply.Builder::setRawPut));
                case RAW_BATCH_PUT -> endpoint.rawBatchPut(command.getRawBatchPut(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setRawBatchPut));
                case RAW_DELETE -> endpoint.rawDelete(command.getRawDelete(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setRawDelete));
                case GET -> endpoint.kvGet(command.getGet(), answer(id, BatchCommandsResponse.Reply.Builder::setGet));
                case BATCH_GET -> endpoint.kvBatchGet(command.getBatchGet(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setBatchGet));
                case PREWRITE -> endpoint.kvPrewrite(command.getPrewrite(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setPrewrite));
                case COMMIT -> endpoint.kvCommit(command.getCommit(), answer(id, BatchCommandsResponse.Reply.Builder::setCommit));
                case BATCH_ROLLBACK -> endpoint.kvBatchRollback(command.getBatchRollback(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setBatchRollback));
                case PESSIMISTIC_LOCK -> endpoint.kvPessimisticLock(command.getPessimisticLock(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setPessimisticLock));
                case PESSIMISTIC_ROLLBACK -> endpoint.kvPessimisticRollback(command.getPessimisticRollback(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setPessimisticRollback));
                case CHECK_TXN_STATUS -> endpoint.kvCheckTxnStatus(command.getCheckTxnStatus(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setCheckTxnStatus));
                case TXN_HEART_BEAT -> endpoint.kvTxnHeartBeat(command.getTxnHeartBeat(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setTxnHeartBeat));
                case RESOLVE_LOCK -> endpoint.kvResolveLock(command.getResolveLock(),
                        answer(id, BatchCommandsResponse.Reply.Builder::setResolveLock));
                case REQUEST_NOT_SET -> reply(BatchCommandsResponse.Reply.newBuilder().setId(id)
                        .setFailure("a command without a request").build());
            }
        } catch (RuntimeException e) {
            reply(BatchCommandsResponse.Reply.newBuilder().setId(id).setFailure(e.toString()).build());
        }
    }

    private <R> StreamObserver<R> answer(long id, BiConsumer<BatchCommandsResponse.Reply.Builder, R> set) {
        return new StreamObserver<>() {
            @Override
            public void onNext(R response) {
                BatchCommandsResponse.Reply.Builder reply = BatchCommandsResponse.Reply.newBuilder().setId(id);
                set.accept(reply, response);
                reply(reply.build());
            }

            @Override
            public void onError(Throwable error) {
                reply(BatchCommandsResponse.Reply.newBuilder().setId(id).setFailure(String.valueOf(error.getMessage())).build());
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    private void reply(BatchCommandsResponse.Reply reply) {
        if (!closed) {
            outbox.add(reply);
        }
    }

    private void write(BatchCommandsResponse message) {
        if (closed) {
            return;
        }
        try {
            responses.onNext(message);
        } catch (RuntimeException e) {
            // The client went away; its calls fail on its side.
            closed = true;
        }
    }

    @Override
    public void onError(Throwable error) {
        closed = true;
    }

    @Override
    public void onCompleted() {
        closed = true;
        try {
            responses.onCompleted();
        } catch (RuntimeException e) {
            // already gone
        }
    }
}
