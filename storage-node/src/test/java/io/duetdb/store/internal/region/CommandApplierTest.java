package io.duetdb.store.internal.region;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.protobuf.ByteString;

import io.duetdb.common.keys.Keys;
import io.duetdb.proto.meta.Peer;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.meta.RegionEpoch;
import io.duetdb.proto.raftcmd.ChangePeer;
import io.duetdb.proto.raftcmd.CommitMerge;
import io.duetdb.proto.raftcmd.KeyValue;
import io.duetdb.proto.raftcmd.PeerChange;
import io.duetdb.proto.raftcmd.PrepareMerge;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.proto.raftcmd.RawDeleteRange;
import io.duetdb.proto.raftcmd.RawPut;
import io.duetdb.proto.raftcmd.RollbackMerge;
import io.duetdb.proto.raftcmd.Split;
import io.duetdb.proto.raftcmd.TxnImport;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.engine.rocksdb.RocksEngine;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.txn.MvccReader;

/** Apply rules on a real engine: epochs, ranges, splits, merges, membership records. */
class CommandApplierTest {
    @TempDir
    Path directory;
    private RocksEngine engine;

    @BeforeEach
    void open() {
        engine = RocksEngine.open(directory.resolve("db"), 8 << 20);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static final RegionEpoch EPOCH = RegionEpoch.newBuilder().setConfVersion(3).setVersion(2).build();

    private static RegionLocalState state(String start, String end) {
        return RegionLocalState.newBuilder().setState(PeerState.NORMAL).setRegion(Region.newBuilder().setId(10)
                .setStartKey(ByteString.copyFromUtf8(start)).setEndKey(ByteString.copyFromUtf8(end)).setEpoch(EPOCH)
                .addPeers(Peer.newBuilder().setId(11).setStoreId(1).setRole(PeerRole.VOTER))
                .addPeers(Peer.newBuilder().setId(12).setStoreId(2).setRole(PeerRole.VOTER))).build();
    }

    private ApplyOutcome apply(RegionLocalState state, RaftCommand command) {
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            ApplyOutcome outcome = CommandApplier.apply(state, command, engine, batch);
            engine.write(batch, false);
            return outcome;
        }
    }

    private static RaftCommand put(RegionEpoch epoch, String key, String value) {
        return RaftCommand.newBuilder().setEpoch(epoch).setRawPut(RawPut.newBuilder().addPairs(KeyValue.newBuilder()
                .setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value)))).build();
    }

    private byte[] read(String key) {
        return engine.get(ColumnFamily.DEFAULT, Keys.dataKey(key.getBytes()));
    }

    @Test
    void dataCommandsCheckVersionAndRangeAtApply() {
        RegionLocalState state = state("b", "m");
        assertThat(apply(state, put(EPOCH, "c", "1")).result().hasRegionError()).isFalse();
        assertThat(read("c")).isEqualTo("1".getBytes());
        RegionEpoch older = EPOCH.toBuilder().setVersion(1).build();
        assertThat(apply(state, put(older, "c", "2")).result().getRegionError().hasEpochNotMatch()).isTrue();
        RegionEpoch otherConf = EPOCH.toBuilder().setConfVersion(9).build();
        assertThat(apply(state, put(otherConf, "d", "x")).result().hasRegionError())
                .as("a membership change does not invalidate data writes").isFalse();
        assertThat(apply(state, put(EPOCH, "z", "3")).result().getRegionError().hasKeyNotInRegion()).isTrue();
        assertThat(read("z")).isNull();
        assertThat(read("c")).isEqualTo("1".getBytes());
    }

    @Test
    void anImportCommitsItsPairsOnlyWhenAllAreInTheRegionAtItsVersion() {
        RegionLocalState state = state("b", "m");
        RaftCommand outside = RaftCommand.newBuilder().setEpoch(EPOCH).setTxnImport(TxnImport.newBuilder().setCommitTs(100)
                .addPairs(pair("c", "1")).addPairs(pair("z", "2"))).build();
        assertThat(apply(state, outside).result().getRegionError().hasKeyNotInRegion()).isTrue();
        RegionEpoch older = EPOCH.toBuilder().setVersion(1).build();
        RaftCommand stale = RaftCommand.newBuilder().setEpoch(older).setTxnImport(TxnImport.newBuilder().setCommitTs(100)
                .addPairs(pair("c", "1"))).build();
        assertThat(apply(state, stale).result().getRegionError().hasEpochNotMatch()).isTrue();
        assertThat(readAt("c", 100)).isNull();

        RaftCommand inside = RaftCommand.newBuilder().setEpoch(EPOCH).setTxnImport(TxnImport.newBuilder().setCommitTs(100)
                .addPairs(pair("c", "1")).addPairs(pair("d", "2"))).build();
        assertThat(apply(state, inside).result().hasRegionError()).isFalse();
        assertThat(readAt("c", 99)).isNull();
        assertThat(readAt("c", 100)).isEqualTo("1".getBytes());
        assertThat(readAt("d", 200)).isEqualTo("2".getBytes());
    }

    private static KeyValue pair(String key, String value) {
        return KeyValue.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value)).build();
    }

    private byte[] readAt(String key, long ts) {
        try (MvccReader reader = new MvccReader(engine)) {
            return reader.valueAt(key.getBytes(), ts);
        }
    }

    @Test
    void deleteRangesAreClippedToTheRegion() {
        RegionLocalState state = state("b", "m");
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            for (String key : List.of("a", "c", "z")) {
                batch.put(ColumnFamily.DEFAULT, Keys.dataKey(key.getBytes()), "v".getBytes());
            }
            engine.write(batch, false);
        }
        apply(state, RaftCommand.newBuilder().setEpoch(EPOCH).setRawDeleteRange(RawDeleteRange.newBuilder()
                .setStartKey(ByteString.copyFromUtf8("")).setEndKey(ByteString.EMPTY)).build());
        assertThat(read("a")).isNotNull();
        assertThat(read("c")).isNull();
        assertThat(read("z")).isNotNull();
    }

    @Test
    void splitsKeepTheLeftAndDeriveTheRightWithNewIds() {
        RegionLocalState state = state("b", "m");
        ApplyOutcome outcome = apply(state, RaftCommand.newBuilder().setEpoch(EPOCH).setSplit(Split.newBuilder()
                .setSplitKey(ByteString.copyFromUtf8("f")).setNewRegionId(20).addNewPeerIds(21).addNewPeerIds(22)).build());
        Region left = outcome.state().getRegion();
        assertThat(left.getEndKey().toStringUtf8()).isEqualTo("f");
        assertThat(left.getEpoch().getVersion()).isEqualTo(3);
        Region right = outcome.created().get(0);
        assertThat(right.getId()).isEqualTo(20);
        assertThat(right.getStartKey().toStringUtf8()).isEqualTo("f");
        assertThat(right.getEndKey().toStringUtf8()).isEqualTo("m");
        assertThat(right.getPeersList()).extracting(Peer::getId).containsExactly(21L, 22L);
        assertThat(RegionStorage.regionState(engine, 20).getRegion()).isEqualTo(right);
        assertThat(RegionStorage.applied(RegionStorage.applyState(engine, 20))).isEqualTo(RegionStorage.INITIAL_POSITION);
        // A write proposed before the split to a key now in the right region is refused by the left one.
        assertThat(apply(outcome.state(), put(EPOCH, "g", "late")).result().getRegionError().hasEpochNotMatch()).isTrue();
        // Bad split keys change nothing.
        assertThat(apply(state, RaftCommand.newBuilder().setEpoch(EPOCH).setSplit(Split.newBuilder()
                .setSplitKey(ByteString.copyFromUtf8("b")).setNewRegionId(30).addNewPeerIds(31).addNewPeerIds(32)).build())
                .result().getError()).contains("not inside");
    }

    @Test
    void membershipChangesBumpConfVersionAndRefuseImpossibleChanges() {
        RegionLocalState state = state("", "");
        Peer learner = Peer.newBuilder().setId(13).setStoreId(3).build();
        ApplyOutcome added = apply(state, RaftCommand.newBuilder().setEpoch(EPOCH).setChangePeer(ChangePeer.newBuilder()
                .setChange(PeerChange.ADD_LEARNER).setPeer(learner)).build());
        assertThat(added.state().getRegion().getEpoch().getConfVersion()).isEqualTo(4);
        assertThat(added.state().getRegion().getPeersList()).contains(learner.toBuilder().setRole(PeerRole.LEARNER).build());
        RegionEpoch next = added.state().getRegion().getEpoch();
        assertThat(apply(added.state(), RaftCommand.newBuilder().setEpoch(next).setChangePeer(ChangePeer.newBuilder()
                .setChange(PeerChange.ADD_LEARNER).setPeer(learner)).build()).result().getError()).contains("already holds");
        ApplyOutcome promoted = apply(added.state(), RaftCommand.newBuilder().setEpoch(next).setChangePeer(
                ChangePeer.newBuilder().setChange(PeerChange.PROMOTE_LEARNER).setPeer(learner)).build());
        assertThat(promoted.state().getRegion().getPeersList()).allMatch(peer -> peer.getRole() == PeerRole.VOTER);
        assertThat(apply(added.state(), RaftCommand.newBuilder().setEpoch(EPOCH).setChangePeer(ChangePeer.newBuilder()
                .setChange(PeerChange.REMOVE_PEER).setPeer(learner)).build()).result().getRegionError().hasEpochNotMatch())
                .as("stale membership change").isTrue();
    }

    @Test
    void mergesFreezeTheSourceAndExtendTheTarget() {
        RegionLocalState source = state("m", "");
        ApplyOutcome frozen = apply(source, RaftCommand.newBuilder().setEpoch(EPOCH).setPrepareMerge(PrepareMerge.newBuilder()
                .setTargetRegionId(5)).build());
        assertThat(frozen.state().getState()).isEqualTo(PeerState.MERGING);
        assertThat(apply(frozen.state(), put(frozen.state().getRegion().getEpoch(), "x", "v")).result().getRegionError()
                .hasRegionIsMerging()).isTrue();

        RegionLocalState target = RegionLocalState.newBuilder().setState(PeerState.NORMAL).setRegion(Region.newBuilder()
                .setId(5).setStartKey(ByteString.EMPTY).setEndKey(ByteString.copyFromUtf8("m")).setEpoch(EPOCH)
                .addAllPeers(source.getRegion().getPeersList())).build();
        ApplyOutcome merged = apply(target, RaftCommand.newBuilder().setEpoch(EPOCH)
                .setCommitMerge(CommitMerge.newBuilder().setSource(frozen.state().getRegion())).build());
        Region result = merged.state().getRegion();
        assertThat(result.getStartKey().isEmpty() && result.getEndKey().isEmpty()).isTrue();
        assertThat(result.getEpoch().getVersion()).isGreaterThan(frozen.state().getRegion().getEpoch().getVersion());
        assertThat(merged.ended()).containsExactly(10L);
        assertThat(RegionStorage.regionState(engine, 10).getState()).isEqualTo(PeerState.TOMBSTONE);

        ApplyOutcome resumed = apply(frozen.state(), RaftCommand.newBuilder().setEpoch(frozen.state().getRegion().getEpoch())
                .setRollbackMerge(RollbackMerge.getDefaultInstance()).build());
        assertThat(resumed.state().getState()).isEqualTo(PeerState.NORMAL);
    }
}
