package io.duetdb.compute.statistics;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import com.google.protobuf.ByteString;

import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.AnalyzeResult;
import io.duetdb.proto.coprocessor.ColumnSketch;

/**
 * What ANALYZE gathers from one region's rows in one pass: the row count, and per column the NULL count, a
 * distinct-value sketch and the bytes of its values; per column group (an index's first columns) a sketch of its
 * distinct tuples; and a uniform sample of rows (reservoir sampling with a
 * seeded generator, so a run is repeatable).
 */
public final class AnalyzeCollector {
    /** What a NULL adds to a tuple's hash: a NULL is one value of the tuple, as an index holds it. */
    private static final long NULL_HASH = 0x5bd1e9955bd1e995L;
    private static final long GROUP_SEED = 0x9e3779b97f4a7c15L;
    private final int columns;
    private final int sampleSize;
    private final SplittableRandom random;
    private final long[] nullCounts;
    private final long[] totalBytes;
    private final HyperLogLog[] sketches;
    private final List<Object[]> sample = new ArrayList<>();
    private final List<int[]> groups;
    private final HyperLogLog[] groupSketches;
    private final long[] rowHashes;
    private long rows;

    public AnalyzeCollector(int columns, int sampleSize, long seed) {
        this(columns, sampleSize, seed, List.of());
    }

    /** Also sketches the distinct tuples of each of {@code groups} (column positions, as an index's first columns). */
    public AnalyzeCollector(int columns, int sampleSize, long seed, List<int[]> groups) {
        this.groups = List.copyOf(groups);
        for (int[] group : this.groups) {
            for (int column : group) {
                if (column < 0 || column >= columns) {
                    throw new IllegalArgumentException("column group position " + column + " outside " + columns
                            + " columns");
                }
            }
        }
        this.groupSketches = new HyperLogLog[this.groups.size()];
        for (int i = 0; i < groupSketches.length; i++) {
            groupSketches[i] = new HyperLogLog();
        }
        this.rowHashes = new long[columns];
        this.columns = columns;
        this.sampleSize = sampleSize;
        this.random = new SplittableRandom(seed);
        this.nullCounts = new long[columns];
        this.totalBytes = new long[columns];
        this.sketches = new HyperLogLog[columns];
        for (int i = 0; i < columns; i++) {
            sketches[i] = new HyperLogLog();
        }
    }

    public void add(VectorSchemaRoot batch) {
        requireNonNull(batch, "batch is null");
        int count = batch.getRowCount();
        for (int row = 0; row < count; row++) {
            rows++;
            // Decide the reservoir slot first: most rows of a large table are not sampled and need no array.
            int slot = sample.size() < sampleSize ? sample.size() : (int) Math.min(random.nextLong(rows), Integer.MAX_VALUE);
            Object[] values = slot < sampleSize ? new Object[columns] : null;
            for (int column = 0; column < columns; column++) {
                FieldVector vector = batch.getVector(column);
                Object value = VectorValues.get(vector, row);
                if (values != null) {
                    values[column] = value;
                }
                if (value == null) {
                    nullCounts[column]++;
                    rowHashes[column] = NULL_HASH;
                } else {
                    long hash = hash(value);
                    rowHashes[column] = hash;
                    sketches[column].add(hash);
                    totalBytes[column] += width(value);
                }
            }
            for (int g = 0; g < groupSketches.length; g++) {
                long combined = GROUP_SEED;
                for (int column : groups.get(g)) {
                    combined = HyperLogLog.mix(combined * 31 + rowHashes[column]);
                }
                groupSketches[g].add(combined);
            }
            if (values != null) {
                if (slot == sample.size()) {
                    sample.add(values);
                } else {
                    sample.set(slot, values);
                }
            }
        }
    }

    public long rows() {
        return rows;
    }

    public List<Object[]> sample() {
        return sample;
    }

    public AnalyzeResult result() {
        AnalyzeResult.Builder result = AnalyzeResult.newBuilder().setRowCount(rows).setSampleRows(sample.size());
        for (int column = 0; column < columns; column++) {
            result.addColumns(ColumnSketch.newBuilder().setNullCount(nullCounts[column])
                    .setDistinctRegisters(ByteString.copyFrom(sketches[column].registers()))
                    .setTotalBytes(totalBytes[column]));
        }
        for (HyperLogLog sketch : groupSketches) {
            result.addGroupDistinctRegisters(ByteString.copyFrom(sketch.registers()));
        }
        return result.build();
    }

    /** A hash of a value that equal values share: decimals by their value whatever their scale. */
    static long hash(Object value) {
        if (value instanceof Long number) {
            return HyperLogLog.mix(number);
        }
        if (value instanceof String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            return HyperLogLog.hash(bytes, 0, bytes.length);
        }
        if (value instanceof BigDecimal decimal) {
            byte[] bytes = (decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString())
                    .getBytes(StandardCharsets.UTF_8);
            return HyperLogLog.hash(bytes, 0, bytes.length);
        }
        if (value instanceof Double number) {
            return HyperLogLog.mix(Double.doubleToLongBits(number == 0.0 ? 0.0 : number));
        }
        if (value instanceof Float number) {
            return HyperLogLog.mix(Double.doubleToLongBits(number == 0.0f ? 0.0 : number));
        }
        if (value instanceof byte[] bytes) {
            return HyperLogLog.hash(bytes, 0, bytes.length);
        }
        if (value instanceof Boolean bool) {
            return HyperLogLog.mix(bool ? 1 : 0);
        }
        return HyperLogLog.mix(value.hashCode());
    }

    private static long width(Object value) {
        if (value instanceof String text) {
            return text.length();
        }
        if (value instanceof byte[] bytes) {
            return bytes.length;
        }
        if (value instanceof BigDecimal) {
            return 16;
        }
        return 8;
    }
}
