package io.duetdb.store.internal.rpc;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.proto.store.PushResolvedTsRequest;
import io.duetdb.proto.store.PushResolvedTsResponse;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;

/** gRPC channels to other stores, one per address, kept open. */
public final class StoreClients implements AutoCloseable {
    private static final long PUSH_DEADLINE_SECONDS = 5;
    private final Map<HostAndPort, ManagedChannel> channels = new ConcurrentHashMap<>();

    public ManagedChannel channel(HostAndPort address) {
        return channels.computeIfAbsent(address, a -> NettyChannelBuilder.forAddress(a.host(), a.port())
                .usePlaintext()
                .maxInboundMessageSize(64 << 20)
                .build());
    }

    public StoreAdminGrpc.StoreAdminBlockingStub admin(HostAndPort address) {
        return StoreAdminGrpc.newBlockingStub(channel(address));
    }

    /** Sends a region leader's resolved timestamps to a learner store. */
    public CompletableFuture<Void> pushResolvedTs(HostAndPort address, PushResolvedTsRequest request) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        StoreAdminGrpc.newStub(channel(address)).withDeadlineAfter(PUSH_DEADLINE_SECONDS, TimeUnit.SECONDS)
                .pushResolvedTs(request, new StreamObserver<>() {
                    @Override
                    public void onNext(PushResolvedTsResponse response) {
                    }

                    @Override
                    public void onError(Throwable error) {
                        result.completeExceptionally(error);
                    }

                    @Override
                    public void onCompleted() {
                        result.complete(null);
                    }
                });
        return result;
    }

    @Override
    public void close() {
        List<ManagedChannel> open = List.copyOf(channels.values());
        channels.clear();
        open.forEach(ManagedChannel::shutdownNow);
    }
}
