package io.duetdb.learner.internal.read;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.row.RowView;
import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.scan.ColumnDecoder;
import io.duetdb.compute.scan.ReusableBatch;
import io.duetdb.compute.scan.ScanBatches;
import io.duetdb.learner.internal.stable.ColumnPack;
import io.duetdb.learner.internal.stable.Layers;
import io.duetdb.learner.internal.stable.PackColumn;
import io.duetdb.learner.internal.stable.PackSlice;
import io.duetdb.learner.internal.storage.RegionDelta;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.TableScan;

/**
 * A table scan over a replica's layers at a read timestamp (the TiDB paper's section 4.2.4): the stable packs'
 * columns merged in key order with the deltas' rows. Of each key the newest version at or below the read
 * timestamp in any layer wins, and a deletion hides the key. Packs the deltas do not touch are read without
 * comparing keys: whole when every version in them is visible, not at all when the pack filter rules them out.
 */
public final class ColumnarScanOperator implements BatchOperator {
    private final Layers layers;
    private final List<byte[][]> ranges;
    private final long readTs;
    private final PackFilter filter;
    private final int batchRows;
    private int nextBatchRows;
    private final List<FieldType> types;
    private final int[] columnIds;
    private final ColumnDecoder[] decoders;
    private final Object[] defaults;

    private final ReusableBatch batch;
    private FieldVector[] vectors;
    private int range = -1;
    private List<PackSlice> slices = List.of();
    private int sliceIndex;
    private Mode mode;
    private PackColumn[] sliceColumns;
    private int position;
    private int sliceEnd;
    private DeltaCursor delta;
    private boolean finished;
    private long scannedRows;
    private long skippedPacks;
    private long readPacks;

    private enum Mode {
        /** Not yet looked at. */
        NEW,
        /** Every row in the slice is the visible version of its key. */
        ALL,
        /** Rows compared key by key with the deltas. */
        MERGE,
        /** No row can pass the filter and the deltas do not touch the slice. */
        SKIP
    }

    public ColumnarScanOperator(Layers layers, List<byte[][]> ranges, long readTs, TableScan scan, PackFilter filter,
            BufferAllocator allocator, int batchRows) {
        this.layers = requireNonNull(layers, "layers is null");
        this.ranges = List.copyOf(requireNonNull(ranges, "ranges is null"));
        this.readTs = readTs;
        this.filter = requireNonNull(filter, "filter is null");
        this.batchRows = batchRows;
        this.nextBatchRows = ScanBatches.first(batchRows);
        List<FieldType> fieldTypes = new ArrayList<>();
        this.columnIds = new int[scan.getColumnsCount()];
        this.decoders = new ColumnDecoder[columnIds.length];
        this.defaults = new Object[columnIds.length];
        for (int i = 0; i < columnIds.length; i++) {
            ScanColumn column = scan.getColumns(i);
            fieldTypes.add(column.getType());
            columnIds[i] = column.getColumnId();
            defaults[i] = column.hasDefaultValue() ? Literals.value(column.getDefaultValue(), column.getType()) : null;
            decoders[i] = new ColumnDecoder(column.getColumnId(), column.getType(), defaults[i]);
        }
        this.types = List.copyOf(fieldTypes);
        this.batch = new ReusableBatch(types, allocator);
    }

    /** Versions looked at: rows of packs read and rows of the deltas. */
    public long scannedRows() {
        return scannedRows;
    }

    public long skippedPacks() {
        return skippedPacks;
    }

    public long readPacks() {
        return readPacks;
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        ScanBatches.checkNotInterrupted("the learner");
        vectors = batch.start();
        int wanted = nextBatchRows;
        nextBatchRows = ScanBatches.next(nextBatchRows, batchRows);
        return batch.finish(fill(wanted));
    }

    private int fill(int wanted) {
        int rows = 0;
        while (rows < wanted && !finished) {
            if (delta == null) {
                if (!nextRange()) {
                    finished = true;
                    break;
                }
                continue;
            }
            PackSlice slice = sliceIndex < slices.size() ? slices.get(sliceIndex) : null;
            if (slice == null) {
                if (!delta.valid()) {
                    delta = null;
                    continue;
                }
                rows += emitDelta(rows);
                continue;
            }
            if (mode == Mode.NEW) {
                if (!startSlice(slice)) {
                    sliceIndex++;
                    continue;
                }
            }
            ColumnPack pack = slice.pack();
            if (delta.valid() && Arrays.compareUnsigned(delta.key(), pack.key(position)) < 0) {
                rows += emitDelta(rows);
                continue;
            }
            if (mode == Mode.SKIP) {
                skippedPacks++;
                position = sliceEnd;
            } else if (mode == Mode.ALL) {
                int count = Math.min(sliceEnd - position, wanted - rows);
                for (int row = position; row < position + count; row++) {
                    emitStable(rows++, row);
                }
                scannedRows += count;
                position += count;
            } else {
                rows += mergeKey(pack, rows);
            }
            if (position >= sliceEnd) {
                sliceIndex++;
                mode = Mode.NEW;
            }
        }
        return rows;
    }

    private boolean nextRange() {
        if (++range >= ranges.size()) {
            return false;
        }
        byte[] start = ranges.get(range)[0];
        byte[] end = ranges.get(range)[1];
        slices = layers.stable().overlapping(start, end);
        sliceIndex = 0;
        mode = Mode.NEW;
        delta = new DeltaCursor(layers.frozen() == null ? null : layers.frozen().versionsIn(start, end),
                layers.active().versionsIn(start, end), readTs);
        return true;
    }

    /** Clips the slice to the range and picks how to read it; false when nothing of it is read. */
    private boolean startSlice(PackSlice slice) {
        ColumnPack pack = slice.pack();
        byte[] start = ranges.get(range)[0];
        byte[] end = ranges.get(range)[1];
        int from = Math.max(slice.from(), pack.lowerBound(start));
        int to = end.length == 0 ? slice.to() : Math.min(slice.to(), pack.lowerBound(end));
        if (from >= to) {
            return false;
        }
        boolean untouched = !layers.deltaHasVersionsBetween(pack.key(from), pack.key(to - 1));
        position = from;
        sliceEnd = to;
        if (untouched && !filter.mayMatch(pack)) {
            mode = Mode.SKIP;
            return true;
        }
        readPacks++;
        mode = untouched && pack.plain() && pack.maxCommitTs() <= readTs ? Mode.ALL : Mode.MERGE;
        sliceColumns = new PackColumn[columnIds.length];
        for (int i = 0; i < columnIds.length; i++) {
            PackColumn column = pack.column(columnIds[i]);
            if (column != null && !column.type().equals(types.get(i))) {
                throw new UnsupportedExpressionException("column " + columnIds[i] + " is stored as "
                        + column.type().getType() + " on this learner but read as " + types.get(i).getType());
            }
            sliceColumns[i] = column;
        }
        return true;
    }

    /** Emits the visible version of the key at {@code position}, from the slice or the deltas; returns rows emitted. */
    private int mergeKey(ColumnPack pack, int index) {
        byte[] key = pack.key(position);
        int groupEnd = position + 1;
        while (groupEnd < sliceEnd && Arrays.equals(pack.key(groupEnd), key)) {
            groupEnd++;
        }
        int stableRow = -1;
        for (int row = position; row < groupEnd; row++) {
            if (pack.commitTs(row) <= readTs) {
                stableRow = row;
                break;
            }
        }
        scannedRows += groupEnd - position;
        position = groupEnd;
        if (delta.valid() && Arrays.equals(delta.key(), key)) {
            boolean deltaWins = delta.hasVisible() && (stableRow < 0 || delta.visibleTs() >= pack.commitTs(stableRow));
            if (deltaWins) {
                return emitDelta(index);
            }
            delta.advance();
        }
        if (stableRow < 0 || pack.deleted(stableRow)) {
            return 0;
        }
        emitStable(index, stableRow);
        return 1;
    }

    /** Emits the deltas' current key when visible and not deleted, and moves past it; returns rows emitted. */
    private int emitDelta(int index) {
        scannedRows++;
        byte[] stored = delta.hasVisible() ? delta.visible() : null;
        delta.advance();
        if (stored == null || RegionDelta.isDeletion(stored)) {
            return 0;
        }
        RowView row = RegionDelta.rowOf(stored);
        for (int i = 0; i < vectors.length; i++) {
            decoders[i].write(row, vectors[i], index);
        }
        return 1;
    }

    private void emitStable(int index, int row) {
        for (int i = 0; i < vectors.length; i++) {
            PackColumn column = sliceColumns[i];
            if (column == null) {
                VectorValues.set(vectors[i], index, defaults[i]);
            } else {
                column.appendTo(vectors[i], index, row);
            }
        }
    }

    @Override
    public void close() {
        batch.close();
    }
}
