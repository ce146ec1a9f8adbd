package io.duetdb.learner.internal.snapshot;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.codec.CodecException;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.region.StorePeers;
import io.duetdb.common.txn.Lock;
import io.duetdb.common.txn.Write;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.learner.internal.storage.PendingWrite;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.store.ColumnFamily;
import io.duetdb.proto.store.FetchSnapshotRequest;
import io.duetdb.proto.store.SnapshotChunk;
import io.duetdb.proto.store.SnapshotData;
import io.duetdb.proto.store.SnapshotHeader;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.duetdb.raft.LogPosition;
import io.grpc.StatusRuntimeException;

/**
 * Bootstraps a learner replica from the row store: streams the region's MVCC data from the store that leads it
 * ({@code StoreAdmin.FetchSnapshot}, one consistent engine snapshot with its applied position) and keeps what a
 * learner keeps: committed versions of table rows, and the prewrites (locks with their staged values) still open.
 */
public final class SnapshotFetcher implements ColumnarRegion.SnapshotInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFetcher.class);

    private final LongFunction<HostAndPort> storeAddresses;
    private final LongFunction<StoreAdminGrpc.StoreAdminBlockingStub> admins;
    private final Executor executor;
    private final Runnable onInstalled;

    public SnapshotFetcher(LongFunction<HostAndPort> storeAddresses, LongFunction<StoreAdminGrpc.StoreAdminBlockingStub> admins,
            Executor executor, Runnable onInstalled) {
        this.storeAddresses = requireNonNull(storeAddresses, "storeAddresses is null");
        this.admins = requireNonNull(admins, "admins is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.onInstalled = requireNonNull(onInstalled, "onInstalled is null");
    }

    @Override
    public CompletableFuture<ColumnarRegion.InstalledSnapshot> install(long regionId, String leaderId,
            LogPosition leaderFirstEntry) {
        return CompletableFuture.supplyAsync(() -> fetch(regionId, leaderId, leaderFirstEntry), executor);
    }

    private ColumnarRegion.InstalledSnapshot fetch(long regionId, String leaderId, LogPosition leaderFirstEntry) {
        if (leaderId == null) {
            throw new IllegalStateException("region " + regionId + ": no leader to fetch a snapshot from");
        }
        long leaderStore = StorePeers.storeIdOf(leaderId);
        long started = System.nanoTime();
        try {
            Iterator<SnapshotChunk> chunks = admins.apply(leaderStore).withDeadlineAfter(10, TimeUnit.MINUTES)
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
            Versions versions = new Versions();
            while (chunks.hasNext()) {
                versions.add(chunks.next().getData());
            }
            RegionDelta delta = versions.toDelta();
            LogPosition position = new LogPosition(header.getAppliedTerm(), header.getAppliedIndex());
            LOG.info("fetched a snapshot of region {} from store {} ({}) in {} ms: {} row versions, {} prewrites at index {}",
                    regionId, leaderStore, storeAddresses.apply(leaderStore), (System.nanoTime() - started) / 1_000_000,
                    delta.versionCount(), delta.pendingCount(), position.index());
            onInstalled.run();
            return new ColumnarRegion.InstalledSnapshot(header.getRegion(), delta, position);
        } catch (StatusRuntimeException e) {
            throw new IllegalStateException("fetching the snapshot of region " + regionId + " from store " + leaderStore
                    + " failed: " + e.getStatus(), e);
        }
    }

    /**
     * The snapshot's column families turned into a delta. Long values sit in the default column family under
     * (key, start_ts), and the chunks may come in any order, so writes and locks are resolved at the end.
     */
    private static final class Versions {
        private final Map<ByteBuffer, byte[]> longValues = new HashMap<>();
        private final Map<ByteBuffer, Write> writes = new HashMap<>();
        private final Map<ByteBuffer, Lock> locks = new HashMap<>();

        void add(SnapshotData data) {
            for (int i = 0; i < data.getKeysCount(); i++) {
                byte[] engineKey = data.getKeys(i).toByteArray();
                byte[] value = data.getValues(i).toByteArray();
                if (data.getCf() == ColumnFamily.CF_LOCK) {
                    byte[] userKey = userKeyOf(engineKey);
                    if (userKey != null && Keys.isRecordKey(userKey)) {
                        locks.put(ByteBuffer.wrap(engineKey), Lock.decode(value));
                    }
                    continue;
                }
                if (engineKey.length < 1 + 9 + 8 || engineKey[0] != Keys.DATA_PREFIX) {
                    continue;
                }
                byte[] userKey = userKeyOfVersion(engineKey);
                if (userKey == null || !Keys.isRecordKey(userKey)) {
                    continue;
                }
                if (data.getCf() == ColumnFamily.CF_WRITE) {
                    writes.put(ByteBuffer.wrap(engineKey), Write.decode(value));
                } else {
                    longValues.put(ByteBuffer.wrap(engineKey), value);
                }
            }
        }

        RegionDelta toDelta() {
            RegionDelta delta = new RegionDelta();
            for (Map.Entry<ByteBuffer, Write> entry : writes.entrySet()) {
                byte[] versionKey = entry.getKey().array();
                byte[] userKey = Keys.userKeyOf(Keys.dataKeyOfVersion(versionKey));
                long commitTs = Keys.timestampOf(versionKey);
                Write write = entry.getValue();
                switch (write.type()) {
                    case PUT -> delta.putCommitted(userKey, commitTs, valueOf(userKey, write.startTs(), write.shortValue()));
                    case DELETE -> delta.putCommitted(userKey, commitTs, null);
                    default -> {
                    }
                }
            }
            for (Map.Entry<ByteBuffer, Lock> entry : locks.entrySet()) {
                byte[] userKey = Keys.userKeyOf(entry.getKey().array());
                Lock lock = entry.getValue();
                PendingWrite.Kind kind = switch (lock.type()) {
                    case PUT -> PendingWrite.Kind.PUT;
                    case DELETE -> PendingWrite.Kind.DELETE;
                    case LOCK -> PendingWrite.Kind.LOCK;
                    case PESSIMISTIC -> null;
                };
                if (kind == null) {
                    continue;
                }
                byte[] value = kind == PendingWrite.Kind.PUT ? valueOf(userKey, lock.startTs(), lock.shortValue()) : null;
                delta.prewrite(userKey, new PendingWrite(kind, lock.startTs(), lock.primary(), lock.ttlMillis(),
                        lock.txnSize(), lock.forUpdateTs(), value));
            }
            return delta;
        }

        private byte[] valueOf(byte[] userKey, long startTs, byte[] shortValue) {
            if (shortValue != null) {
                return shortValue;
            }
            byte[] value = longValues.get(ByteBuffer.wrap(Keys.versionKey(userKey, startTs)));
            if (value == null) {
                throw new IllegalStateException("snapshot lacks the value of " + Keys.describe(userKey) + " at " + startTs);
            }
            return value;
        }

        private static byte[] userKeyOfVersion(byte[] engineKey) {
            try {
                return Keys.userKeyOf(Keys.dataKeyOfVersion(engineKey));
            } catch (CodecException e) {
                return null;
            }
        }

        private static byte[] userKeyOf(byte[] dataKey) {
            try {
                return Keys.userKeyOf(dataKey);
            } catch (CodecException e) {
                return null;
            }
        }
    }
}
