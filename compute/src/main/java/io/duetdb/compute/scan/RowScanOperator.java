package io.duetdb.compute.scan;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowView;
import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.TableScan;

/**
 * A table scan: the rows of a {@link RowSource} (the versions a snapshot sees in ranges of one table's record
 * keys), each decoded by the row codec into the requested columns of an Arrow batch.
 */
public final class RowScanOperator implements BatchOperator {

    private final BufferAllocator allocator;
    private final int batchRows;
    /** Rows of the next batch: they start at {@link ScanBatches#FIRST_ROWS} and double up to batchRows. */
    private int nextBatchRows;
    private final List<FieldType> types;
    private final ColumnDecoder[] columns;
    private final RowSource cursor;
    private final ReusableBatch batch;
    private VariableWidthColumn[] variableWidth;
    private long scannedRows;

    /** Scans {@code rows}, which the operator closes; check their ranges first with {@link #checkRanges}. */
    public RowScanOperator(RowSource rows, TableScan scan, BufferAllocator allocator, int batchRows) {
        this.cursor = requireNonNull(rows, "rows is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchRows = batchRows;
        this.nextBatchRows = ScanBatches.first(batchRows);
        List<FieldType> fieldTypes = new ArrayList<>();
        this.columns = new ColumnDecoder[scan.getColumnsCount()];
        EpochDays epochDays = new EpochDays();
        for (int i = 0; i < columns.length; i++) {
            ScanColumn column = scan.getColumns(i);
            fieldTypes.add(column.getType());
            columns[i] = new ColumnDecoder(column.getColumnId(), column.getType(),
                    column.hasDefaultValue() ? Literals.value(column.getDefaultValue(), column.getType()) : null, epochDays);
        }
        this.types = List.copyOf(fieldTypes);
        this.batch = new ReusableBatch(types, allocator);
    }

    /** Refuses key ranges that reach outside the records of the scanned table. */
    public static void checkRanges(TableScan scan, List<byte[][]> ranges) {
        byte[] tableStart = Keys.recordPrefix(scan.getTableId());
        byte[] tableEnd = Keys.recordEnd(scan.getTableId());
        for (byte[][] range : ranges) {
            if (Arrays.compareUnsigned(range[0], tableStart) < 0 || range[1].length == 0
                    || Arrays.compareUnsigned(range[1], tableEnd) > 0) {
                throw new UnsupportedExpressionException("a key range outside the records of table " + scan.getTableId());
            }
        }
    }

    public long scannedRows() {
        return scannedRows;
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        ScanBatches.checkNotInterrupted("the store");
        FieldVector[] vectors = batch.start();
        if (variableWidth == null) {
            variableWidth = new VariableWidthColumn[vectors.length];
            for (int i = 0; i < vectors.length; i++) {
                if (ColumnDecoder.isVariableWidth(vectors[i])) {
                    variableWidth[i] = new VariableWidthColumn();
                }
            }
        }
        for (VariableWidthColumn column : variableWidth) {
            if (column != null) {
                column.clear();
            }
        }
        int rows = 0;
        int wanted = nextBatchRows;
        nextBatchRows = ScanBatches.next(nextBatchRows, batchRows);
        while (rows < wanted) {
            if (!cursor.advance()) {
                break;
            }
            RowView row = new RowView(cursor.value());
            for (int i = 0; i < columns.length; i++) {
                if (variableWidth[i] != null) {
                    // Strings and bytes gather in one buffer per batch, copied to the vector once.
                    addVariableWidth(variableWidth[i], row, row.span(columns[i].columnId()), columns[i].defaultValue());
                } else {
                    columns[i].write(row, vectors[i], rows);
                }
            }
            rows++;
        }
        for (int i = 0; i < vectors.length; i++) {
            if (variableWidth[i] != null) {
                variableWidth[i].writeTo((BaseVariableWidthVector) vectors[i]);
            }
        }
        scannedRows += rows;
        return batch.finish(rows);
    }

    private static void addVariableWidth(VariableWidthColumn column, RowView row, long span, Object defaultValue) {
        if (span == RowView.NULL || span == RowView.ABSENT && defaultValue == null) {
            column.addNull();
        } else if (span == RowView.ABSENT) {
            byte[] bytes = defaultValue instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) defaultValue;
            column.add(bytes, 0, bytes.length);
        } else {
            column.add(row.bytes(), (int) (span >>> 32), (int) span);
        }
    }

    @Override
    public void close() {
        cursor.close();
        batch.close();
    }
}
