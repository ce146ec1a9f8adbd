package io.duetdb.client.kv;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.concurrent.CoalescingSender;
import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.proto.kv.KvGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * One BatchCommands stream: whoever finds commands waiting sends all of them in one message (so messages grow
 * with the load and no thread waits to fill one); answers are matched to their calls by id.
 */
final class CommandStream implements StreamObserver<BatchCommandsResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(CommandStream.class);
    private static final int MAX_COMMANDS_PER_MESSAGE = 256;
    private static final int MAX_BYTES_PER_MESSAGE = 4 << 20;

    /** A call waiting for its answer. */
    interface PendingCall {
        boolean expired();

        void answer(BatchCommandsResponse.Reply reply);

        void close(Status status);
    }

    private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final CoalescingSender<BatchCommandsRequest.Command> outbox = new CoalescingSender<>(
            MAX_COMMANDS_PER_MESSAGE, MAX_BYTES_PER_MESSAGE, BatchCommandsRequest.Command::getSerializedSize,
            commands -> write(BatchCommandsRequest.newBuilder().addAllCommands(commands).build()));
    private volatile boolean broken;
    private StreamObserver<BatchCommandsRequest> requests;
    private Consumer<CommandStream> onBroken;

    void open(KvGrpc.KvStub stub, Consumer<CommandStream> onBroken) {
        this.onBroken = onBroken;
        this.requests = stub.batchCommands(this);
    }

    boolean isBroken() {
        return broken;
    }

    void send(long id, PendingCall call, BatchCommandsRequest.Command command) {
        pending.put(id, call);
        if (broken) {
            if (pending.remove(id) != null) {
                call.close(Status.UNAVAILABLE.withDescription("the store's command stream broke"));
            }
            return;
        }
        outbox.add(command);
    }

    void abandon(long id) {
        pending.remove(id);
    }

    private void write(BatchCommandsRequest message) {
        if (broken) {
            return;
        }
        try {
            requests.onNext(message);
        } catch (RuntimeException e) {
            fail(Status.fromThrowable(e));
        }
    }

    @Override
    public void onNext(BatchCommandsResponse response) {
        for (BatchCommandsResponse.Reply reply : response.getRepliesList()) {
            PendingCall call = pending.remove(reply.getId());
            if (call != null) {
                call.answer(reply);
            }
        }
    }

    @Override
    public void onError(Throwable error) {
        fail(Status.fromThrowable(error));
    }

    @Override
    public void onCompleted() {
        fail(Status.UNAVAILABLE.withDescription("the store ended the command stream"));
    }

    /** Fails calls whose deadline passed. */
    void expire() {
        pending.forEach((id, call) -> {
            if (call.expired() && pending.remove(id, call)) {
                call.close(Status.DEADLINE_EXCEEDED.withDescription("no answer from the store before the deadline"));
            }
        });
    }

    void shutdown(Status status) {
        fail(status);
        try {
            requests.onCompleted();
        } catch (RuntimeException e) {
            // already broken
        }
    }

    private void fail(Status status) {
        if (broken) {
            return;
        }
        broken = true;
        LOG.info("command stream closed with {} calls outstanding: {}", pending.size(), status);
        onBroken.accept(this);
        Status unavailable = status.isOk() ? Status.UNAVAILABLE.withDescription("command stream closed") : status;
        pending.forEach((id, call) -> {
            if (pending.remove(id, call)) {
                call.close(unavailable);
            }
        });
        outbox.clear();
        if (requests == null) {
            return;
        }
        try {
            requests.onError(unavailable.asRuntimeException());
        } catch (RuntimeException e) {
            // already broken
        }
    }
}
