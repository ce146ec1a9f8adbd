package io.duetdb.raft;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.util.ExitUtils;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.raft.internal.DurableStateMachineAdapter;
import io.duetdb.raft.internal.StateMachineAdapter;

/**
 * One Ratis server: one Raft port on which this node takes part in any number of groups, each with its
 * own state machine made by the factory (never one instance shared by groups). Groups found on disk are
 * recovered at start.
 */
public final class RaftNode implements AutoCloseable {
    /** The largest log entry (with Ratis' own framing) the appenders and the log writer are sized for. */
    public static final int MAX_ENTRY_BYTES = 8 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

    private final RaftNodeOptions options;
    private final Function<RaftGroupKey, ? extends RaftStateMachine> stateMachines;
    private final Map<RaftGroupKey, RaftGroupHandle> handles = new ConcurrentHashMap<>();
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private RaftServer server;

    public RaftNode(RaftNodeOptions options, Function<RaftGroupKey, ? extends RaftStateMachine> stateMachines) {
        // Ratis' default is to end the JVM on any uncaught exception in any thread; in a process that hosts
        // several components that is too blunt. Such exceptions are logged instead (Ratis has already replaced
        // the JVM's default handler, which would otherwise print them).
        ExitUtils.setTerminateOnUncaughtException(false);
        Thread.setDefaultUncaughtExceptionHandler((thread, error) ->
                LOG.error("uncaught exception in thread {}", thread.getName(), error));
        this.options = requireNonNull(options, "options is null");
        this.stateMachines = requireNonNull(stateMachines, "stateMachines is null");
    }

    /**
     * Starts the server with one group, recovered from disk if this node has been a member before and
     * created from {@code peers} otherwise.
     */
    public RaftGroupHandle start(RaftGroupKey key, List<RaftPeerSpec> peers) throws IOException {
        RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(key.toUuid()), toRaftPeers(peers));
        startServer(group);
        LOG.info("Raft server {} listening on {}:{} with group {} ({} peers)", options.nodeId(), options.bindHost(),
                options.port(), key, peers.size());
        return handle(key);
    }

    /** The groups whose logs are on disk, which {@link #start()} would recover. */
    public List<RaftGroupKey> storedGroups() throws IOException {
        List<RaftGroupKey> keys = new ArrayList<>();
        if (!Files.isDirectory(options.storageDirectory())) {
            return keys;
        }
        try (Stream<Path> paths = Files.list(options.storageDirectory())) {
            for (Path path : paths.filter(Files::isDirectory).toList()) {
                try {
                    keys.add(RaftGroupKey.fromUuid(UUID.fromString(path.getFileName().toString())));
                } catch (IllegalArgumentException e) {
                    // Not a group's directory.
                }
            }
        }
        return keys;
    }

    /**
     * Deletes a group's log and Ratis metadata from disk before {@link #start()}, so that the group is not recovered
     * (its state machine lost the data the log's start assumes). Does nothing when the group has none.
     */
    public void deleteStoredGroup(RaftGroupKey key) throws IOException {
        if (server != null) {
            throw new IllegalStateException("a group's storage is deleted before the server starts");
        }
        if (!Files.exists(groupDirectory(key))) {
            return;
        }
        deleteGroupDirectory(key);
        LOG.info("deleted the stored Raft group {} ({})", key, groupDirectory(key));
    }

    /** Starts the server with whatever groups it finds on disk; more can be added with {@link #addGroup}. */
    public Collection<RaftGroupHandle> start() throws IOException {
        startServer(null);
        for (RaftGroupId groupId : server.getGroupIds()) {
            handle(RaftGroupKey.fromUuid(groupId.getUuid()));
        }
        LOG.info("Raft server {} listening on {}:{}, recovered {} groups", options.nodeId(), options.bindHost(),
                options.port(), handles.size());
        return List.copyOf(handles.values());
    }

    private void startServer(RaftGroup group) throws IOException {
        // Ratis calls System.exit when its gRPC server cannot bind, so find out first.
        checkPortFree(options.bindHost(), options.port());
        RaftServer.Builder builder = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(options.nodeId()))
                .setProperties(serverProperties())
                .setOption(RaftStorage.StartupOption.RECOVER)
                .setStateMachineRegistry(this::newStateMachine);
        if (group != null) {
            builder.setGroup(group);
        }
        server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            if (hasCause(e, BindException.class)) {
                throw new IOException("Raft port " + options.bindHost() + ":" + options.port() + " is already in use", e);
            }
            throw e;
        }
    }

    private StateMachine newStateMachine(RaftGroupId groupId) {
        RaftGroupKey key = RaftGroupKey.fromUuid(groupId.getUuid());
        String name = options.nodeId() + "/" + key;
        RaftStateMachine stateMachine = stateMachines.apply(key);
        if (stateMachine instanceof ReplicatedStateMachine replicated) {
            return new StateMachineAdapter(replicated, name);
        }
        return new DurableStateMachineAdapter((DurableStateMachine) stateMachine, name);
    }

    /**
     * Creates a new group on this node (format), with this node among {@code peers}. When Ratis fails to start the
     * group it formatted (a leader's snapshot or heartbeat can race its start: "previous != null"), the group is not
     * running and its new directory would make every later add fail to format: the directory goes, and the caller
     * may try again.
     */
    public RaftGroupHandle addGroup(RaftGroupKey key, List<RaftPeerSpec> peers) throws IOException {
        RaftGroupId groupId = RaftGroupId.valueOf(key.toUuid());
        boolean stored = Files.exists(groupDirectory(key));
        RaftGroup group = RaftGroup.valueOf(groupId, toRaftPeers(peers));
        RaftClientReply reply = server.groupManagementAsync(GroupManagementRequest.newAdd(clientId, server.getId(),
                callIds.incrementAndGet(), group, true)).join();
        if (!reply.isSuccess()) {
            if (!stored && !isRunning(groupId)) {
                deleteGroupDirectory(key);
                LOG.warn("Raft group {} failed to start after it was formatted; its directory is deleted", key);
            }
            throw new IOException("cannot add Raft group " + key + ": " + reply.getException());
        }
        return handle(key);
    }

    private boolean isRunning(RaftGroupId groupId) throws IOException {
        for (RaftGroupId running : server.getGroupIds()) {
            if (running.equals(groupId)) {
                return true;
            }
        }
        return false;
    }

    private Path groupDirectory(RaftGroupKey key) {
        return options.storageDirectory().resolve(key.toUuid().toString());
    }

    private void deleteGroupDirectory(RaftGroupKey key) throws IOException {
        Path directory = groupDirectory(key);
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** Leaves a group and forgets it: its log and Ratis metadata are deleted (the state machine keeps its data). */
    public void removeGroup(RaftGroupKey key) throws IOException {
        RaftGroupHandle handle = handles.remove(key);
        if (handle != null) {
            handle.close();
        }
        RaftClientReply reply = server.groupManagementAsync(GroupManagementRequest.newRemove(clientId, server.getId(),
                callIds.incrementAndGet(), RaftGroupId.valueOf(key.toUuid()), true, false)).join();
        if (!reply.isSuccess()) {
            throw new IOException("cannot remove Raft group " + key + ": " + reply.getException());
        }
    }

    public Optional<RaftGroupHandle> group(RaftGroupKey key) {
        return Optional.ofNullable(handles.get(key));
    }

    public Collection<RaftGroupHandle> groups() {
        return List.copyOf(handles.values());
    }

    private RaftGroupHandle handle(RaftGroupKey key) {
        return handles.computeIfAbsent(key, k -> new RaftGroupHandle(server, RaftGroupId.valueOf(k.toUuid()), k,
                clientProperties(), options.requestTimeout().toMillis()));
    }

    private static void checkPortFree(String host, int port) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw new IOException("Raft port " + host + ":" + port + " is already in use", e);
        }
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    static List<RaftPeer> toRaftPeers(List<RaftPeerSpec> peers) {
        List<RaftPeer> result = new ArrayList<>();
        for (RaftPeerSpec peer : peers) {
            result.add(toRaftPeer(peer));
        }
        return result;
    }

    static RaftPeer toRaftPeer(RaftPeerSpec peer) {
        return RaftPeer.newBuilder().setId(peer.id()).setAddress(peer.address())
                .setStartupRole(peer.listener() ? RaftPeerRole.LISTENER : RaftPeerRole.FOLLOWER).build();
    }

    private RaftProperties serverProperties() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(properties, options.bindHost());
        GrpcConfigKeys.Server.setPort(properties, options.port());
        RaftServerConfigKeys.setStorageDir(properties, Collections.singletonList(options.storageDirectory().toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, millis(options.electionTimeoutMin().toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, millis(options.electionTimeoutMax().toMillis()));
        RaftServerConfigKeys.Rpc.setRequestTimeout(properties, millis(options.requestTimeout().toMillis()));
        // ReadIndex rounds (leadership confirmation, follower reads) need linearizable reads; leases are our own.
        RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(properties, false);
        RaftServerConfigKeys.Read.setTimeout(properties, millis(options.requestTimeout().toMillis()));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, options.snapshotThreshold());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("8MB"));
        // An entry must fit in one appender buffer and in the log writer's buffer (which needs 8 bytes of framing).
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES + (64 << 10)));
        // Durable state machines fetch snapshots themselves; Ratis ships files only for in-memory ones.
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(properties,
                options.snapshotTransfer() == RaftNodeOptions.SnapshotTransfer.RATIS_FILES);
        if (options.serverThreads() > 0) {
            RaftServerConfigKeys.ThreadPool.setServerCached(properties, false);
            RaftServerConfigKeys.ThreadPool.setServerSize(properties, options.serverThreads());
        }
        return properties;
    }

    private RaftProperties clientProperties() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        org.apache.ratis.client.RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
                millis(options.requestTimeout().toMillis()));
        return properties;
    }

    private static TimeDuration millis(long value) {
        return TimeDuration.valueOf(value, TimeUnit.MILLISECONDS);
    }

    public String nodeId() {
        return options.nodeId();
    }

    @Override
    public void close() throws IOException {
        handles.values().forEach(RaftGroupHandle::close);
        handles.clear();
        if (server != null) {
            server.close();
            LOG.info("Raft server {} stopped", options.nodeId());
        }
    }
}
