package io.duetdb.compute.operator;

import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueOrdering;

/**
 * The order of a batch's rows by sort keys, as the SQL layer orders values ({@link ValueOrdering}; NULLs first
 * ascending, last descending): comparisons read the vectors' buffers, so sorting allocates nothing per row.
 */
final class RowOrder {
    /** Compares two rows of one batch by their positions. */
    @FunctionalInterface
    interface Comparison {
        int compare(int left, int right);
    }

    private static final int INSERTION_SORT_ROWS = 7;

    private RowOrder() {
    }

    /** The batch's row positions sorted by the keys; rows of equal keys keep their order. */
    static int[] sorted(VectorSchemaRoot batch, List<SortOperator.Key> keys) {
        int rows = batch.getRowCount();
        int[] order = new int[rows];
        for (int row = 0; row < rows; row++) {
            order[row] = row;
        }
        if (keys.isEmpty() || rows < 2) {
            return order;
        }
        Comparison comparison = comparison(batch, keys);
        mergeSort(order.clone(), order, 0, rows, comparison);
        return order;
    }

    static Comparison comparison(VectorSchemaRoot batch, List<SortOperator.Key> keys) {
        Comparison[] columns = new Comparison[keys.size()];
        for (int k = 0; k < columns.length; k++) {
            SortOperator.Key key = keys.get(k);
            Comparison ascending = withNulls(batch.getVector(key.column()));
            columns[k] = key.descending() ? (left, right) -> ascending.compare(right, left) : ascending;
        }
        if (columns.length == 1) {
            return columns[0];
        }
        return (left, right) -> {
            for (Comparison column : columns) {
                int result = column.compare(left, right);
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    private static Comparison withNulls(FieldVector vector) {
        Comparison values = values(vector);
        if (vector.getNullCount() == 0) {
            return values;
        }
        ArrowBuf validity = vector.getValidityBuffer();
        return (left, right) -> {
            boolean leftNull = BitVectorHelper.get(validity, left) == 0;
            boolean rightNull = BitVectorHelper.get(validity, right) == 0;
            if (leftNull || rightNull) {
                return leftNull == rightNull ? 0 : leftNull ? -1 : 1;
            }
            return values.compare(left, right);
        };
    }

    /** Comparisons of non-NULL values, each type read in place where its buffer layout allows. */
    private static Comparison values(FieldVector vector) {
        if (vector instanceof BigIntVector || vector instanceof TimeStampMicroVector
                || vector instanceof TimeMicroVector) {
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> Long.compare(data.getLong(8L * left), data.getLong(8L * right));
        }
        if (vector instanceof UInt8Vector) {
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> Long.compareUnsigned(data.getLong(8L * left), data.getLong(8L * right));
        }
        if (vector instanceof DateDayVector) {
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> Integer.compare(data.getInt(4L * left), data.getInt(4L * right));
        }
        if (vector instanceof Float8Vector) {
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> Double.compare(data.getDouble(8L * left), data.getDouble(8L * right));
        }
        if (vector instanceof Float4Vector) {
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> Double.compare(data.getFloat(4L * left), data.getFloat(4L * right));
        }
        if (vector instanceof DecimalVector) {
            // One scale per vector: the 128-bit two's complement unscaled values order as the decimals do.
            ArrowBuf data = vector.getDataBuffer();
            return (left, right) -> {
                int high = Long.compare(data.getLong(16L * left + 8), data.getLong(16L * right + 8));
                return high != 0 ? high : Long.compareUnsigned(data.getLong(16L * left), data.getLong(16L * right));
            };
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            // UTF-8's byte order is code point order, the order of strings; bytes compare unsigned.
            ArrowBuf offsets = variable.getOffsetBuffer();
            ArrowBuf data = variable.getDataBuffer();
            return (left, right) -> compareBytes(data, offsets.getInt(4L * left), offsets.getInt(4L * left + 4),
                    offsets.getInt(4L * right), offsets.getInt(4L * right + 4));
        }
        if (vector instanceof BitVector bits) {
            return (left, right) -> Integer.compare(bits.get(left), bits.get(right));
        }
        if (vector instanceof Decimal256Vector decimals) {
            return (left, right) -> decimals.getObject(left).compareTo(decimals.getObject(right));
        }
        throw new UnsupportedExpressionException("no order for " + vector.getField().getType());
    }

    private static int compareBytes(ArrowBuf data, int leftStart, int leftEnd, int rightStart, int rightEnd) {
        int length = Math.min(leftEnd - leftStart, rightEnd - rightStart);
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            long x = data.getLong(leftStart + i);
            long y = data.getLong(rightStart + i);
            if (x != y) {
                // Little-endian loads: reversed, the first differing byte is the most significant.
                return Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y));
            }
        }
        for (; i < length; i++) {
            int x = data.getByte(leftStart + i) & 0xff;
            int y = data.getByte(rightStart + i) & 0xff;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return Integer.compare(leftEnd - leftStart, rightEnd - rightStart);
    }

    /** A stable merge sort of {@code target[low, high)}; {@code source} holds the same positions on entry. */
    private static void mergeSort(int[] source, int[] target, int low, int high, Comparison comparison) {
        int length = high - low;
        if (length < INSERTION_SORT_ROWS) {
            for (int i = low + 1; i < high; i++) {
                for (int j = i; j > low && comparison.compare(target[j - 1], target[j]) > 0; j--) {
                    int swapped = target[j];
                    target[j] = target[j - 1];
                    target[j - 1] = swapped;
                }
            }
            return;
        }
        int middle = (low + high) >>> 1;
        mergeSort(target, source, low, middle, comparison);
        mergeSort(target, source, middle, high, comparison);
        if (comparison.compare(source[middle - 1], source[middle]) <= 0) {
            System.arraycopy(source, low, target, low, length);
            return;
        }
        for (int i = low, p = low, q = middle; i < high; i++) {
            if (q >= high || p < middle && comparison.compare(source[p], source[q]) <= 0) {
                target[i] = source[p++];
            } else {
                target[i] = source[q++];
            }
        }
    }
}
