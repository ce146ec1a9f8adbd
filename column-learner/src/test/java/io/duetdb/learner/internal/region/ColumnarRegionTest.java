package io.duetdb.learner.internal.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.compute.scan.RowSource;
import io.duetdb.learner.internal.proto.ReplicaHeader;
import io.duetdb.learner.internal.proto.ReplicaState;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.PackFiles;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.kv.Mutation;
import io.duetdb.proto.kv.Op;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.raftcmd.ChangePeer;
import io.duetdb.proto.raftcmd.PeerChange;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RaftEntry;
import io.duetdb.proto.raftcmd.ResolvedTs;
import io.duetdb.proto.raftcmd.Split;
import io.duetdb.proto.raftcmd.TxnCommit;
import io.duetdb.proto.raftcmd.TxnPrewrite;
import io.duetdb.proto.raftcmd.TxnRollback;
import io.duetdb.raft.LogPosition;

class ColumnarRegionTest {
    private static final long TABLE = 7;
    private static final long LEARNER_STORE = 4;
    private static final RegionEpoch EPOCH = RegionEpoch.newBuilder().setConfVersion(2).setVersion(1).build();
    private static final Region REGION = Region.newBuilder().setId(100).setEpoch(EPOCH)
            .addPeers(Peer.newBuilder().setId(1).setStoreId(1))
            .addPeers(Peer.newBuilder().setId(2).setStoreId(LEARNER_STORE).setRole(PeerRole.LEARNER)).build();

    @TempDir
    Path directory;

    private final RecordingListener listener = new RecordingListener();
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    private PackFiles packs() {
        return new PackFiles(directory.resolve("packs"), allocator);
    }

    @Test
    void replaysPrewritesCommitsRollbacksAndOnePhaseCommitsOfRowsOnly() {
        ColumnarRegion region = newRegion();
        region.apply(1, 6, entry(prewrite(10, 0, put(row(1), "a"), put(row(2), "b"), put(indexKey(), "i"))));
        assertThat(region.layers().active().pendingCount()).isEqualTo(2);
        region.apply(1, 7, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setCommit(TxnCommit.newBuilder()
                .addKeys(ByteString.copyFrom(row(1))).setStartTs(10).setCommitTs(11)).build()));
        region.apply(1, 8, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setRollback(TxnRollback.newBuilder()
                .addKeys(ByteString.copyFrom(row(2))).setStartTs(10)).build()));
        region.apply(1, 9, entry(prewrite(12, 13, put(row(3), "c"), delete(row(1)))));
        assertThat(values(region, 11)).containsExactly("a");
        assertThat(values(region, 13)).containsExactly("c");
        assertThat(region.layers().active().pendingCount()).isZero();
        assertThat(region.applied()).isEqualTo(new LogPosition(1, 9));
    }

    @Test
    void theResolvedTimestampStopsBelowTheOldestPrewriteHeldAndNeverFalls() {
        ColumnarRegion region = newRegion();
        assertThat(region.resolvedTs()).isZero();
        region.apply(1, 6, entry(resolved(100)));
        assertThat(region.resolvedTs()).isEqualTo(100);
        region.apply(1, 7, entry(prewrite(120, 0, put(row(1), "a")), prewrite(110, 0, put(row(2), "b"))));
        region.apply(1, 8, entry(resolved(200)));
        assertThat(region.resolvedTs()).isEqualTo(110);
        // A prewrite of an index key alone is not held, and does not hold the rows back.
        region.apply(1, 9, entry(prewrite(105, 0, put(indexKey(), "i"))));
        region.apply(1, 10, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setRollback(TxnRollback.newBuilder()
                .addKeys(ByteString.copyFrom(row(2))).setStartTs(110)).build()));
        region.apply(1, 11, entry(resolved(300)));
        assertThat(region.resolvedTs()).isEqualTo(120);
        region.apply(1, 12, entry(prewrite(50, 0, put(row(3), "c")), resolved(400)));
        assertThat(region.resolvedTs()).isEqualTo(120);
        region.apply(1, 13, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setSplit(Split.newBuilder()
                .setSplitKey(ByteString.copyFrom(row(5))).setNewRegionId(200).addNewPeerIds(21).addNewPeerIds(22)).build()));
        assertThat(region.resolvedTs()).isZero();
    }

    @Test
    void aPushedResolvedTimestampWaitsForItsIndexAndItsEpoch() {
        ColumnarRegion region = newRegion();
        assertThat(region.offerResolvedTs(100, 5, EPOCH)).isEqualTo(ColumnarRegion.Advance.TAKEN);
        assertThat(region.resolvedTs()).isEqualTo(100);
        // The prewrite at index 6 is held once the replica reaches index 7: the push lowers to its start.
        assertThat(region.offerResolvedTs(200, 7, EPOCH)).isEqualTo(ColumnarRegion.Advance.HELD);
        assertThat(region.resolvedTs()).isEqualTo(100);
        region.apply(1, 6, entry(prewrite(150, 0, put(row(1), "a"))));
        assertThat(region.resolvedTs()).isEqualTo(100);
        region.apply(1, 7, entry(prewrite(160, 161, put(row(2), "b"))));
        assertThat(region.resolvedTs()).isEqualTo(150);
        region.apply(1, 8, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setCommit(TxnCommit.newBuilder()
                .addKeys(ByteString.copyFrom(row(1))).setStartTs(150).setCommitTs(170)).build()));
        // Applied past the index: taken at once, and no prewrite holds it back now.
        assertThat(region.offerResolvedTs(300, 7, EPOCH)).isEqualTo(ColumnarRegion.Advance.TAKEN);
        assertThat(region.resolvedTs()).isEqualTo(300);
        assertThat(region.offerResolvedTs(250, 8, EPOCH)).isEqualTo(ColumnarRegion.Advance.TAKEN);
        assertThat(region.resolvedTs()).as("never falls").isEqualTo(300);
        RegionEpoch other = EPOCH.toBuilder().setVersion(EPOCH.getVersion() + 1).build();
        assertThat(region.offerResolvedTs(400, 8, other)).isEqualTo(ColumnarRegion.Advance.REFUSED);
        assertThat(region.offerResolvedTs(500, 10, other)).isEqualTo(ColumnarRegion.Advance.HELD);
        region.apply(1, 9, entry());
        region.apply(1, 10, entry());
        assertThat(region.resolvedTs()).as("held for another epoch, refused when its index applies").isEqualTo(300);
        // A split resets the resolved timestamp and drops a held push.
        assertThat(region.offerResolvedTs(600, 12, EPOCH)).isEqualTo(ColumnarRegion.Advance.HELD);
        region.apply(1, 11, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setSplit(Split.newBuilder()
                .setSplitKey(ByteString.copyFrom(row(5))).setNewRegionId(200).addNewPeerIds(21).addNewPeerIds(22)).build()));
        region.apply(1, 12, entry());
        assertThat(region.resolvedTs()).isZero();
    }

    @Test
    void refusesWhatTheRowStoreRefusesAndSkipsReplayedEntries() {
        ColumnarRegion region = newRegion();
        RegionEpoch stale = EPOCH.toBuilder().setVersion(0).build();
        region.apply(1, 6, entry(prewrite(10, 11, put(row(1), "a")).toBuilder().setEpoch(stale).build()));
        byte[] outside = Keys.recordKey(TABLE + 1, 1);
        Region narrow = REGION.toBuilder().setEndKey(ByteString.copyFrom(Keys.recordEnd(TABLE))).build();
        ColumnarRegion bounded = new ColumnarRegion(101, LEARNER_STORE, header(narrow, 5), Layers.of(new RegionDelta()),
                new ReplicaFiles(directory, packs()), listener, installer());
        bounded.apply(1, 6, entry(prewrite(10, 11, put(row(1), "a"), put(outside, "x"))));
        assertThat(values(region, 20)).isEmpty();
        assertThat(values(bounded, 20)).isEmpty();
        region.apply(1, 7, entry(prewrite(12, 13, put(row(1), "b"))));
        region.apply(1, 7, entry(prewrite(14, 15, put(row(1), "replayed"))));
        assertThat(values(region, 20)).containsExactly("b");
    }

    @Test
    void aSplitHandsTheRightHalfToTheListenerAndARemovalIsReported() {
        ColumnarRegion region = newRegion();
        region.apply(1, 6, entry(prewrite(10, 11, put(row(1), "a"), put(row(9), "z"))));
        region.apply(1, 7, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setSplit(Split.newBuilder()
                .setSplitKey(ByteString.copyFrom(row(5))).setNewRegionId(200).addNewPeerIds(21).addNewPeerIds(22)).build()));
        assertThat(values(region, 20)).containsExactly("a");
        assertThat(listener.splits).hasSize(1);
        assertThat(listener.splits.get(0).getId()).isEqualTo(200);
        assertThat(listener.splitLayers.get(0).active().versionCount()).isEqualTo(1);
        assertThat(region.region().getEpoch().getVersion()).isEqualTo(2);
        RegionEpoch afterSplit = region.region().getEpoch();
        region.apply(1, 8, entry(RaftCommand.newBuilder().setEpoch(afterSplit).setChangePeer(ChangePeer.newBuilder()
                .setChange(PeerChange.REMOVE_PEER).setPeer(REGION.getPeers(1))).build()));
        assertThat(listener.removed).containsExactly(100L);
    }

    @Test
    void aSnapshotSavesTheReplicaAndAReloadAnswersTheSame() throws IOException {
        ColumnarRegion region = newRegion();
        region.apply(1, 6, entry(prewrite(10, 11, put(row(1), "a"))));
        region.apply(1, 7, entry(prewrite(12, 0, put(row(2), "b"))));
        assertThat(region.takeSnapshot()).isEqualTo(new LogPosition(1, 7));
        ReplicaFiles files = new ReplicaFiles(directory, packs());
        List<Path> saved = files.list();
        assertThat(saved).hasSize(1);
        ReplicaFiles.Saved loaded = files.load(saved.get(0), new HashMap<>());
        ColumnarRegion reloaded = new ColumnarRegion(100, LEARNER_STORE, loaded.header(), loaded.layers(), files, listener,
                installer());
        assertThat(reloaded.applied()).isEqualTo(new LogPosition(1, 7));
        assertThat(reloaded.latestSnapshot()).contains(new LogPosition(1, 7));
        reloaded.apply(1, 8, entry(RaftCommand.newBuilder().setEpoch(EPOCH).setCommit(TxnCommit.newBuilder()
                .addKeys(ByteString.copyFrom(row(2))).setStartTs(12).setCommitTs(13)).build()));
        assertThat(values(reloaded, 20)).containsExactly("a", "b");

        byte[] bytes = Files.readAllBytes(saved.get(0));
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(saved.get(0), bytes);
        assertThatThrownBy(() -> files.load(saved.get(0), new HashMap<>())).isInstanceOf(IOException.class);
    }

    private ColumnarRegion newRegion() {
        return new ColumnarRegion(100, LEARNER_STORE, header(REGION, 5), Layers.of(new RegionDelta()), new ReplicaFiles(directory, packs()),
                listener, installer());
    }

    private static ReplicaHeader header(Region region, long index) {
        return ReplicaHeader.newBuilder().setRegion(region).setState(ReplicaState.NORMAL).setAppliedTerm(1)
                .setAppliedIndex(index).build();
    }

    private static ColumnarRegion.SnapshotInstaller installer() {
        return (regionId, leaderId, first) -> CompletableFuture.failedFuture(new IllegalStateException("no snapshots here"));
    }

    private static byte[] entry(RaftCommand... commands) {
        return RaftEntry.newBuilder().addAllCommands(List.of(commands)).build().toByteArray();
    }

    private static RaftCommand resolved(long ts) {
        return RaftCommand.newBuilder().setEpoch(EPOCH).setResolvedTs(ResolvedTs.newBuilder().setTs(ts)).build();
    }

    private static RaftCommand prewrite(long startTs, long onePhaseCommitTs, Mutation... mutations) {
        return RaftCommand.newBuilder().setEpoch(EPOCH).setPrewrite(TxnPrewrite.newBuilder().addAllMutations(List.of(mutations))
                .setPrimary(ByteString.copyFrom(mutations[0].getKey().toByteArray())).setStartTs(startTs).setLockTtl(3000)
                .setOnePcCommitTs(onePhaseCommitTs)).build();
    }

    private static Mutation put(byte[] key, String value) {
        return Mutation.newBuilder().setOp(Op.PUT).setKey(ByteString.copyFrom(key))
                .setValue(ByteString.copyFromUtf8(value)).build();
    }

    private static Mutation delete(byte[] key) {
        return Mutation.newBuilder().setOp(Op.DELETE).setKey(ByteString.copyFrom(key)).build();
    }

    private static byte[] row(long handle) {
        return Keys.recordKey(TABLE, handle);
    }

    private static byte[] indexKey() {
        return Keys.indexPrefix(TABLE, 1);
    }

    private static List<String> values(ColumnarRegion region, long readTs) {
        List<String> values = new ArrayList<>();
        try (RowSource rows = region.layers().active().rows(List.<byte[][]>of(new byte[][] {Keys.recordPrefix(TABLE), Keys.recordEnd(TABLE)}),
                readTs)) {
            while (rows.advance()) {
                values.add(new String(rows.value(), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static final class RecordingListener implements ColumnarRegion.Listener {
        final List<Region> splits = new ArrayList<>();
        final List<Layers> splitLayers = new ArrayList<>();
        final List<Long> removed = new ArrayList<>();

        @Override
        public void split(ColumnarRegion left, Region right, Layers layers) {
            splits.add(right);
            splitLayers.add(layers);
        }

        @Override
        public Layers absorbSource(long sourceRegionId) {
            return null;
        }

        @Override
        public void removed(ColumnarRegion region, String why) {
            removed.add(region.regionId());
        }

        @Override
        public void applied(ColumnarRegion region) {
        }
    }
}
