package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

import io.duetdb.proto.coprocessor.FieldType;

/** Collects one column's values for a pack, row by row. */
abstract class PackColumnBuilder {
    final FieldType type;
    int rows;
    private boolean[] nulls = new boolean[64];

    PackColumnBuilder(FieldType type) {
        this.type = requireNonNull(type, "type is null");
    }

    static PackColumnBuilder of(FieldType type) {
        if (LongPackColumn.holds(type)) {
            return new LongPackColumn.Builder(type);
        }
        return switch (type.getType()) {
            case FLOAT32, FLOAT64 -> new DoublePackColumn.Builder(type);
            case STRING, BYTES -> new BytesPackColumn.Builder(type);
            default -> new ObjectPackColumn.Builder(type);
        };
    }

    /** Adds a value in the column's coprocessor form, or null. */
    final void add(Object value) {
        if (rows == nulls.length) {
            nulls = Arrays.copyOf(nulls, rows * 2);
        }
        if (value == null) {
            nulls[rows] = true;
            addNull(rows);
        } else {
            addValue(rows, value);
        }
        rows++;
    }

    void addNull(int row) {
        addValue(row, null);
    }

    final boolean[] nulls() {
        return Arrays.copyOf(nulls, rows);
    }

    abstract void addValue(int row, Object value);

    abstract PackColumn build();
}
