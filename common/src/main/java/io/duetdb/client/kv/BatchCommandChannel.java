package io.duetdb.client.kv;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.proto.kv.KvGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;

/**
 * A channel to one store that carries the small KV calls over a single BatchCommands stream (TiKV's batch
 * client): concurrent callers' requests share stream messages instead of each opening an HTTP/2 stream, which
 * is most of a unary call's cost. Stubs use it as any channel; other methods go to the underlying channel.
 * A broken stream fails its outstanding calls with its status (UNAVAILABLE when the store went away), as a
 * unary call would, and the next call opens a new stream.
 */
public final class BatchCommandChannel extends Channel implements AutoCloseable {
    private static final long DEADLINE_SWEEP_MILLIS = 20;

    private final Map<String, BatchedMethod<?, ?>> methods = BatchedMethod.all();
    private final ManagedChannel channel;
    private final AtomicLong nextId = new AtomicLong();
    private final ScheduledFuture<?> deadlineSweep;
    private final Object streamLock = new Object();
    private CommandStream stream;
    private boolean closed;

    public BatchCommandChannel(ManagedChannel channel, ScheduledExecutorService scheduler) {
        this.channel = requireNonNull(channel, "channel is null");
        requireNonNull(scheduler, "scheduler is null");
        this.deadlineSweep = scheduler.scheduleWithFixedDelay(this::expireCalls, DEADLINE_SWEEP_MILLIS,
                DEADLINE_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        BatchedMethod<Q, R> batched = (BatchedMethod<Q, R>) methods.get(method.getFullMethodName());
        if (batched == null) {
            return channel.newCall(method, options);
        }
        return new BatchedCall<>(batched, options);
    }

    @Override
    public String authority() {
        return channel.authority();
    }

    private void submit(BatchedCall<?, ?> call, BatchCommandsRequest.Command command) {
        CommandStream current;
        synchronized (streamLock) {
            if (closed) {
                call.close(Status.UNAVAILABLE.withDescription("channel closed"));
                return;
            }
            current = stream;
            if (current == null || current.isBroken()) {
                // Opening can fail at once, on this thread (the transport's callbacks are direct): the new stream
                // is then already broken and forgotten, and the call fails as UNAVAILABLE below.
                current = new CommandStream();
                stream = current;
                current.open(KvGrpc.newStub(channel), this::forget);
            }
        }
        call.sentOn(current);
        current.send(command.getId(), call, command);
    }

    private void forget(CommandStream broken) {
        synchronized (streamLock) {
            if (stream == broken) {
                stream = null;
            }
        }
    }

    private void expireCalls() {
        CommandStream current;
        synchronized (streamLock) {
            current = stream;
        }
        if (current != null) {
            current.expire();
        }
    }

    @Override
    public void close() {
        CommandStream current;
        synchronized (streamLock) {
            closed = true;
            current = stream;
            stream = null;
        }
        deadlineSweep.cancel(false);
        if (current != null) {
            current.shutdown(Status.UNAVAILABLE.withDescription("channel closed"));
        }
        channel.shutdownNow();
    }

    /** One unary call carried by the stream; completes exactly once (answer, deadline, cancel or broken stream). */
    final class BatchedCall<Q, R> extends ClientCall<Q, R> implements CommandStream.PendingCall {
        private final BatchedMethod<Q, R> method;
        private final Executor executor;
        private final Deadline deadline;
        private final AtomicBoolean done = new AtomicBoolean();
        private Listener<R> listener;
        private Q request;
        private volatile CommandStream sentOn;
        private long id;

        BatchedCall(BatchedMethod<Q, R> method, CallOptions options) {
            this.method = method;
            this.executor = options.getExecutor() != null ? options.getExecutor() : Runnable::run;
            this.deadline = options.getDeadline();
        }

        @Override
        public void start(Listener<R> listener, Metadata headers) {
            this.listener = requireNonNull(listener, "listener is null");
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void sendMessage(Q message) {
            this.request = message;
        }

        @Override
        public void halfClose() {
            if (request == null) {
                close(Status.INTERNAL.withDescription("no request was sent"));
                return;
            }
            if (deadline != null && deadline.isExpired()) {
                close(Status.DEADLINE_EXCEEDED.withDescription("deadline passed before the request was sent"));
                return;
            }
            id = nextId.incrementAndGet();
            BatchCommandsRequest.Command.Builder command = BatchCommandsRequest.Command.newBuilder().setId(id);
            method.wrap().accept(command, request);
            submit(this, command.build());
        }

        @Override
        public void cancel(String message, Throwable cause) {
            CommandStream stream = sentOn;
            if (stream != null) {
                stream.abandon(id);
            }
            close(Status.CANCELLED.withDescription(message).withCause(cause));
        }

        @Override
        public boolean isReady() {
            return true;
        }

        void sentOn(CommandStream stream) {
            this.sentOn = stream;
        }

        @Override
        public boolean expired() {
            return deadline != null && deadline.isExpired();
        }

        @Override
        public void answer(BatchCommandsResponse.Reply reply) {
            if (reply.hasFailure() || !method.answered().test(reply)) {
                String failure = reply.hasFailure() ? reply.getFailure() : "answer of the wrong kind: " + reply.getResponseCase();
                close(Status.INTERNAL.withDescription(method.method().getBareMethodName() + ": " + failure));
                return;
            }
            if (!done.compareAndSet(false, true)) {
                return;
            }
            R response = method.unwrap().apply(reply);
            executor.execute(() -> {
                listener.onHeaders(new Metadata());
                listener.onMessage(response);
                listener.onClose(Status.OK, new Metadata());
            });
        }

        @Override
        public void close(Status status) {
            if (done.compareAndSet(false, true)) {
                executor.execute(() -> listener.onClose(status, new Metadata()));
            }
        }
    }
}
