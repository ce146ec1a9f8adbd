package io.duetdb.store.internal.txn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.keys.KeyRanges;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.time.Timestamp;
import io.duetdb.common.txn.Write;
import io.duetdb.common.txn.WriteType;
import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.proto.raftcmd.MvccGarbageCollect;
import io.duetdb.proto.raftcmd.RaftCommand;
import io.duetdb.store.engine.ColumnFamily;
import io.duetdb.store.engine.Engine;
import io.duetdb.store.engine.EngineIterator;
import io.duetdb.store.engine.EngineSnapshot;
import io.duetdb.store.internal.metrics.StoreMetrics;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.region.WrittenKeys;
import io.duetdb.store.txn.MvccReader;
import io.duetdb.store.txn.TxnActions;

/**
 * Removes MVCC versions no snapshot can read any more: follows placement's GC safe point and, in each region
 * this store leads, proposes garbage-collect commands for the keys that have something to remove.
 */
public final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    private static final int KEYS_PER_COMMAND = 256;

    private final PlacementClient placement;
    private final Engine engine;
    private final StoreMetrics metrics;
    /** Per region, the last completed round: what it covered and under which leadership and epoch. */
    private final Map<Long, Round> collected = new ConcurrentHashMap<>();
    private volatile long safePoint;

    public GarbageCollector(PlacementClient placement, Engine engine, StoreMetrics metrics) {
        this.placement = requireNonNull(placement, "placement is null");
        this.engine = requireNonNull(engine, "engine is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /** The safe point this store last heard of: reads below it are refused. */
    public long safePoint() {
        return safePoint;
    }

    public void refreshSafePoint() {
        long latest = placement.getGcSafePoint().getSafePoint();
        if (latest > safePoint) {
            safePoint = latest;
        }
    }

    /** One round over the regions this store leads. */
    public void collect(Iterable<RegionPeer> peers) {
        refreshSafePoint();
        long point = safePoint;
        if (point == 0) {
            return;
        }
        for (RegionPeer peer : peers) {
            Region region = peer.region();
            if (region == null || !peer.isLeaderReady()) {
                continue;
            }
            Round last = collected.get(region.getId());
            long term = peer.currentTerm();
            boolean sameLeader = last != null && last.term() == term && last.epoch().equals(region.getEpoch());
            if (sameLeader && (last.safePoint() >= point || peer.lastWriteTs() <= last.safePoint())) {
                // Nothing became garbage since: every write record this leader proposed is older than the point
                // the last round collected below, so that round already removed what those records supersede.
                continue;
            }
            WrittenKeys.Taken written = peer.writtenKeys().take();
            // The written keys are enough when this leader recorded every write record since its last round (that
            // round kept the keys whose newest record was not below its point); otherwise the region is scanned.
            boolean keysOnly = sameLeader && written.complete();
            long started = System.nanoTime();
            long keys;
            if (keysOnly) {
                metrics.gcKeyRounds.inc();
                keys = collectKeys(peer, region, point, written.keys().keySet());
            } else {
                metrics.gcRegionScans.inc();
                keys = collectRegion(peer, region, point);
            }
            if (keys < 0) {
                // Stopped early: nothing is known to be collected, so the next round scans.
                collected.remove(region.getId());
                continue;
            }
            // A scan recorded the keys whose newest record is not below the point; checked keys keep theirs.
            if (keysOnly) {
                peer.writtenKeys().keepFrom(written.keys(), point);
            }
            collected.put(region.getId(), new Round(point, term, region.getEpoch()));
            if (keys > 0) {
                LOG.info("region {}: collected old versions of {} keys below safe point {} in {} ms ({})", region.getId(),
                        keys, Timestamp.fromPacked(point), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                        keysOnly ? written.keys().size() + " written keys checked" : "region scanned");
            }
        }
    }

    /** The last round over a region: its safe point, and the leader's term and the region's epoch then. */
    private record Round(long safePoint, long term, io.duetdb.proto.meta.RegionEpoch epoch) {
    }

    /** Keys collected among {@code candidates}, or -1 when the round stopped early. */
    private long collectKeys(RegionPeer peer, Region region, long point, java.util.Set<ByteString> candidates) {
        List<ByteString> batch = new ArrayList<>();
        long total = 0;
        byte[] start = region.getStartKey().toByteArray();
        byte[] end = region.getEndKey().toByteArray();
        try (EngineSnapshot snapshot = engine.snapshot(); MvccReader reader = new MvccReader(snapshot)) {
            for (ByteString key : candidates) {
                if (Thread.currentThread().isInterrupted()) {
                    return -1;
                }
                byte[] userKey = key.toByteArray();
                if (KeyRanges.contains(start, end, userKey) && TxnActions.hasGarbage(reader, userKey, point)) {
                    batch.add(key);
                }
                if (batch.size() >= KEYS_PER_COMMAND) {
                    if (!propose(peer, batch, point)) {
                        return -1;
                    }
                    total += batch.size();
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) {
            if (!propose(peer, batch, point)) {
                return -1;
            }
            total += batch.size();
        }
        return total;
    }

    /** Keys collected, or -1 when the round stopped early (leadership or region changed). */
    private long collectRegion(RegionPeer peer, Region region, long point) {
        List<ByteString> batch = new ArrayList<>();
        long total = 0;
        byte[] lower = Keys.dataKey(region.getStartKey().toByteArray());
        byte[] upper = Keys.dataEndKey(region.getEndKey().toByteArray());
        try (EngineSnapshot snapshot = engine.snapshot();
                EngineIterator writes = snapshot.iterator(ColumnFamily.WRITE, lower, upper)) {
            writes.seekToFirst();
            while (writes.valid()) {
                if (Thread.currentThread().isInterrupted()) {
                    // The store is stopping: its engine is about to close under this snapshot.
                    return -1;
                }
                byte[] dataKey = Keys.dataKeyOfVersion(writes.key());
                byte[] userKey = Keys.userKeyOf(dataKey);
                long newest = Keys.timestampOf(writes.key());
                if (newest >= point) {
                    // Its newer versions are not below the point yet: a later round checks the key again.
                    peer.noteExistingWrite(ByteString.copyFrom(userKey), newest);
                }
                if (walkToGarbage(writes, dataKey, point)) {
                    batch.add(ByteString.copyFrom(userKey));
                    writes.seek(MvccReader.keyEnd(dataKey));
                }
                if (batch.size() >= KEYS_PER_COMMAND) {
                    if (!propose(peer, batch, point)) {
                        return -1;
                    }
                    total += batch.size();
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) {
            if (!propose(peer, batch, point)) {
                return -1;
            }
            total += batch.size();
        }
        return total;
    }

    /**
     * Walks the versions of {@code dataKey} from the iterator's position (its newest) with the region's one iterator,
     * rather than opening one per key: true, stopping there, at the first version {@link TxnActions#garbageCollect}
     * would remove (below the safe point, anything but one newest PUT); false past the key's versions otherwise.
     */
    private static boolean walkToGarbage(EngineIterator writes, byte[] dataKey, long point) {
        boolean keptPut = false;
        while (writes.valid() && isVersionOf(writes.key(), dataKey)) {
            if (Keys.timestampOf(writes.key()) <= point) {
                if (keptPut || Write.decode(writes.value()).type() != WriteType.PUT) {
                    return true;
                }
                keptPut = true;
            }
            writes.next();
        }
        return false;
    }

    private static boolean isVersionOf(byte[] versionKey, byte[] dataKey) {
        return versionKey.length == dataKey.length + 8
                && Arrays.equals(versionKey, 0, dataKey.length, dataKey, 0, dataKey.length);
    }

    private boolean propose(RegionPeer peer, List<ByteString> keys, long point) {
        Region region = peer.region();
        if (region == null || !peer.isLeaderReady()) {
            return false;
        }
        for (ByteString key : keys) {
            if (!KeyRanges.contains(region.getStartKey().toByteArray(), region.getEndKey().toByteArray(), key.toByteArray())) {
                return false;
            }
        }
        CommandResult result = peer.propose(RaftCommand.newBuilder().setEpoch(region.getEpoch())
                .setGarbageCollect(MvccGarbageCollect.newBuilder().addAllKeys(keys).setSafePoint(point)).build()).join();
        if (result.hasRegionError() || !result.getError().isEmpty()) {
            LOG.info("region {}: GC round stopped: {}", region.getId(),
                    result.hasRegionError() ? result.getRegionError().getMessage() : result.getError());
            return false;
        }
        metrics.gcKeys.inc(keys.size());
        return true;
    }
}
