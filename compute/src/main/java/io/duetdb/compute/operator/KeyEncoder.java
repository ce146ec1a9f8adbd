package io.duetdb.compute.operator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

import io.duetdb.compute.UnsupportedExpressionException;

/**
 * Encodes a row's group-by values into a reused buffer: per column a null marker, then the value's bytes. Equal
 * values of one vector type have equal bytes, so groups are told apart by comparing bytes, with no object per row.
 */
final class KeyEncoder {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] scratch = new byte[64];

    /** The buffer the last {@link #encode} wrote; valid until the next call. */
    byte[] bytes() {
        return scratch;
    }

    /** Encodes the row's key into {@link #bytes()}; answers its length. */
    int encode(List<FieldVector> keys, int row) {
        int position = 0;
        for (int k = 0; k < keys.size(); k++) {
            FieldVector vector = keys.get(k);
            ensureScratch(position + 1 + Long.BYTES * 2);
            if (vector.isNull(row)) {
                scratch[position++] = 0;
                continue;
            }
            scratch[position++] = 1;
            if (vector instanceof BitVector bits) {
                scratch[position++] = (byte) bits.get(row);
            } else if (vector instanceof BaseVariableWidthVector variable) {
                int start = variable.getStartOffset(row);
                int length = variable.getValueLength(row);
                ensureScratch(position + Integer.BYTES + length);
                INTS.set(scratch, position, length);
                position += Integer.BYTES;
                variable.getDataBuffer().getBytes(start, scratch, position, length);
                position += length;
            } else if (vector instanceof BaseFixedWidthVector fixed) {
                position = encodeFixed(fixed, row, position);
            } else {
                throw new UnsupportedExpressionException("cannot group by a " + vector.getClass().getSimpleName());
            }
        }
        return position;
    }

    private int encodeFixed(BaseFixedWidthVector vector, int row, int position) {
        int width = vector.getTypeWidth();
        long offset = (long) row * width;
        if (width == Long.BYTES) {
            LONGS.set(scratch, position, vector.getDataBuffer().getLong(offset));
        } else if (width == Integer.BYTES) {
            INTS.set(scratch, position, vector.getDataBuffer().getInt(offset));
        } else {
            ensureScratch(position + width);
            vector.getDataBuffer().getBytes(offset, scratch, position, width);
        }
        return position + width;
    }

    private void ensureScratch(int size) {
        if (size > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(size, scratch.length * 2));
        }
    }

}
