package io.duetdb.learner.internal.stable;

import java.util.Arrays;

import org.apache.arrow.vector.FieldVector;

import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/** Values without an array form of their own (decimals beyond 18 digits), as objects. */
public final class ObjectPackColumn extends PackColumn {
    private final Object[] values;

    ObjectPackColumn(FieldType type, Object[] values, boolean[] nulls) {
        super(type, nulls);
        this.values = values;
        summarize();
    }

    @Override
    Object valueAt(int row) {
        return values[row];
    }

    @Override
    public void appendTo(FieldVector vector, int index, int row) {
        VectorValues.set(vector, index, values[row]);
    }

    @Override
    public long bytes() {
        return values.length * 48L;
    }

    static final class Builder extends PackColumnBuilder {
        private Object[] values = new Object[64];

        Builder(FieldType type) {
            super(type);
        }

        @Override
        void addValue(int row, Object value) {
            if (row == values.length) {
                values = Arrays.copyOf(values, row * 2);
            }
            values[row] = value;
        }

        @Override
        PackColumn build() {
            return new ObjectPackColumn(type, Arrays.copyOf(values, rows), nulls());
        }
    }
}
