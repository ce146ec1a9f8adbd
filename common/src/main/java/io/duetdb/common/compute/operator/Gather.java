package io.duetdb.common.compute.operator;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/** Copies chosen rows of one vector to the first positions of another, of the same type. */
final class Gather {
    private Gather() {
    }

    /**
     * Copies rows {@code rows[0..count)} of {@code from} to positions {@code 0..count)} of {@code to}, which must be
     * empty (freshly allocated or reset); a negative row number leaves its position NULL. Sets the value count.
     */
    static void rows(FieldVector from, int[] rows, int count, FieldVector to) {
        if (from instanceof BaseFixedWidthVector source && to instanceof BaseFixedWidthVector destination
                && !(from instanceof BitVector) && destination.getTypeWidth() == source.getTypeWidth()) {
            fixedWidth(source, rows, count, destination);
        } else {
            for (int target = 0; target < count; target++) {
                int row = rows[target];
                if (row >= 0) {
                    to.copyFromSafe(row, target, from);
                } else {
                    while (target >= to.getValueCapacity()) {
                        to.reAlloc();
                    }
                    to.setNull(target);
                }
            }
        }
        to.setValueCount(count);
    }

    private static void fixedWidth(BaseFixedWidthVector source, int[] rows, int count, BaseFixedWidthVector destination) {
        while (destination.getValueCapacity() < count) {
            destination.reAlloc();
        }
        int width = source.getTypeWidth();
        ArrowBuf values = source.getDataBuffer();
        ArrowBuf targetValues = destination.getDataBuffer();
        ArrowBuf targetValidity = destination.getValidityBuffer();
        for (int target = 0; target < count; target++) {
            int row = rows[target];
            if (row < 0 || source.isNull(row)) {
                // An empty vector's validity bits are clear: the position stays NULL.
                continue;
            }
            BitVectorHelper.setBit(targetValidity, target);
            long sourceOffset = (long) row * width;
            long targetOffset = (long) target * width;
            if (width == Long.BYTES) {
                targetValues.setLong(targetOffset, values.getLong(sourceOffset));
            } else if (width == Integer.BYTES) {
                targetValues.setInt(targetOffset, values.getInt(sourceOffset));
            } else {
                targetValues.setBytes(targetOffset, values, sourceOffset, width);
            }
        }
    }
}
