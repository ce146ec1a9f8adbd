package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.FieldVector;

import io.duetdb.compute.ValueOrdering;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * One column of a {@link ColumnPack}: its values in arrays of the column's coprocessor form, with the pack's
 * min, max and null count for skipping packs a filter cannot match. Immutable.
 */
public abstract sealed class PackColumn permits LongPackColumn, DoublePackColumn, BytesPackColumn, ObjectPackColumn {
    private final FieldType type;
    private final boolean[] nulls;
    private int nullCount;
    private Object min;
    private Object max;

    PackColumn(FieldType type, boolean[] nulls) {
        this.type = requireNonNull(type, "type is null");
        this.nulls = requireNonNull(nulls, "nulls is null");
    }

    /** Computes the null count, min and max; each subclass calls it last in its constructor. */
    final void summarize() {
        int count = 0;
        Object low = null;
        Object high = null;
        for (int i = 0; i < nulls.length; i++) {
            if (nulls[i]) {
                count++;
                continue;
            }
            Object value = valueAt(i);
            if (low == null || ValueOrdering.compare(value, low, type.getType()) < 0) {
                low = value;
            }
            if (high == null || ValueOrdering.compare(value, high, type.getType()) > 0) {
                high = value;
            }
        }
        this.nullCount = count;
        this.min = low;
        this.max = high;
    }

    public FieldType type() {
        return type;
    }

    public int nullCount() {
        return nullCount;
    }

    /** The smallest non-null value (coprocessor form), or null when every value is null. */
    public Object min() {
        return min;
    }

    public Object max() {
        return max;
    }

    public int rows() {
        return nulls.length;
    }

    public boolean isNull(int row) {
        return nulls[row];
    }

    /** The value of a row in the coprocessor's form, or null. */
    public Object value(int row) {
        return nulls[row] ? null : valueAt(row);
    }

    /** Appends a row's value to a vector of this column's type at {@code index}. */
    public abstract void appendTo(FieldVector vector, int index, int row);

    /** Approximate bytes of the column's arrays. */
    public abstract long bytes();

    abstract Object valueAt(int row);

    static void setNull(FieldVector vector, int index) {
        while (index >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        vector.setNull(index);
    }
}
