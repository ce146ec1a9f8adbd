package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.duetdb.proto.mpp.CancelQueryRequest;
import io.duetdb.proto.mpp.CancelQueryResponse;
import io.duetdb.proto.mpp.DispatchTaskRequest;
import io.duetdb.proto.mpp.DispatchTaskResponse;
import io.duetdb.proto.mpp.EstablishConnectionRequest;
import io.duetdb.proto.mpp.MppDataPacket;
import io.duetdb.proto.mpp.MppError;
import io.duetdb.proto.mpp.MppGrpc;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** The learner's MPP service: decodes each call and hands it to the {@link MppTaskManager}. */
public final class MppGrpcEndpoint extends MppGrpc.MppImplBase {
    /** How long a receiver's connection waits for its source task to be dispatched. */
    static final Duration DISPATCH_WAIT = Duration.ofSeconds(30);

    private final MppTaskManager manager;

    public MppGrpcEndpoint(MppTaskManager manager) {
        this.manager = requireNonNull(manager, "manager is null");
    }

    @Override
    public void dispatchTask(DispatchTaskRequest request, StreamObserver<DispatchTaskResponse> observer) {
        observer.onNext(manager.dispatch(request));
        observer.onCompleted();
    }

    @Override
    public void cancelQuery(CancelQueryRequest request, StreamObserver<CancelQueryResponse> observer) {
        int cancelled = manager.cancel(request.getStartTs(), request.getQueryId(), request.getReason().isEmpty()
                ? "cancelled by the SQL server" : request.getReason());
        observer.onNext(CancelQueryResponse.newBuilder().setCancelledTasks(cancelled).build());
        observer.onCompleted();
    }

    @Override
    public void establishConnection(EstablishConnectionRequest request, StreamObserver<MppDataPacket> observer) {
        ServerCallStreamObserver<MppDataPacket> call = (ServerCallStreamObserver<MppDataPacket>) observer;
        AtomicReference<ExchangeTunnel> attached = new AtomicReference<>();
        Object ready = new Object();
        call.setOnCancelHandler(() -> {
            ExchangeTunnel tunnel = attached.get();
            if (tunnel != null) {
                // The task stays known until it ends or its time is up: a CancelQuery must still reach it.
                tunnel.receiverGone();
            }
        });
        call.setOnReadyHandler(() -> {
            synchronized (ready) {
                ready.notifyAll();
            }
        });
        manager.tunnel(request.getSender(), request.getReceiver(), DISPATCH_WAIT).whenComplete((tunnel, failure) -> {
            if (failure != null) {
                if (!call.isCancelled()) {
                    call.onNext(MppDataPacket.newBuilder().setError(MppError.newBuilder().setMessage("task "
                            + request.getSender().getTaskId() + " is not running on this learner: " + failure)).build());
                    call.onCompleted();
                }
                return;
            }
            attached.set(tunnel);
            if (call.isCancelled()) {
                tunnel.receiverGone();
                return;
            }
            manager.threads().execute(() -> drain(request, tunnel, call, ready));
        });
    }

    private void drain(EstablishConnectionRequest request, ExchangeTunnel tunnel, ServerCallStreamObserver<MppDataPacket> call,
            Object ready) {
        try {
            while (!call.isCancelled()) {
                MppDataPacket packet = tunnel.poll(100);
                if (packet == null) {
                    continue;
                }
                synchronized (ready) {
                    while (!call.isReady() && !call.isCancelled()) {
                        ready.wait(50);
                    }
                }
                if (call.isCancelled()) {
                    return;
                }
                boolean last = ExchangeTunnel.isEnd(packet) || packet.hasError();
                call.onNext(packet);
                if (last) {
                    call.onCompleted();
                    manager.connectionDone(request.getSender());
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            tunnel.receiverGone();
        }
    }
}
