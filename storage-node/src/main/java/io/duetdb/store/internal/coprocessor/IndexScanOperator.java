package io.duetdb.store.internal.coprocessor;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.codec.KeyReader;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.ColumnType;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.Batches;
import io.duetdb.compute.scan.ScanBatches;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.IndexScan;
import io.duetdb.store.engine.EngineReader;

/**
 * The row store's index scan: the entries a snapshot sees in the given ranges of one index, their values decoded
 * from the keys (and the handle from the key's end, or from the value of a unique entry) into an Arrow batch.
 * No row is read.
 */
final class IndexScanOperator implements BatchOperator {
    private static final int HANDLE_VALUE_BYTES = Long.BYTES;

    private final BufferAllocator allocator;
    private final int batchRows;
    /** Rows of the next batch: they start at {@link ScanBatches#FIRST_ROWS} and double up to batchRows. */
    private int nextBatchRows;
    private final int prefixLength;
    private final ColumnType[] keyTypes;
    private final List<FieldType> keyFieldTypes;
    private final int[] outputs;
    /** Whether an output is the handle (only integer handles are; a common handle's columns are not asked for). */
    private final boolean outputsHandle;
    private final List<FieldType> types;
    private final Object[] decoded;
    private final RangesCursor cursor;
    private VectorSchemaRoot output;
    private long scannedRows;

    IndexScanOperator(EngineReader engine, IndexScan scan, List<byte[][]> ranges, long version, BufferAllocator allocator,
            int batchRows, List<FieldType> types) {
        this.cursor = new RangesCursor(engine, ranges, version);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchRows = batchRows;
        this.nextBatchRows = ScanBatches.first(batchRows);
        this.types = List.copyOf(types);
        byte[] indexStart = Keys.indexPrefix(scan.getTableId(), scan.getIndexId());
        byte[] indexEnd = Keys.indexEnd(scan.getTableId(), scan.getIndexId());
        for (byte[][] range : ranges) {
            if (Arrays.compareUnsigned(range[0], indexStart) < 0 || range[1].length == 0
                    || Arrays.compareUnsigned(range[1], indexEnd) > 0) {
                throw new UnsupportedExpressionException("a key range outside index " + scan.getIndexId() + " of table "
                        + scan.getTableId());
            }
        }
        this.prefixLength = indexStart.length;
        this.keyFieldTypes = List.copyOf(scan.getKeyTypesList());
        this.keyTypes = new ColumnType[keyFieldTypes.size()];
        for (int i = 0; i < keyTypes.length; i++) {
            keyTypes[i] = StoredValues.storageType(keyFieldTypes.get(i));
        }
        this.outputs = scan.getOutputsList().stream().mapToInt(Integer::intValue).toArray();
        this.decoded = new Object[keyTypes.length + 1];
        this.outputsHandle = Arrays.stream(outputs).anyMatch(output -> output == keyTypes.length);
    }

    long scannedRows() {
        return scannedRows;
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        if (Thread.currentThread().isInterrupted()) {
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "the store is stopping");
        }
        if (output == null) {
            output = Batches.empty(types, allocator);
        }
        output.allocateNew();
        List<FieldVector> vectors = output.getFieldVectors();
        int rows = 0;
        int wanted = nextBatchRows;
        nextBatchRows = ScanBatches.next(nextBatchRows, batchRows);
        while (rows < wanted) {
            if (!cursor.advance()) {
                break;
            }
            decode(cursor.userKey(), cursor.value());
            for (int i = 0; i < outputs.length; i++) {
                VectorValues.set(vectors.get(i), rows, decoded[outputs[i]]);
            }
            rows++;
        }
        scannedRows += rows;
        if (rows == 0) {
            return null;
        }
        output.setRowCount(rows);
        return output;
    }

    /** The entry's values in the vectors' forms, then its handle. */
    private void decode(byte[] key, byte[] value) {
        KeyReader reader = new KeyReader(key, prefixLength);
        for (int i = 0; i < keyTypes.length; i++) {
            decoded[i] = StoredValues.toCompute(reader.readDatum(keyTypes[i]), keyFieldTypes.get(i));
        }
        if (outputsHandle) {
            decoded[keyTypes.length] = value.length == HANDLE_VALUE_BYTES && !reader.hasRemaining()
                    ? java.nio.ByteBuffer.wrap(value).getLong() : reader.readDatum(ColumnType.INT64);
        }
    }

    @Override
    public void close() {
        cursor.close();
        if (output != null) {
            output.close();
        }
    }
}
