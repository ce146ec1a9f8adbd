package io.duetdb.compute.scan;

import java.util.Arrays;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;

/**
 * One batch's values of a string or bytes column, gathered on the heap and copied into the vector at once:
 * most such values are a few bytes, and one copy per value into Arrow memory costs more than the bytes.
 */
final class VariableWidthColumn {
    private byte[] bytes = new byte[1 << 12];
    private int used;
    private int[] ends = new int[0];
    private boolean[] nulls = new boolean[0];
    private int rows;

    /** Starts a batch. */
    void clear() {
        used = 0;
        rows = 0;
    }

    void add(byte[] source, int offset, int length) {
        ensureRow();
        if (used + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + length));
        }
        System.arraycopy(source, offset, bytes, used, length);
        used += length;
        nulls[rows] = false;
        ends[rows++] = used;
    }

    void addNull() {
        ensureRow();
        nulls[rows] = true;
        ends[rows++] = used;
    }

    private void ensureRow() {
        if (rows == ends.length) {
            int length = Math.max(1024, rows * 2);
            ends = Arrays.copyOf(ends, length);
            nulls = Arrays.copyOf(nulls, length);
        }
    }

    /** Writes the batch into {@code vector}, which must be empty (freshly allocated or reset). */
    void writeTo(BaseVariableWidthVector vector) {
        while (vector.getValueCapacity() < rows) {
            vector.reallocValidityAndOffsetBuffers();
        }
        while (vector.getDataBuffer().capacity() < used) {
            vector.reallocDataBuffer();
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf validity = vector.getValidityBuffer();
        offsets.setInt(0, 0);
        for (int row = 0; row < rows; row++) {
            offsets.setInt((long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH, ends[row]);
            if (!nulls[row]) {
                BitVectorHelper.setBit(validity, row);
            }
        }
        vector.getDataBuffer().setBytes(0, bytes, 0, used);
        vector.setLastSet(rows - 1);
    }
}
