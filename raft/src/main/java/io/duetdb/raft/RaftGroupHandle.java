package io.duetdb.raft;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.TimeDuration;

/** One group as seen from one of its replicas: propose, read barriers, membership, role. */
public final class RaftGroupHandle implements AutoCloseable {
    /**
     * The largest command one entry may carry. Ratis cannot replicate an entry larger than its appender
     * buffer ({@link RaftNode#MAX_ENTRY_BYTES}): the appender fails on it forever and the group stops, so
     * oversized commands are refused before they reach the log.
     */
    public static final int MAX_COMMAND_BYTES = RaftNode.MAX_ENTRY_BYTES - (64 << 10);

    private final RaftServer server;
    private final RaftGroupId groupId;
    private final RaftGroupKey key;
    private final RaftProperties clientProperties;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final long requestTimeoutMillis;
    private volatile RaftClient forwardingClient;

    RaftGroupHandle(RaftServer server, RaftGroupId groupId, RaftGroupKey key, RaftProperties clientProperties,
            long requestTimeoutMillis) {
        this.server = server;
        this.groupId = groupId;
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
        if (command.length > MAX_COMMAND_BYTES) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("a Raft command of " + command.length
                    + " bytes exceeds the limit of " + MAX_COMMAND_BYTES));
        }
        return submitLocally(RaftClientRequest.writeRequestType(), command);
    }

    /**
     * A ReadIndex round: completes once this replica has applied everything committed when the call began.
     * On the leader it also proves leadership: a majority acknowledged it after the call began, so until
     * {@code start + electionTimeoutMin} no other replica can have been elected (they reject pre-votes while
     * they hear from a valid leader). On a follower or listener it asks the leader for the index.
     */
    public CompletableFuture<Void> readIndex() {
        return submitLocally(RaftClientRequest.readRequestType(), new byte[0]).thenApply(reply -> null);
    }

    /** Same as {@link #readIndex()}; the name says why the leader calls it. */
    public CompletableFuture<Void> confirmLeadership() {
        return readIndex();
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

    /**
     * Changes the membership (this replica must lead): Ratis catches new members up before they count,
     * and moves through joint consensus. Completes when the new configuration is committed.
     */
    public CompletableFuture<Void> setConfiguration(List<RaftPeerSpec> voters, List<RaftPeerSpec> listeners) {
        SetConfigurationRequest request = new SetConfigurationRequest(clientId, server.getId(), groupId,
                callIds.incrementAndGet(), SetConfigurationRequest.Arguments.newBuilder()
                        .setServersInNewConf(RaftNode.toRaftPeers(voters))
                        .setListenersInNewConf(RaftNode.toRaftPeers(listeners))
                        .build());
        try {
            return server.setConfigurationAsync(request).handle((reply, error) -> {
                if (error != null) {
                    throw translate(error);
                }
                unwrap(reply);
                return null;
            });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(translate(e));
        }
    }

    /** Hands leadership to another voter; completes when it leads or fails after the timeout. */
    public CompletableFuture<Void> transferLeadership(String peerId, Duration timeout) {
        TransferLeadershipRequest request = new TransferLeadershipRequest(clientId, server.getId(), groupId,
                callIds.incrementAndGet(), RaftPeerId.valueOf(peerId), timeout.toMillis());
        try {
            return server.transferLeadershipAsync(request).handle((reply, error) -> {
                if (error != null) {
                    throw translate(error);
                }
                unwrap(reply);
                return null;
            });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(translate(e));
        }
    }

    /** The members in the configuration this replica knows, voters first. */
    public List<RaftPeerSpec> configuration() {
        RaftConfiguration configuration = division().getRaftConf();
        List<RaftPeerSpec> peers = new ArrayList<>();
        for (RaftPeer peer : configuration.getCurrentPeers(RaftPeerRole.FOLLOWER)) {
            peers.add(new RaftPeerSpec(peer.getId().toString(), peer.getAddress(), false));
        }
        for (RaftPeer peer : configuration.getCurrentPeers(RaftPeerRole.LISTENER)) {
            peers.add(new RaftPeerSpec(peer.getId().toString(), peer.getAddress(), true));
        }
        return peers;
    }

    /** Whether the configuration is being changed (joint consensus in progress). */
    public boolean isConfigurationChanging() {
        return !division().getRaftConf().getPreviousPeers().isEmpty();
    }

    private CompletableFuture<byte[]> submitLocally(RaftClientRequest.Type type, byte[] payload) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(server.getId())
                .setGroupId(groupId)
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

    private RaftServer.Division division() {
        try {
            return server.getDivision(groupId);
        } catch (IOException e) {
            throw new RaftUnavailableException(key + " is not hosted here", e);
        }
    }

    private DivisionInfo info() {
        return division().getInfo();
    }

    /** Whether the group still runs on this node (false after removal or close). */
    public boolean isAlive() {
        try {
            return server.getDivision(groupId).getInfo().isAlive();
        } catch (IOException e) {
            return false;
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

    public long commitIndex() {
        return division().getRaftLog().getLastCommittedIndex();
    }

    public String role() {
        return info().getCurrentRole().name();
    }

    /** Follower id to the index up to which its log matches the leader's; empty when not leading. */
    public java.util.Map<String, Long> followerMatchIndices() {
        RaftServer.Division division = division();
        long[] indices = division.getInfo().getFollowerMatchIndices();
        java.util.Map<String, Long> result = new java.util.LinkedHashMap<>();
        if (indices == null || indices.length == 0) {
            return result;
        }
        List<RaftPeer> others = new ArrayList<>();
        for (RaftPeer peer : division.getRaftConf().getCurrentPeers(RaftPeerRole.FOLLOWER)) {
            if (!peer.getId().equals(server.getId())) {
                others.add(peer);
            }
        }
        for (RaftPeer peer : division.getRaftConf().getCurrentPeers(RaftPeerRole.LISTENER)) {
            others.add(peer);
        }
        for (int i = 0; i < Math.min(indices.length, others.size()); i++) {
            result.put(others.get(i).getId().toString(), indices[i]);
        }
        return result;
    }

    public List<RaftPeerSpec> peers() {
        return configuration();
    }

    private RaftClient client() {
        RaftClient client = forwardingClient;
        if (client == null) {
            synchronized (this) {
                if (forwardingClient == null) {
                    RaftGroup group = RaftGroup.valueOf(groupId, RaftNode.toRaftPeers(configuration()));
                    forwardingClient = RaftClient.newBuilder().setProperties(clientProperties).setRaftGroup(group)
                            .setClientId(ClientId.randomId())
                            .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
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
