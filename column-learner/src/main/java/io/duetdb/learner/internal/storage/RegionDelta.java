package io.duetdb.learner.internal.storage;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowView;
import io.duetdb.compute.scan.RowSource;

/**
 * The delta layer of one region replica on a learner: the committed versions of the region's table rows, keyed
 * by (row key, commit timestamp) and kept as row-codec values or deletions, and the prewrites still waiting for
 * their commit. Written by the region's apply thread only; read concurrently by scans at timestamps the replica
 * has applied.
 */
public final class RegionDelta {
    private static final byte PUT = 0;
    private static final byte DELETE = 1;
    private static final int FILE_MAGIC = 0x44454c31;
    private static final long UNKNOWN = -1;

    /** Version key ({@link Keys#versionKey}: newest version of a key first) to PUT + row value, or DELETE. */
    private final ConcurrentSkipListMap<byte[], byte[]> versions;
    /** Row key to the prewrite holding it. */
    private final ConcurrentSkipListMap<byte[], PendingWrite> pending;
    /** versions.size() without walking the map; changed only by the replica's writers, which hold its lock. */
    private volatile long versionCount;
    /**
     * The oldest start timestamp in {@code pending}, or {@link #UNKNOWN} until asked again: kept up as prewrites
     * arrive, forgotten when the oldest one leaves, so that asking after every applied entry does not walk
     * millions of prewrites of a large transaction.
     */
    private volatile long oldestPending = UNKNOWN;

    public RegionDelta() {
        this(new ConcurrentSkipListMap<>(Arrays::compareUnsigned), new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
    }

    private RegionDelta(ConcurrentSkipListMap<byte[], byte[]> versions,
            ConcurrentSkipListMap<byte[], PendingWrite> pending) {
        this.versions = versions;
        this.pending = pending;
        this.versionCount = versions.size();
    }

    /** A delta frozen for a merge into the stable layer, and the one that takes the writes after it. */
    public record Frozen(RegionDelta frozen, RegionDelta active) {
    }

    /**
     * Freezes this delta's versions: the frozen delta holds them (and no prewrites), the new active one starts
     * empty and holds the prewrites. Readers of this object still see both, as the maps are shared.
     */
    public Frozen freeze() {
        return new Frozen(new RegionDelta(versions, new ConcurrentSkipListMap<>(Arrays::compareUnsigned)),
                new RegionDelta(new ConcurrentSkipListMap<>(Arrays::compareUnsigned), pending));
    }

    /** Whether a stored version is a deletion. */
    public static boolean isDeletion(byte[] stored) {
        return stored[0] == DELETE;
    }

    /** The row of a stored version that is not a deletion. */
    public static RowView rowOf(byte[] stored) {
        return new RowView(Arrays.copyOfRange(stored, 1, stored.length));
    }

    /** Every version in key order (read-only). */
    public NavigableMap<byte[], byte[]> versions() {
        return Collections.unmodifiableNavigableMap(versions);
    }

    /** The versions of the user keys in [start, end) (an empty end is unbounded), in key order, read-only. */
    public NavigableMap<byte[], byte[]> versionsIn(byte[] start, byte[] end) {
        return Collections.unmodifiableNavigableMap(versions.subMap(Keys.dataKey(start), true, Keys.dataEndKey(end), false));
    }

    /** Whether any version has a user key in [first, last]. */
    public boolean hasVersionsBetween(byte[] first, byte[] last) {
        byte[] found = versions.ceilingKey(Keys.dataKey(first));
        return found != null && Arrays.compareUnsigned(found, Keys.versionKey(last, 0)) <= 0;
    }

    public void prewrite(byte[] key, PendingWrite write) {
        PendingWrite previous = pending.put(key, write);
        long oldest = oldestPending;
        if (previous != null && previous.startTs() == oldest) {
            oldestPending = UNKNOWN;
        } else if (oldest != UNKNOWN && write.startTs() < oldest) {
            oldestPending = write.startTs();
        }
    }

    private void removePending(byte[] key, PendingWrite write) {
        pending.remove(key);
        if (write.startTs() == oldestPending) {
            oldestPending = UNKNOWN;
        }
    }

    /** Makes the transaction's prewrite of {@code key} visible at {@code commitTs}; a repeated commit is a no-op. */
    public void commit(byte[] key, long startTs, long commitTs) {
        PendingWrite write = pending.get(key);
        if (write == null || write.startTs() != startTs) {
            return;
        }
        removePending(key, write);
        switch (write.kind()) {
            case PUT -> putCommitted(key, commitTs, write.value());
            case DELETE -> putCommitted(key, commitTs, null);
            case LOCK -> {
            }
        }
    }

    public void rollback(byte[] key, long startTs) {
        PendingWrite write = pending.get(key);
        if (write != null && write.startTs() == startTs) {
            removePending(key, write);
        }
    }

    /** A committed version: a row value, or null for a deletion. */
    public void putCommitted(byte[] key, long commitTs, byte[] value) {
        byte[] stored;
        if (value == null) {
            stored = new byte[] {DELETE};
        } else {
            stored = new byte[value.length + 1];
            stored[0] = PUT;
            System.arraycopy(value, 0, stored, 1, value.length);
        }
        if (versions.put(Keys.versionKey(key, commitTs), stored) == null) {
            versionCount++;
        }
    }

    /** A prewrite in the ranges that a read at {@code readTs} must not pass (its transaction may commit below it). */
    public Optional<Map.Entry<byte[], PendingWrite>> blockingWrite(List<byte[][]> ranges, long readTs) {
        for (byte[][] range : ranges) {
            NavigableMap<byte[], PendingWrite> inRange = range[1].length == 0 ? pending.tailMap(range[0], true)
                    : pending.subMap(range[0], true, range[1], false);
            for (Map.Entry<byte[], PendingWrite> entry : inRange.entrySet()) {
                if (entry.getValue().blocksReadAt(readTs)) {
                    return Optional.of(Map.entry(entry.getKey(), entry.getValue()));
                }
            }
        }
        return Optional.empty();
    }

    /** The row values a snapshot at {@code readTs} sees in the ranges (user keys), in key order. */
    public RowSource rows(List<byte[][]> ranges, long readTs) {
        return new Rows(ranges, readTs);
    }

    /** Moves every version and prewrite at or after {@code splitKey} into a new delta (a region split). */
    public RegionDelta splitOff(byte[] splitKey) {
        RegionDelta right = new RegionDelta();
        NavigableMap<byte[], byte[]> movedVersions = versions.tailMap(Keys.dataKey(splitKey), true);
        right.versions.putAll(movedVersions);
        movedVersions.clear();
        versionCount = versions.size();
        right.versionCount = right.versions.size();
        NavigableMap<byte[], PendingWrite> movedPending = pending.tailMap(splitKey, true);
        right.pending.putAll(movedPending);
        movedPending.clear();
        oldestPending = UNKNOWN;
        return right;
    }

    /** Takes back versions as stored (a merge kept them in the delta). */
    public void putStored(Map<byte[], byte[]> stored) {
        if (stored.isEmpty()) {
            return;
        }
        versions.putAll(stored);
        versionCount = versions.size();
    }

    /** Takes in a merged neighbour's versions and prewrites. */
    public void absorb(RegionDelta other) {
        versions.putAll(other.versions);
        pending.putAll(other.pending);
        versionCount = versions.size();
        oldestPending = UNKNOWN;
    }

    /**
     * Drops the versions no read at or after {@code safePoint} can see: of each row, the versions older than its
     * newest one at or below the safe point, and that one too when it is a deletion and this delta is the
     * bottom layer (with a stable layer beneath, the deletion hides older versions there). Returns the versions
     * dropped.
     */
    public long collectGarbage(long safePoint, boolean bottom) {
        long dropped = 0;
        byte[] row = null;
        boolean kept = false;
        Iterator<Map.Entry<byte[], byte[]>> entries = versions.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<byte[], byte[]> entry = entries.next();
            byte[] versionKey = entry.getKey();
            if (row == null || !Rows.sameKey(versionKey, row)) {
                row = versionKey;
                kept = false;
            }
            if (Keys.timestampOf(versionKey) > safePoint) {
                continue;
            }
            if (!kept) {
                kept = true;
                if (entry.getValue()[0] != DELETE || !bottom) {
                    continue;
                }
            }
            entries.remove();
            versionCount--;
            dropped++;
        }
        return dropped;
    }

    public long versionCount() {
        return versionCount;
    }

    public long pendingCount() {
        return pending.size();
    }

    /** The oldest start timestamp among the held prewrites, {@link Long#MAX_VALUE} when none is held. */
    public long oldestPendingStartTs() {
        long known = oldestPending;
        if (known != UNKNOWN) {
            return known;
        }
        long oldest = Long.MAX_VALUE;
        for (PendingWrite write : pending.values()) {
            oldest = Math.min(oldest, write.startTs());
        }
        oldestPending = oldest;
        return oldest;
    }

    /** Approximate bytes held (keys and values). */
    public long bytes() {
        long total = 0;
        for (Map.Entry<byte[], byte[]> entry : versions.entrySet()) {
            total += entry.getKey().length + entry.getValue().length;
        }
        return total;
    }

    public void writeTo(DataOutputStream out) throws IOException {
        writeTo(out, null);
    }

    /** Writes this delta with the versions of a frozen one beneath it (null for none), as one delta. */
    public void writeTo(DataOutputStream out, RegionDelta frozen) throws IOException {
        out.writeInt(FILE_MAGIC);
        out.writeLong(versions.size() + (frozen == null ? 0 : frozen.versions.size()));
        for (Map.Entry<byte[], byte[]> entry : versions.entrySet()) {
            writeBytes(out, entry.getKey());
            writeBytes(out, entry.getValue());
        }
        if (frozen != null) {
            for (Map.Entry<byte[], byte[]> entry : frozen.versions.entrySet()) {
                writeBytes(out, entry.getKey());
                writeBytes(out, entry.getValue());
            }
        }
        out.writeLong(pending.size());
        for (Map.Entry<byte[], PendingWrite> entry : pending.entrySet()) {
            PendingWrite write = entry.getValue();
            writeBytes(out, entry.getKey());
            out.writeByte(write.kind().code());
            out.writeLong(write.startTs());
            writeBytes(out, write.primary());
            out.writeLong(write.ttlMillis());
            out.writeLong(write.txnSize());
            out.writeLong(write.forUpdateTs());
            out.writeBoolean(write.value() != null);
            if (write.value() != null) {
                writeBytes(out, write.value());
            }
        }
    }

    public static RegionDelta readFrom(DataInputStream in) throws IOException {
        if (in.readInt() != FILE_MAGIC) {
            throw new IOException("not a learner delta file");
        }
        RegionDelta delta = new RegionDelta();
        long versionCount = in.readLong();
        for (long i = 0; i < versionCount; i++) {
            delta.versions.put(readBytes(in), readBytes(in));
        }
        delta.versionCount = delta.versions.size();
        long pendingCount = in.readLong();
        for (long i = 0; i < pendingCount; i++) {
            byte[] key = readBytes(in);
            byte code = in.readByte();
            if (code < 0 || code >= PendingWrite.Kind.values().length) {
                throw new IOException("corrupt learner delta file: prewrite kind " + code);
            }
            PendingWrite.Kind kind = PendingWrite.Kind.ofCode(code);
            long startTs = in.readLong();
            byte[] primary = readBytes(in);
            long ttl = in.readLong();
            long txnSize = in.readLong();
            long forUpdateTs = in.readLong();
            byte[] value = in.readBoolean() ? readBytes(in) : null;
            delta.pending.put(key, new PendingWrite(kind, startTs, primary, ttl, txnSize, forUpdateTs, value));
        }
        return delta;
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > (64 << 20)) {
            throw new IOException("corrupt learner delta file: a field of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /** Walks the ranges one after the other; in each, the newest version at or below the read timestamp per key. */
    private final class Rows implements RowSource {
        private final List<byte[][]> ranges;
        private final long readTs;
        private int range = -1;
        private Iterator<Map.Entry<byte[], byte[]>> entries;
        private byte[] decidedKey;
        private byte[] value;

        Rows(List<byte[][]> ranges, long readTs) {
            this.ranges = requireNonNull(ranges, "ranges is null");
            this.readTs = readTs;
        }

        @Override
        public boolean advance() {
            while (true) {
                if (entries == null || !entries.hasNext()) {
                    if (++range >= ranges.size()) {
                        value = null;
                        return false;
                    }
                    byte[][] bounds = ranges.get(range);
                    entries = versions.subMap(Keys.dataKey(bounds[0]), true, Keys.dataEndKey(bounds[1]), false)
                            .entrySet().iterator();
                    decidedKey = null;
                    continue;
                }
                Map.Entry<byte[], byte[]> entry = entries.next();
                byte[] versionKey = entry.getKey();
                if (decidedKey != null && sameKey(versionKey, decidedKey)) {
                    continue;
                }
                if (Keys.timestampOf(versionKey) > readTs) {
                    continue;
                }
                decidedKey = versionKey;
                byte[] stored = entry.getValue();
                if (stored[0] == PUT) {
                    value = Arrays.copyOfRange(stored, 1, stored.length);
                    return true;
                }
            }
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public void close() {
        }

        /** Whether two version keys belong to the same row key (they differ only in their timestamps). */
        private static boolean sameKey(byte[] a, byte[] b) {
            return a.length == b.length && Arrays.equals(a, 0, a.length - 8, b, 0, b.length - 8);
        }
    }
}
