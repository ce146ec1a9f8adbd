package io.duetdb.learner.internal.stable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroVector;

import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Integers, dates (days), date-times and times (microseconds), and decimals of up to 18 digits (unscaled at
 * the column's scale) as longs.
 */
public final class LongPackColumn extends PackColumn {
    public static final int MAX_DECIMAL_DIGITS = 18;

    private final long[] values;

    LongPackColumn(FieldType type, long[] values, boolean[] nulls) {
        super(type, nulls);
        this.values = values;
        summarize();
    }

    static boolean holds(FieldType type) {
        return switch (type.getType()) {
            case INT64, DATE, DATETIME, TIMESTAMP, TIME -> true;
            case DECIMAL -> type.getPrecision() <= MAX_DECIMAL_DIGITS;
            default -> false;
        };
    }

    /** The long a value is held as: itself, or a decimal's unscaled value at the column's scale. */
    static long toLong(Object value, FieldType type) {
        if (type.getType() == ValueType.DECIMAL) {
            return ((BigDecimal) value).setScale(type.getScale(), RoundingMode.HALF_UP).unscaledValue()
                    .longValueExact();
        }
        return (Long) value;
    }

    public long longAt(int row) {
        return values[row];
    }

    @Override
    Object valueAt(int row) {
        return type().getType() == ValueType.DECIMAL ? BigDecimal.valueOf(values[row], type().getScale()) : values[row];
    }

    @Override
    public void appendTo(FieldVector vector, int index, int row) {
        if (isNull(row)) {
            setNull(vector, index);
            return;
        }
        long value = values[row];
        if (vector instanceof BigIntVector longs) {
            longs.setSafe(index, value);
        } else if (vector instanceof TimeStampMicroVector micros) {
            micros.setSafe(index, value);
        } else if (vector instanceof DateDayVector days) {
            days.setSafe(index, (int) value);
        } else if (vector instanceof DecimalVector decimals) {
            decimals.setSafe(index, value);
        } else if (vector instanceof TimeMicroVector times) {
            times.setSafe(index, value);
        } else {
            VectorValues.set(vector, index, valueAt(row));
        }
    }

    @Override
    public long bytes() {
        return values.length * 9L;
    }

    static final class Builder extends PackColumnBuilder {
        private long[] values = new long[64];

        Builder(FieldType type) {
            super(type);
        }

        @Override
        void addValue(int row, Object value) {
            if (row == values.length) {
                values = Arrays.copyOf(values, row * 2);
            }
            values[row] = value == null ? 0 : toLong(value, type);
        }

        @Override
        PackColumn build() {
            return new LongPackColumn(type, Arrays.copyOf(values, rows), nulls());
        }
    }
}
