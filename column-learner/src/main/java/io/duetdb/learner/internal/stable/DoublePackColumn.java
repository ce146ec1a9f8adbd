package io.duetdb.learner.internal.stable;

import java.util.Arrays;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;

import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** FLOAT and DOUBLE values as doubles (a FLOAT widens exactly and narrows back to itself). */
public final class DoublePackColumn extends PackColumn {
    private final double[] values;

    DoublePackColumn(FieldType type, double[] values, boolean[] nulls) {
        super(type, nulls);
        this.values = values;
        summarize();
    }

    @Override
    Object valueAt(int row) {
        return type().getType() == ValueType.FLOAT32 ? (Object) (float) values[row] : (Object) values[row];
    }

    @Override
    public void appendTo(FieldVector vector, int index, int row) {
        if (isNull(row)) {
            setNull(vector, index);
        } else if (vector instanceof Float8Vector doubles) {
            doubles.setSafe(index, values[row]);
        } else {
            ((Float4Vector) vector).setSafe(index, (float) values[row]);
        }
    }

    @Override
    public long bytes() {
        return values.length * 9L;
    }

    static final class Builder extends PackColumnBuilder {
        private double[] values = new double[64];

        Builder(FieldType type) {
            super(type);
        }

        @Override
        void addValue(int row, Object value) {
            if (row == values.length) {
                values = Arrays.copyOf(values, row * 2);
            }
            values[row] = value == null ? 0 : ((Number) value).doubleValue();
        }

        @Override
        PackColumn build() {
            return new DoublePackColumn(type, Arrays.copyOf(values, rows), nulls());
        }
    }
}
