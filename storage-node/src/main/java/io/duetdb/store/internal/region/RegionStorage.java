package io.duetdb.store.internal.region;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.InvalidProtocolBufferException;

import io.duetdb.common.keys.Keys;
import io.duetdb.raft.LogPosition;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineException;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.internal.proto.ApplyState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.internal.proto.StoreIdent;

/** Reads and writes a store's own records (store identity, region states, apply positions) in its engine. */
public final class RegionStorage {
    /** Where a region created on this store (bootstrap or split) starts its log: any new replica needs a snapshot. */
    public static final LogPosition INITIAL_POSITION = new LogPosition(1, 5);

    private RegionStorage() {
    }

    public static StoreIdent storeIdent(Engine engine) {
        byte[] bytes = engine.get(ColumnFamily.RAFT, Keys.storeIdentKey());
        return bytes == null ? null : parse(() -> StoreIdent.parseFrom(bytes), "store identity");
    }

    public static void writeStoreIdent(Engine engine, StoreIdent ident) {
        try (EngineWriteBatch batch = engine.newWriteBatch()) {
            batch.put(ColumnFamily.RAFT, Keys.storeIdentKey(), ident.toByteArray());
            engine.write(batch, true);
        }
    }

    /** Every region replica this store has a record of, in region id order. */
    public static List<RegionLocalState> regionStates(Engine engine) {
        List<RegionLocalState> states = new ArrayList<>();
        try (EngineIterator iterator = engine.iterator(ColumnFamily.RAFT, Keys.regionStatePrefix(), Keys.regionStateEnd())) {
            for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                byte[] value = iterator.value();
                long regionId = Keys.regionIdOfStateKey(iterator.key());
                states.add(parse(() -> RegionLocalState.parseFrom(value), "state of region " + regionId));
            }
        }
        return states;
    }

    public static RegionLocalState regionState(Engine engine, long regionId) {
        byte[] bytes = engine.get(ColumnFamily.RAFT, Keys.regionStateKey(regionId));
        return bytes == null ? null : parse(() -> RegionLocalState.parseFrom(bytes), "state of region " + regionId);
    }

    public static RegionLocalState regionState(EngineSnapshot snapshot, long regionId) {
        byte[] bytes = snapshot.get(ColumnFamily.RAFT, Keys.regionStateKey(regionId));
        return bytes == null ? null : parse(() -> RegionLocalState.parseFrom(bytes), "state of region " + regionId);
    }

    public static ApplyState applyState(Engine engine, long regionId) {
        byte[] bytes = engine.get(ColumnFamily.RAFT, Keys.applyStateKey(regionId));
        return bytes == null ? null : parse(() -> ApplyState.parseFrom(bytes), "apply state of region " + regionId);
    }

    public static ApplyState applyState(EngineSnapshot snapshot, long regionId) {
        byte[] bytes = snapshot.get(ColumnFamily.RAFT, Keys.applyStateKey(regionId));
        return bytes == null ? null : parse(() -> ApplyState.parseFrom(bytes), "apply state of region " + regionId);
    }

    public static void putRegionState(EngineWriteBatch batch, RegionLocalState state) {
        batch.put(ColumnFamily.RAFT, Keys.regionStateKey(state.getRegion().getId()), state.toByteArray());
    }

    public static void putApplyState(EngineWriteBatch batch, long regionId, ApplyState state) {
        batch.put(ColumnFamily.RAFT, Keys.applyStateKey(regionId), state.toByteArray());
    }

    public static void deleteRegionRecords(EngineWriteBatch batch, long regionId) {
        batch.delete(ColumnFamily.RAFT, Keys.regionStateKey(regionId));
        batch.delete(ColumnFamily.RAFT, Keys.applyStateKey(regionId));
    }

    /** Deletes every user key in [start, end) from the data column families. */
    public static void deleteData(EngineWriteBatch batch, byte[] userStart, byte[] userEnd) {
        byte[] start = Keys.dataKey(userStart);
        byte[] end = Keys.dataEndKey(userEnd);
        for (ColumnFamily cf : ColumnFamily.DATA) {
            batch.deleteRange(cf, start, end);
        }
    }

    public static ApplyState applyState(LogPosition applied, LogPosition snapshot) {
        return ApplyState.newBuilder().setAppliedTerm(applied.term()).setAppliedIndex(applied.index())
                .setSnapshotTerm(snapshot.term()).setSnapshotIndex(snapshot.index()).build();
    }

    public static LogPosition applied(ApplyState state) {
        return new LogPosition(state.getAppliedTerm(), state.getAppliedIndex());
    }

    public static LogPosition snapshot(ApplyState state) {
        return new LogPosition(state.getSnapshotTerm(), state.getSnapshotIndex());
    }

    private interface Parser<T> {
        T parse() throws InvalidProtocolBufferException;
    }

    private static <T> T parse(Parser<T> parser, String what) {
        try {
            return parser.parse();
        } catch (InvalidProtocolBufferException e) {
            throw new EngineException("the stored " + what + " is corrupt: " + e.getMessage(), e, false);
        }
    }
}
