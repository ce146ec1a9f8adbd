package io.duetdb.compute.operator;

import java.util.BitSet;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.FieldType;

/** Copies chosen rows of one vector to the first positions of another, of the same type. */
final class Gather {
    private Gather() {
    }

    /**
     * A batch of {@code count} rows of a join's pairs: the first {@code leftWidth} columns from {@code leftRows} of
     * {@code leftBatch}, then, when the types go on, the others from {@code rightRows} of {@code rightBatch}. A row
     * number of -1, or a null batch, gives NULLs; only {@code columns} (all when null) are filled, the others NULL.
     */
    static VectorSchemaRoot pairs(List<FieldType> types, int leftWidth, VectorSchemaRoot leftBatch, int[] leftRows,
            VectorSchemaRoot rightBatch, int[] rightRows, int count, BitSet columns, BufferAllocator allocator) {
        VectorSchemaRoot gathered = Batches.empty(types, allocator);
        try {
            for (int column = 0; column < types.size(); column++) {
                boolean fromLeft = column < leftWidth;
                VectorSchemaRoot source = fromLeft ? leftBatch : rightBatch;
                FieldVector target = gathered.getVector(column);
                target.setInitialCapacity(count);
                target.allocateNew();
                if (columns != null && !columns.get(column)) {
                    // Validity bits of a new vector are clear: every value is NULL.
                    target.setValueCount(count);
                } else if (source == null) {
                    for (int row = 0; row < count; row++) {
                        target.setNull(row);
                    }
                    target.setValueCount(count);
                } else {
                    rows(source.getVector(fromLeft ? column : column - leftWidth), fromLeft ? leftRows : rightRows, count,
                            target);
                }
            }
            gathered.setRowCount(count);
            return gathered;
        } catch (RuntimeException e) {
            gathered.close();
            throw e;
        }
    }

    /**
     * Keeps the candidate pairs ({@code first[i]}, {@code second[i]}), gathered as {@code candidates}, for which the
     * condition is TRUE, moved to the front in order; answers how many are left.
     */
    static int passing(VectorExpression condition, VectorSchemaRoot candidates, int[] first, int[] second, int pairs,
            BufferAllocator allocator) {
        try (candidates; FieldVector result = condition.evaluate(candidates, allocator)) {
            BitVector truth = (BitVector) result;
            int kept = 0;
            for (int pair = 0; pair < pairs; pair++) {
                if (!truth.isNull(pair) && truth.get(pair) != 0) {
                    first[kept] = first[pair];
                    second[kept] = second[pair];
                    kept++;
                }
            }
            return kept;
        }
    }

    /**
     * Copies rows {@code rows[0..count)} of {@code from} to positions {@code 0..count)} of {@code to}, which must be
     * empty (freshly allocated or reset); a negative row number leaves its position NULL. Sets the value count.
     */
    static void rows(FieldVector from, int[] rows, int count, FieldVector to) {
        if (from instanceof BaseFixedWidthVector source && to instanceof BaseFixedWidthVector destination
                && !(from instanceof BitVector) && destination.getTypeWidth() == source.getTypeWidth()) {
            fixedWidth(source, rows, count, destination);
        } else if (from instanceof BaseVariableWidthVector source && to instanceof BaseVariableWidthVector destination
                && from.getClass() == to.getClass()) {
            variableWidth(source, rows, count, destination);
            return;
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

    /** Strings and bytes: the values' total length first, then one allocation and a copy per value. */
    private static void variableWidth(BaseVariableWidthVector source, int[] rows, int count,
            BaseVariableWidthVector destination) {
        long total = 0;
        for (int target = 0; target < count; target++) {
            int row = rows[target];
            if (row >= 0 && !source.isNull(row)) {
                total += source.getValueLength(row);
            }
        }
        destination.allocateNew(Math.max(1, total), Math.max(1, count));
        ArrowBuf data = source.getDataBuffer();
        ArrowBuf targetData = destination.getDataBuffer();
        ArrowBuf targetOffsets = destination.getOffsetBuffer();
        ArrowBuf targetValidity = destination.getValidityBuffer();
        int position = 0;
        targetOffsets.setInt(0, 0);
        for (int target = 0; target < count; target++) {
            int row = rows[target];
            if (row >= 0 && !source.isNull(row)) {
                int length = source.getValueLength(row);
                targetData.setBytes(position, data, source.getStartOffset(row), length);
                BitVectorHelper.setBit(targetValidity, target);
                position += length;
            }
            targetOffsets.setInt((long) (target + 1) * BaseVariableWidthVector.OFFSET_WIDTH, position);
        }
        destination.setLastSet(count - 1);
        destination.setValueCount(count);
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
