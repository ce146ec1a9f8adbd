package io.duetdb.learner.internal.stable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Strings (UTF-8) and byte strings, end to end in one array with an offset per row. */
public final class BytesPackColumn extends PackColumn {
    private final byte[] data;
    /** Row i's bytes are data[offsets[i], offsets[i + 1]). */
    private final int[] offsets;

    BytesPackColumn(FieldType type, byte[] data, int[] offsets, boolean[] nulls) {
        super(type, nulls);
        this.data = data;
        this.offsets = offsets;
        summarize();
    }

    @Override
    Object valueAt(int row) {
        byte[] bytes = Arrays.copyOfRange(data, offsets[row], offsets[row + 1]);
        return type().getType() == ValueType.STRING ? new String(bytes, StandardCharsets.UTF_8) : bytes;
    }

    @Override
    public void appendTo(FieldVector vector, int index, int row) {
        if (isNull(row)) {
            setNull(vector, index);
        } else {
            ((BaseVariableWidthVector) vector).setSafe(index, data, offsets[row], offsets[row + 1] - offsets[row]);
        }
    }

    @Override
    public long bytes() {
        return data.length + offsets.length * 5L;
    }

    static final class Builder extends PackColumnBuilder {
        private byte[] data = new byte[1024];
        private int[] offsets = new int[65];

        Builder(FieldType type) {
            super(type);
        }

        @Override
        void addValue(int row, Object value) {
            byte[] bytes = value == null ? new byte[0]
                    : value instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) value;
            if (row + 1 == offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            int start = offsets[row];
            if (start + bytes.length > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, start + bytes.length));
            }
            System.arraycopy(bytes, 0, data, start, bytes.length);
            offsets[row + 1] = start + bytes.length;
        }

        @Override
        PackColumn build() {
            return new BytesPackColumn(type, Arrays.copyOf(data, offsets[rows]), Arrays.copyOf(offsets, rows + 1),
                    nulls());
        }
    }
}
