package io.duetdb.raft;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.TimeDuration;

/** One group as seen from one of its replicas: propose, confirm leadership, read the replica's role. */
public final class RaftGroupHandle implements AutoCloseable {
    private final RaftServer server;
    private final RaftGroup group;
    private final RaftGroupKey key;
    private final RaftProperties clientProperties;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final long requestTimeoutMillis;
    private volatile RaftClient forwardingClient;

    RaftGroupHandle(RaftServer server, RaftGroup group, RaftGroupKey key, RaftProperties clientProperties,
            long requestTimeoutMillis) {
        this.server = server;
        this.group = group;
        this.key = key;
        this.clientProperties = clientProperties;
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    public RaftGroupKey key() {
        return key;
    }

    /**
     * Proposes a command through this replica, which must lead the group; completes with the state
     * machine's reply once the command is committed and applied here. Fails with {@link NotLeaderException}
     * or {@link RaftUnavailableException}.
     */
    public CompletableFuture<byte[]> propose(byte[] command) {
        return submitLocally(RaftClientRequest.writeRequestType(), command);
    }

    /**
     * Completes when a majority has acknowledged this replica as leader after the call began (a ReadIndex
     * round): until {@code start + electionTimeoutMin} no other replica can have been elected.
     */
    public CompletableFuture<Void> confirmLeadership() {
        return submitLocally(RaftClientRequest.readRequestType(), new byte[0]).thenApply(reply -> null);
    }

    /**
     * Sends a command to whichever replica leads, for a follower's own requests. Blocks; follows leader
     * hints for a few attempts, then fails, so callers retry later.
     */
    public byte[] submitToLeader(byte[] command) {
        try {
            return unwrap(client().io().send(Message.valueOf(ByteString.copyFrom(command))));
        } catch (IOException e) {
            throw translate(e);
        }
    }

    private CompletableFuture<byte[]> submitLocally(RaftClientRequest.Type type, byte[] payload) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(server.getId())
                .setGroupId(group.getGroupId())
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(payload)))
                .setType(type)
                .setTimeoutMs(requestTimeoutMillis)
                .build();
        try {
            return server.submitClientRequestAsync(request)
                    .orTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS)
                    .handle((reply, error) -> {
                        if (error != null) {
                            throw translate(error);
                        }
                        return unwrap(reply);
                    });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new RaftUnavailableException(key + ": " + e.getMessage(), e));
        }
    }

    private static byte[] unwrap(RaftClientReply reply) {
        if (reply.isSuccess()) {
            return reply.getMessage() == null ? new byte[0] : reply.getMessage().getContent().toByteArray();
        }
        throw translate(reply.getException());
    }

    private static RuntimeException translate(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof org.apache.ratis.protocol.exceptions.NotLeaderException notLeader) {
            String leader = notLeader.getSuggestedLeader() == null ? null : notLeader.getSuggestedLeader().getId().toString();
            return new NotLeaderException("not the leader", leader);
        }
        if (cause instanceof LeaderNotReadyException) {
            return new RaftUnavailableException("leader not ready yet", cause);
        }
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return new RaftUnavailableException("timed out waiting for commit", cause);
        }
        if (cause instanceof RaftException || cause instanceof IOException) {
            return new RaftUnavailableException(cause.getMessage(), cause);
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new RaftUnavailableException(String.valueOf(cause), cause);
    }

    private DivisionInfo info() {
        try {
            return server.getDivision(group.getGroupId()).getInfo();
        } catch (IOException e) {
            throw new RaftUnavailableException(key + " is not hosted here", e);
        }
    }

    public boolean isLeader() {
        return info().isLeader();
    }

    public boolean isLeaderReady() {
        DivisionInfo info = info();
        return info.isLeader() && info.isLeaderReady();
    }

    public Optional<String> leaderId() {
        RaftPeerId leader = info().getLeaderId();
        return leader == null ? Optional.empty() : Optional.of(leader.toString());
    }

    public long currentTerm() {
        return info().getCurrentTerm();
    }

    public long lastAppliedIndex() {
        return info().getLastAppliedIndex();
    }

    public String role() {
        return info().getCurrentRole().name();
    }

    public List<RaftPeerSpec> peers() {
        return group.getPeers().stream()
                .map(peer -> RaftPeerSpec.voter(peer.getId().toString(), peer.getAddress()))
                .toList();
    }

    private RaftClient client() {
        RaftClient client = forwardingClient;
        if (client == null) {
            synchronized (this) {
                if (forwardingClient == null) {
                    forwardingClient = RaftClient.newBuilder().setProperties(clientProperties).setRaftGroup(group)
                            .setClientId(ClientId.randomId()).setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                                    group.getPeers().size() + 1, TimeDuration.valueOf(50, TimeUnit.MILLISECONDS)))
                            .build();
                }
                client = forwardingClient;
            }
        }
        return client;
    }

    @Override
    public void close() {
        RaftClient client = forwardingClient;
        if (client != null) {
            try {
                client.close();
            } catch (IOException e) {
                // Closing a client only releases connections.
            }
        }
    }
}
