package io.duetdb.store.internal.rpc;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** gRPC channels to other stores, one per address, kept open. */
public final class StoreClients implements AutoCloseable {
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

    @Override
    public void close() {
        List<ManagedChannel> open = List.copyOf(channels.values());
        channels.clear();
        open.forEach(ManagedChannel::shutdownNow);
    }
}
