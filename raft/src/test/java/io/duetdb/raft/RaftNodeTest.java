package io.duetdb.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import io.duetdb.common.net.LoopbackPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaftNodeTest {
    /** Sums the numbers it is given; replies with the sum after each. */
    static final class SumStateMachine implements ReplicatedStateMachine {
        volatile long sum;
        volatile long lastIndex;

        @Override
        public byte[] apply(long index, byte[] command) {
            sum += ByteBuffer.wrap(command).getLong();
            lastIndex = index;
            return ByteBuffer.allocate(8).putLong(sum).array();
        }

        @Override
        public byte[] query(byte[] request) {
            return ByteBuffer.allocate(8).putLong(sum).array();
        }

        @Override
        public void writeSnapshot(OutputStream out) throws IOException {
            new DataOutputStream(out).writeLong(sum);
        }

        @Override
        public void readSnapshot(InputStream in) throws IOException {
            sum = new DataInputStream(in).readLong();
        }
    }

    @TempDir
    Path directory;
    private final List<RaftNode> nodes = new ArrayList<>();
    private final List<SumStateMachine> machines = new ArrayList<>();
    private List<RaftPeerSpec> peers;

    @AfterEach
    void closeNodes() throws IOException {
        for (RaftNode node : nodes) {
            node.close();
        }
    }

    private RaftGroupHandle startNode(int index) throws IOException {
        SumStateMachine machine = new SumStateMachine();
        machines.set(index, machine);
        RaftPeerSpec peer = peers.get(index);
        RaftNode node = new RaftNode(new RaftNodeOptions(peer.id(), "127.0.0.1",
                Integer.parseInt(peer.address().split(":")[1]), directory.resolve(peer.id()),
                Duration.ofMillis(400), Duration.ofMillis(800), 20, Duration.ofSeconds(5), 0,
                RaftNodeOptions.SnapshotTransfer.RATIS_FILES), key -> machine);
        nodes.set(index, node);
        return node.start(RaftGroupKey.placement(), peers);
    }

    private List<RaftGroupHandle> startCluster() throws IOException {
        peers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            peers.add(RaftPeerSpec.voter("n" + i, "127.0.0.1:" + freePort()));
            nodes.add(null);
            machines.add(null);
        }
        List<RaftGroupHandle> handles = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            handles.add(startNode(i));
        }
        return handles;
    }

    private static RaftGroupHandle awaitLeader(List<RaftGroupHandle> handles) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (RaftGroupHandle handle : handles) {
                if (handle != null && handle.isLeaderReady()) {
                    return handle;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no leader within 20 s");
    }

    @Test
    void replicatesThroughTheLeaderAndRefusesFollowers() throws Exception {
        List<RaftGroupHandle> handles = startCluster();
        RaftGroupHandle leader = awaitLeader(handles);
        for (int i = 1; i <= 10; i++) {
            assertThat(ByteBuffer.wrap(leader.propose(longBytes(i)).join()).getLong()).isEqualTo(i * (i + 1) / 2);
        }
        leader.confirmLeadership().join();
        RaftGroupHandle follower = handles.stream().filter(h -> h != leader).findFirst().orElseThrow();
        assertThatThrownBy(() -> follower.propose(longBytes(1)).join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(NotLeaderException.class);
        assertThat(ByteBuffer.wrap(follower.submitToLeader(longBytes(45))).getLong()).isEqualTo(100);
        awaitApplied(100);
    }

    @Test
    void survivesLeaderLossAndRecoversFromSnapshotsAndLog() throws Exception {
        List<RaftGroupHandle> handles = startCluster();
        RaftGroupHandle leader = awaitLeader(handles);
        for (int i = 0; i < 50; i++) {
            leader.propose(longBytes(2)).join();
        }
        int leaderIndex = handles.indexOf(leader);
        nodes.get(leaderIndex).close();
        handles.set(leaderIndex, null);
        RaftGroupHandle next = awaitLeader(handles);
        assertThat(next).isNotSameAs(leader);
        next.propose(longBytes(1)).join();

        // Restart the old leader: it recovers snapshot + log and catches up.
        handles.set(leaderIndex, startNode(leaderIndex));
        SumStateMachine restarted = machines.get(leaderIndex);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (restarted.sum != 101 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(restarted.sum).isEqualTo(101);
        assertThat(directory.resolve(peers.get(leaderIndex).id()).toFile().list()).isNotEmpty();
    }

    private void awaitApplied(long sum) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (machines.stream().allMatch(m -> m.sum == sum)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("replicas did not all reach " + sum);
    }

    @Test
    void groupKeysRoundTripThroughUuids() {
        assertThat(RaftGroupKey.fromUuid(RaftGroupKey.region(42).toUuid())).isEqualTo(RaftGroupKey.region(42));
        assertThat(RaftGroupKey.fromUuid(RaftGroupKey.placement().toUuid())).isEqualTo(RaftGroupKey.placement());
        assertThatThrownBy(() -> RaftGroupKey.fromUuid(java.util.UUID.randomUUID()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static final LoopbackPorts PORTS = new LoopbackPorts();

    static int freePort() {
        return PORTS.allocate();
    }
}
