package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowView;
import io.duetdb.learner.internal.schema.TableSchema;
import io.duetdb.learner.internal.schema.TableSchemas;
import io.duetdb.learner.internal.storage.RegionDelta;

/**
 * Merges a frozen delta into a stable layer (the DeltaTree's delta merge): per table, the slices whose keys the
 * delta touches are rewritten together with the delta's versions into new packs, in (key, newest first) order;
 * the other slices are kept as they are. Versions no read at or after the GC safe point can see are dropped on
 * the way, deletions included (the stable layer is the bottom: nothing older lies beneath). Rows decode with the
 * table's schema; a row naming a column the schema does not know makes the schema reload at once.
 */
public final class StableMerger {
    private static final Logger LOG = LoggerFactory.getLogger(StableMerger.class);

    private final TableSchemas schemas;
    private final LongSupplier packIds;

    public StableMerger(TableSchemas schemas, LongSupplier packIds) {
        this.schemas = requireNonNull(schemas, "schemas is null");
        this.packIds = requireNonNull(packIds, "packIds is null");
    }

    /**
     * What a merge made: the new layer, the packs it wrote, what it did with the versions, and the versions it kept
     * back for the delta (of tables the catalog does not hold yet).
     */
    public record Result(StableLayer stable, List<ColumnPack> created, long mergedVersions, long droppedVersions,
            NavigableMap<byte[], byte[]> retained) {
        public Result {
            requireNonNull(stable, "stable is null");
            created = List.copyOf(created);
            requireNonNull(retained, "retained is null");
        }
    }

    public Result merge(long regionId, StableLayer stable, NavigableMap<byte[], byte[]> frozen, long safePoint) {
        List<PackSlice> kept = new ArrayList<>(stable.slices());
        List<ColumnPack> created = new ArrayList<>();
        long merged = 0;
        long dropped = 0;
        List<Map.Entry<byte[], byte[]>> table = new ArrayList<>();
        NavigableMap<byte[], byte[]> retained = new TreeMap<>(Arrays::compareUnsigned);
        long tableId = Long.MIN_VALUE;
        for (Map.Entry<byte[], byte[]> entry : frozen.entrySet()) {
            long entryTable = Keys.tableIdOf(userKey(entry.getKey()));
            if (entryTable != tableId && !table.isEmpty()) {
                long[] counts = mergeTable(regionId, tableId, table, kept, created, safePoint, retained);
                merged += counts[0];
                dropped += counts[1];
                table.clear();
            }
            tableId = entryTable;
            table.add(entry);
        }
        if (!table.isEmpty()) {
            long[] counts = mergeTable(regionId, tableId, table, kept, created, safePoint, retained);
            merged += counts[0];
            dropped += counts[1];
        }
        kept.sort((a, b) -> Arrays.compareUnsigned(a.firstKey(), b.firstKey()));
        return new Result(new StableLayer(kept), created, merged, dropped, retained);
    }

    /** Merges one table's delta versions with the slices they touch; updates {@code slices}. */
    private long[] mergeTable(long regionId, long tableId, List<Map.Entry<byte[], byte[]>> versions,
            List<PackSlice> slices, List<ColumnPack> created, long safePoint, NavigableMap<byte[], byte[]> retained) {
        Optional<TableSchema> schema = schemaFor(tableId, versions);
        if (schema.isEmpty()) {
            // A dropped table, or one not published yet: a physical import writes its rows under a new table id,
            // committed at a timestamp it holds GC below, before the catalog names it. Versions reads may still
            // need stay in the delta; those below the safe point belong to a dropped table and go.
            long dropped = 0;
            for (Map.Entry<byte[], byte[]> version : versions) {
                if (Keys.timestampOf(version.getKey()) >= safePoint) {
                    retained.put(version.getKey(), version.getValue());
                } else {
                    dropped++;
                }
            }
            LOG.info("region {}: table {} is not in the catalog; of its {} delta versions {} are dropped (below the"
                    + " GC safe point) and {} stay in the delta", regionId, tableId, versions.size(), dropped,
                    versions.size() - dropped);
            return new long[] {0, dropped};
        }
        byte[] low = userKey(versions.get(0).getKey());
        byte[] high = userKey(versions.get(versions.size() - 1).getKey());
        List<PackSlice> rewritten = new ArrayList<>();
        slices.removeIf(slice -> {
            boolean touched = slice.pack().tableId() == tableId
                    && Arrays.compareUnsigned(slice.lastKey(), low) >= 0
                    && Arrays.compareUnsigned(slice.firstKey(), high) <= 0;
            if (touched) {
                rewritten.add(slice);
            }
            return touched;
        });
        rewritten.sort((a, b) -> Arrays.compareUnsigned(a.firstKey(), b.firstKey()));
        SliceCursor old = new SliceCursor(rewritten);
        int next = 0;
        PackBuilder builder = new PackBuilder(schema.get());
        byte[] currentKey = null;
        boolean settled = false;
        long merged = 0;
        long dropped = 0;
        while (old.valid() || next < versions.size()) {
            boolean fromDelta;
            byte[] key;
            long timestamp;
            if (!old.valid()) {
                fromDelta = true;
            } else if (next >= versions.size()) {
                fromDelta = false;
            } else {
                byte[] deltaKey = userKey(versions.get(next).getKey());
                int order = Arrays.compareUnsigned(deltaKey, old.key());
                if (order == 0) {
                    long deltaTs = Keys.timestampOf(versions.get(next).getKey());
                    long stableTs = old.commitTs();
                    if (deltaTs == stableTs) {
                        // The same version in both layers (a log entry replayed over a merged one): once is enough.
                        old.advance();
                    }
                    fromDelta = deltaTs >= stableTs;
                } else {
                    fromDelta = order < 0;
                }
            }
            boolean deletion;
            if (fromDelta) {
                key = userKey(versions.get(next).getKey());
                timestamp = Keys.timestampOf(versions.get(next).getKey());
                deletion = RegionDelta.isDeletion(versions.get(next).getValue());
            } else {
                key = old.key();
                timestamp = old.commitTs();
                deletion = old.deleted();
            }
            if (currentKey == null || !Arrays.equals(key, currentKey)) {
                if (builder.rows() >= ColumnPack.TARGET_ROWS) {
                    created.add(builder.build(packIds.getAsLong()));
                    builder = new PackBuilder(schema.get());
                }
                currentKey = key;
                settled = false;
            }
            // Of each key, versions above the safe point stay, and the newest at or below it unless a deletion.
            boolean keep = timestamp > safePoint || !settled && !deletion;
            if (timestamp <= safePoint) {
                settled = true;
            }
            if (keep) {
                if (fromDelta) {
                    builder.add(key, timestamp, deletion ? null : RegionDelta.rowOf(versions.get(next).getValue()));
                } else {
                    builder.copy(old.pack(), old.row());
                }
                merged++;
            } else {
                dropped++;
            }
            if (fromDelta) {
                next++;
            } else {
                old.advance();
            }
        }
        if (builder.rows() > 0) {
            created.add(builder.build(packIds.getAsLong()));
        }
        for (ColumnPack pack : created) {
            if (pack.tableId() == tableId) {
                slices.add(PackSlice.whole(pack));
            }
        }
        return new long[] {merged, dropped};
    }

    /** The table's schema, reloaded when it is unknown or a row names a column it lacks. */
    private Optional<TableSchema> schemaFor(long tableId, List<Map.Entry<byte[], byte[]>> versions) {
        Optional<TableSchema> schema = schemas.table(tableId);
        if (schema.isEmpty()) {
            return schemas.refresh(tableId, "table " + tableId + " is not known");
        }
        for (Map.Entry<byte[], byte[]> entry : versions) {
            if (RegionDelta.isDeletion(entry.getValue())) {
                continue;
            }
            RowView row = RegionDelta.rowOf(entry.getValue());
            int known = 0;
            for (int id : schema.get().columnIds()) {
                if (row.contains(id)) {
                    known++;
                }
            }
            if (known < row.columnCount()) {
                return schemas.refresh(tableId, "a row of table " + tableId + " has a column schema version "
                        + schema.get().schemaVersion() + " does not know");
            }
        }
        return schema;
    }

    private static byte[] userKey(byte[] versionKey) {
        return Keys.userKeyOf(Keys.dataKeyOfVersion(versionKey));
    }

    /** Walks the rows of slices in order. */
    private static final class SliceCursor {
        private final List<PackSlice> slices;
        private int slice;
        private int row;

        SliceCursor(List<PackSlice> slices) {
            this.slices = slices;
            this.row = slices.isEmpty() ? 0 : slices.get(0).from();
        }

        boolean valid() {
            return slice < slices.size();
        }

        ColumnPack pack() {
            return slices.get(slice).pack();
        }

        int row() {
            return row;
        }

        byte[] key() {
            return pack().key(row);
        }

        long commitTs() {
            return pack().commitTs(row);
        }

        boolean deleted() {
            return pack().deleted(row);
        }

        void advance() {
            row++;
            if (row >= slices.get(slice).to()) {
                slice++;
                if (slice < slices.size()) {
                    row = slices.get(slice).from();
                }
            }
        }
    }
}
