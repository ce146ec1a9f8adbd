package io.duetdb.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Membership changes, snapshot installation by the state machine, and replay after restart, on groups whose
 * state machines keep their own state (as regions do).
 */
class DurableGroupTest {
    /** A sum with its applied position; "storage" survives node restarts through the map below. */
    static final class SumMachine implements DurableStateMachine {
        final String node;
        final Map<String, SumMachine> machines;
        volatile long sum;
        volatile LogPosition applied;
        volatile LogPosition snapshot;
        volatile int applies;
        volatile int installs;

        SumMachine(String node, Map<String, SumMachine> machines, LogPosition initial) {
            this.node = node;
            this.machines = machines;
            this.applied = initial;
            this.snapshot = initial.index() >= 0 ? initial : null;
        }

        @Override
        public LogPosition applied() {
            return applied;
        }

        @Override
        public synchronized byte[] apply(long term, long index, byte[] command) {
            if (index <= applied.index()) {
                return new byte[0];
            }
            sum += ByteBuffer.wrap(command).getLong();
            applied = new LogPosition(term, index);
            applies++;
            return ByteBuffer.allocate(8).putLong(sum).array();
        }

        @Override
        public synchronized LogPosition takeSnapshot() {
            snapshot = applied;
            return applied;
        }

        @Override
        public Optional<LogPosition> latestSnapshot() {
            return Optional.ofNullable(snapshot);
        }

        @Override
        public CompletableFuture<LogPosition> installSnapshot(String leaderId, LogPosition leaderFirstEntry) {
            SumMachine leader = machines.get(leaderId);
            synchronized (leader) {
                synchronized (this) {
                    sum = leader.sum;
                    applied = leader.applied;
                    snapshot = leader.applied;
                    installs++;
                }
            }
            return CompletableFuture.completedFuture(snapshot);
        }
    }

    @TempDir
    Path directory;
    private final Map<String, SumMachine> machines = new ConcurrentHashMap<>();
    private final Map<String, RaftNode> nodes = new ConcurrentHashMap<>();
    private final Map<String, String> addresses = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws IOException {
        for (RaftNode node : nodes.values()) {
            node.close();
        }
    }

    private RaftNode node(String id, LogPosition initial) throws IOException {
        addresses.computeIfAbsent(id, i -> "127.0.0.1:" + RaftNodeTest.freePort());
        RaftNode node = new RaftNode(new RaftNodeOptions(id, "127.0.0.1", Integer.parseInt(addresses.get(id).split(":")[1]),
                directory.resolve(id), Duration.ofMillis(400), Duration.ofMillis(800), 1_000_000, Duration.ofSeconds(10), 0,
                RaftNodeOptions.SnapshotTransfer.STATE_MACHINE), key -> machines.computeIfAbsent(id,
                        n -> new SumMachine(n, machines, initial)));
        nodes.put(id, node);
        return node;
    }

    private RaftPeerSpec peer(String id, boolean listener) {
        return new RaftPeerSpec(id, addresses.get(id), listener);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private static byte[] number(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    @Test
    void newMembersFetchTheStateThenJoinAsVotersAndRestartsReplayNothingTwice() throws Exception {
        RaftGroupKey key = RaftGroupKey.region(7);
        LogPosition created = new LogPosition(1, 5);
        List<RaftNode> initial = new ArrayList<>();
        for (String id : List.of("a", "b", "c")) {
            initial.add(node(id, created));
        }
        List<RaftPeerSpec> voters = List.of(peer("a", false), peer("b", false), peer("c", false));
        List<RaftGroupHandle> handles = new ArrayList<>();
        for (RaftNode node : initial) {
            node.start();
            handles.add(node.addGroup(key, voters));
        }
        await("a leader", () -> handles.stream().anyMatch(RaftGroupHandle::isLeaderReady));
        RaftGroupHandle leader = handles.stream().filter(RaftGroupHandle::isLeaderReady).findFirst().orElseThrow();
        for (int i = 1; i <= 20; i++) {
            leader.propose(number(i)).join();
        }
        assertThat(leader.lastAppliedIndex()).isGreaterThan(5);

        // A fourth node joins as a listener: it starts empty and must fetch the state.
        RaftNode fourth = node("d", LogPosition.NONE);
        fourth.start();
        List<RaftPeerSpec> withListener = new ArrayList<>(voters);
        withListener.add(peer("d", true));
        RaftGroupHandle listenerHandle = fourth.addGroup(key, withListener);
        leader.setConfiguration(voters, List.of(peer("d", true))).join();
        await("the listener to install a snapshot and catch up", () -> machines.get("d").sum == 210);
        assertThat(machines.get("d").installs).isEqualTo(1);
        assertThat(listenerHandle.role()).isEqualTo("LISTENER");
        leader.propose(number(1)).join();
        await("the listener to apply new entries", () -> machines.get("d").sum == 211);

        // Promote it, then remove one of the original voters.
        List<RaftPeerSpec> four = List.of(peer("a", false), peer("b", false), peer("c", false), peer("d", false));
        leader.setConfiguration(four, List.of()).join();
        assertThat(leader.configuration()).extracting(RaftPeerSpec::listener).containsOnly(false).hasSize(4);
        String leaderId = leader.leaderId().orElseThrow();
        String removed = List.of("a", "b", "c").stream().filter(id -> !id.equals(leaderId)).findFirst().orElseThrow();
        List<RaftPeerSpec> three = four.stream().filter(p -> !p.id().equals(removed)).toList();
        leader.setConfiguration(three, List.of()).join();
        assertThat(leader.configuration()).extracting(RaftPeerSpec::id).doesNotContain(removed);

        // Leadership moves to the new voter on request.
        leader.transferLeadership("d", Duration.ofSeconds(10)).join();
        await("d to lead", listenerHandle::isLeaderReady);
        listenerHandle.propose(number(100)).join();

        // A restarted member replays its log from the last snapshot but applies nothing twice.
        String restart = three.stream().map(RaftPeerSpec::id).filter(id -> !id.equals("d")).findFirst().orElseThrow();
        long sumBefore = machines.get("d").sum;
        await("every member to apply the last entry", () -> machines.get(restart).sum == sumBefore);
        int appliesBefore = machines.get(restart).applies;
        nodes.get(restart).close();
        node(restart, created).start();
        listenerHandle.propose(number(1)).join();
        await("the restarted member to catch up", () -> machines.get(restart).sum == sumBefore + 1);
        assertThat(machines.get(restart).applies).as("applied once more, not the whole log again")
                .isEqualTo(appliesBefore + 1);

        // The removed member is no longer in the group; it can drop it.
        nodes.get(removed).removeGroup(key);
        assertThat(nodes.get(removed).group(key)).isEmpty();
    }
}
