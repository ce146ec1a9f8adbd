package io.duetdb.store.internal.snapshot;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.region.StorePeers;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.store.FetchSnapshotRequest;
import io.duetdb.proto.store.SnapshotChunk;
import io.duetdb.proto.store.SnapshotData;
import io.duetdb.proto.store.SnapshotHeader;
import io.duetdb.raft.LogPosition;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.engine.EngineWriteBatch;
import io.duetdb.store.engine.SstFileBuilder;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.proto.ApplyState;
import io.duetdb.store.internal.proto.PeerState;
import io.duetdb.store.internal.proto.RegionLocalState;
import io.duetdb.store.internal.region.InstalledSnapshot;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.region.RegionStateMachine;
import io.duetdb.store.internal.region.RegionStorage;
import io.duetdb.store.internal.rpc.StoreClients;
import io.grpc.StatusRuntimeException;

/**
 * Region snapshots between stores: the sender streams a region's keys from a consistent engine snapshot,
 * with the applied position read from that same snapshot; the receiver writes them into sorted files and
 * ingests them, replacing whatever the region's range held.
 */
public final class SnapshotTransfer implements RegionStateMachine.SnapshotInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotTransfer.class);
    private static final int CHUNK_BYTES = 1 << 20;
    private static final Map<ColumnFamily, io.duetdb.proto.store.ColumnFamily> WIRE_NAMES = Map.of(
            ColumnFamily.DEFAULT, io.duetdb.proto.store.ColumnFamily.CF_DEFAULT,
            ColumnFamily.LOCK, io.duetdb.proto.store.ColumnFamily.CF_LOCK,
            ColumnFamily.WRITE, io.duetdb.proto.store.ColumnFamily.CF_WRITE);

    private final Engine engine;
    private final Path directory;
    private final StoreClients clients;
    private final ExecutorService executor;
    private final StoreMetrics metrics;
    private volatile StoreNode node;

    public SnapshotTransfer(Engine engine, Path directory, StoreClients clients, ExecutorService executor,
            StoreMetrics metrics) throws IOException {
        this.engine = requireNonNull(engine, "engine is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        cleanDirectory();
    }

    public void attach(StoreNode storeNode) {
        this.node = storeNode;
    }

    private void cleanDirectory() throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    if (!file.equals(directory)) {
                        Files.delete(file);
                    }
                }
            }
        }
        Files.createDirectories(directory);
    }

    /** Streams a region's snapshot to {@code sink}; throws if this store holds no usable replica. */
    public void send(long regionId, java.util.function.Consumer<SnapshotChunk> sink) {
        try (EngineSnapshot snapshot = engine.snapshot()) {
            RegionLocalState state = RegionStorage.regionState(snapshot, regionId);
            ApplyState apply = RegionStorage.applyState(snapshot, regionId);
            if (state == null || apply == null || state.getState() == PeerState.TOMBSTONE) {
                throw new IllegalStateException("store holds no replica of region " + regionId + " to snapshot");
            }
            Region region = state.getRegion();
            sink.accept(SnapshotChunk.newBuilder().setHeader(SnapshotHeader.newBuilder().setRegion(region)
                    .setAppliedTerm(apply.getAppliedTerm()).setAppliedIndex(apply.getAppliedIndex())).build());
            byte[] start = Keys.dataKey(region.getStartKey().toByteArray());
            byte[] end = Keys.dataEndKey(region.getEndKey().toByteArray());
            long keys = 0;
            for (ColumnFamily cf : ColumnFamily.DATA) {
                try (EngineIterator iterator = snapshot.iterator(cf, start, end)) {
                    SnapshotData.Builder chunk = SnapshotData.newBuilder().setCf(WIRE_NAMES.get(cf));
                    int bytes = 0;
                    for (iterator.seekToFirst(); iterator.valid(); iterator.next()) {
                        byte[] key = iterator.key();
                        byte[] value = iterator.value();
                        chunk.addKeys(ByteString.copyFrom(key)).addValues(ByteString.copyFrom(value));
                        bytes += key.length + value.length;
                        keys++;
                        if (bytes >= CHUNK_BYTES) {
                            sink.accept(SnapshotChunk.newBuilder().setData(chunk).build());
                            chunk = SnapshotData.newBuilder().setCf(WIRE_NAMES.get(cf));
                            bytes = 0;
                        }
                    }
                    if (chunk.getKeysCount() > 0) {
                        sink.accept(SnapshotChunk.newBuilder().setData(chunk).build());
                    }
                }
            }
            metrics.snapshotsSent.inc();
            LOG.info("sent a snapshot of region {} at index {} ({} keys)", regionId, apply.getAppliedIndex(), keys);
        }
    }

    @Override
    public CompletableFuture<InstalledSnapshot> install(long regionId, String leaderId, LogPosition leaderFirstEntry) {
        return CompletableFuture.supplyAsync(() -> receive(regionId, leaderId, leaderFirstEntry), executor);
    }

    private InstalledSnapshot receive(long regionId, String leaderId, LogPosition leaderFirstEntry) {
        if (leaderId == null) {
            throw new IllegalStateException("region " + regionId + ": no leader to fetch a snapshot from");
        }
        StoreNode store = requireNonNull(node, "store node not attached");
        long leaderStore = StorePeers.storeIdOf(leaderId);
        HostAndPort address = store.addressOf(leaderStore);
        Path work = directory.resolve("region-" + regionId + "-" + System.nanoTime());
        Map<ColumnFamily, SstFileBuilder> builders = new EnumMap<>(ColumnFamily.class);
        try {
            Files.createDirectories(work);
            Iterator<SnapshotChunk> chunks = clients.admin(address).withDeadlineAfter(10, TimeUnit.MINUTES)
                    .fetchSnapshot(FetchSnapshotRequest.newBuilder().setRegionId(regionId).build());
            if (!chunks.hasNext()) {
                throw new IllegalStateException("empty snapshot stream from store " + leaderStore);
            }
            SnapshotChunk first = chunks.next();
            if (!first.hasHeader() || first.getHeader().getRegion().getId() != regionId) {
                throw new IllegalStateException("snapshot from store " + leaderStore + " does not start with region " + regionId);
            }
            SnapshotHeader header = first.getHeader();
            if (header.getAppliedIndex() + 1 < leaderFirstEntry.index()) {
                throw new IllegalStateException("snapshot of region " + regionId + " at index " + header.getAppliedIndex()
                        + " is older than the leader's log, which starts at " + leaderFirstEntry.index());
            }
            Region region = header.getRegion();
            List<RegionPeer> overlapping = store.overlapping(regionId, region);
            if (!overlapping.isEmpty()) {
                throw new IllegalStateException("region " + regionId + " overlaps region " + overlapping.get(0).regionId()
                        + " on this store; waiting for that replica to be removed");
            }
            Function<io.duetdb.proto.store.ColumnFamily, ColumnFamily> cfOf = wire -> WIRE_NAMES.entrySet().stream()
                    .filter(entry -> entry.getValue() == wire).findFirst().orElseThrow().getKey();
            long keys = 0;
            byte[] lower = Keys.dataKey(region.getStartKey().toByteArray());
            byte[] upper = Keys.dataEndKey(region.getEndKey().toByteArray());
            while (chunks.hasNext()) {
                SnapshotChunk chunk = chunks.next();
                SnapshotData data = chunk.getData();
                ColumnFamily cf = cfOf.apply(data.getCf());
                SstFileBuilder builder = builders.computeIfAbsent(cf,
                        c -> engine.newSstFile(c, work.resolve(c.engineName() + ".sst")));
                for (int i = 0; i < data.getKeysCount(); i++) {
                    byte[] key = data.getKeys(i).toByteArray();
                    if (KeyRanges.compare(key, lower) < 0 || KeyRanges.compare(key, upper) >= 0) {
                        throw new IllegalStateException("snapshot of region " + regionId + " from store " + leaderStore
                                + " holds key " + Keys.describe(key) + " outside the region");
                    }
                    builder.add(key, data.getValues(i).toByteArray());
                    keys++;
                }
            }
            try (EngineWriteBatch clear = engine.newWriteBatch()) {
                RegionStorage.deleteData(clear, region.getStartKey().toByteArray(), region.getEndKey().toByteArray());
                engine.write(clear, true);
            }
            for (Map.Entry<ColumnFamily, SstFileBuilder> entry : builders.entrySet()) {
                if (entry.getValue().finish()) {
                    engine.ingest(entry.getKey(), List.of(entry.getValue().path()));
                }
            }
            LogPosition position = new LogPosition(header.getAppliedTerm(), header.getAppliedIndex());
            RegionLocalState state = RegionLocalState.newBuilder().setRegion(region).setState(PeerState.NORMAL).build();
            try (EngineWriteBatch records = engine.newWriteBatch()) {
                RegionStorage.putRegionState(records, state);
                RegionStorage.putApplyState(records, regionId, RegionStorage.applyState(position, position));
                engine.write(records, true);
            }
            metrics.snapshotsInstalled.inc();
            LOG.info("installed a snapshot of region {} from store {}: {} keys at index {}", regionId, leaderStore, keys,
                    position.index());
            return new InstalledSnapshot(state, position);
        } catch (IOException e) {
            throw new IllegalStateException("snapshot of region " + regionId + ": " + e.getMessage(), e);
        } catch (StatusRuntimeException e) {
            throw new IllegalStateException("fetching the snapshot of region " + regionId + " from store " + leaderStore
                    + " failed: " + e.getStatus(), e);
        } finally {
            builders.values().forEach(SstFileBuilder::close);
            deleteQuietly(work);
        }
    }

    private static void deleteQuietly(Path work) {
        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : new ArrayList<>(files.sorted(Comparator.reverseOrder()).toList())) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // Cleaned at the next start.
        }
    }
}
