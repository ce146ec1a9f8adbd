package io.duetdb.common.coprocessor;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.duetdb.proto.coprocessor.CoprocessorGrpc;
import io.duetdb.proto.coprocessor.CoprocessorRequest;
import io.duetdb.proto.coprocessor.CoprocessorResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** The Coprocessor gRPC service: decodes nothing itself, hands the stream to a {@link CoprocessorHandler}. */
public final class CoprocessorGrpcEndpoint extends CoprocessorGrpc.CoprocessorImplBase {
    private final CoprocessorHandler service;

    public CoprocessorGrpcEndpoint(CoprocessorHandler service) {
        this.service = requireNonNull(service, "service is null");
    }

    @Override
    public void execute(CoprocessorRequest request, StreamObserver<CoprocessorResponse> observer) {
        ServerCallStreamObserver<CoprocessorResponse> stream = (ServerCallStreamObserver<CoprocessorResponse>) observer;
        ReentrantLock lock = new ReentrantLock();
        Condition ready = lock.newCondition();
        stream.setOnReadyHandler(() -> {
            lock.lock();
            try {
                ready.signalAll();
            } finally {
                lock.unlock();
            }
        });
        stream.setOnCancelHandler(() -> {
            lock.lock();
            try {
                ready.signalAll();
            } finally {
                lock.unlock();
            }
        });
        service.execute(request, new CoprocessorHandler.ResponseSink() {
            @Override
            public boolean awaitReady() {
                lock.lock();
                try {
                    while (!stream.isReady() && !stream.isCancelled()) {
                        ready.await(100, TimeUnit.MILLISECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                } finally {
                    lock.unlock();
                }
                return !stream.isCancelled();
            }

            @Override
            public boolean cancelled() {
                return stream.isCancelled();
            }

            @Override
            public void send(CoprocessorResponse response) {
                if (!stream.isCancelled()) {
                    stream.onNext(response);
                }
            }

            @Override
            public void complete() {
                if (!stream.isCancelled()) {
                    stream.onCompleted();
                }
            }
        });
    }
}
