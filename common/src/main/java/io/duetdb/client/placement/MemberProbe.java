package io.duetdb.client.placement;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.proto.placement.GetMembersRequest;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.PlacementGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/** Asks one placement member directly, without leader discovery: for health checks. */
public final class MemberProbe {
    private MemberProbe() {
    }

    /** The member's answer to GetMembers, or empty if it did not answer within the timeout. */
    public static Optional<GetMembersResponse> probe(HostAndPort address, Duration timeout) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
        try {
            return Optional.of(PlacementGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .getMembers(GetMembersRequest.getDefaultInstance()));
        } catch (StatusRuntimeException e) {
            return Optional.empty();
        } finally {
            channel.shutdownNow();
        }
    }
}
