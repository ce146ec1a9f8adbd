package io.duetdb.compute;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Single values in and out of the vectors {@link ValueTypes} describes, as Java objects: Long for the integral,
 * date and time types (days, microseconds), Float and Double, BigDecimal, String, byte[] and Boolean. The
 * vectorized kernels read the vectors directly; operators that hold rows (aggregation, TopN) use these.
 */
public final class VectorValues {
    private VectorValues() {
    }

    public static Object get(FieldVector vector, int index) {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof BigIntVector v) {
            return v.get(index);
        }
        if (vector instanceof DecimalVector v) {
            return v.getObject(index);
        }
        if (vector instanceof VarCharVector v) {
            return new String(v.get(index), StandardCharsets.UTF_8);
        }
        if (vector instanceof DateDayVector v) {
            return (long) v.get(index);
        }
        if (vector instanceof Float8Vector v) {
            return v.get(index);
        }
        if (vector instanceof Float4Vector v) {
            return v.get(index);
        }
        if (vector instanceof TimeStampMicroVector v) {
            return v.get(index);
        }
        if (vector instanceof UInt8Vector v) {
            return v.get(index);
        }
        if (vector instanceof Decimal256Vector v) {
            return v.getObject(index);
        }
        if (vector instanceof VarBinaryVector v) {
            return v.get(index);
        }
        if (vector instanceof TimeMicroVector v) {
            return v.get(index);
        }
        if (vector instanceof BitVector v) {
            return v.get(index) != 0;
        }
        throw new UnsupportedExpressionException("vector " + vector.getClass().getSimpleName() + " is not supported");
    }

    /** Writes a value of the vector's type (or null) at {@code index}, growing the vector as needed. */
    public static void set(FieldVector vector, int index, Object value) {
        if (value == null) {
            while (index >= vector.getValueCapacity()) {
                vector.reAlloc();
            }
            vector.setNull(index);
            return;
        }
        if (vector instanceof BigIntVector v) {
            v.setSafe(index, (Long) value);
        } else if (vector instanceof DecimalVector v) {
            v.setSafe(index, ((BigDecimal) value).setScale(v.getScale(), RoundingMode.HALF_UP));
        } else if (vector instanceof VarCharVector v) {
            v.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof DateDayVector v) {
            v.setSafe(index, Math.toIntExact((Long) value));
        } else if (vector instanceof Float8Vector v) {
            v.setSafe(index, ((Number) value).doubleValue());
        } else if (vector instanceof Float4Vector v) {
            v.setSafe(index, ((Number) value).floatValue());
        } else if (vector instanceof TimeStampMicroVector v) {
            v.setSafe(index, (Long) value);
        } else if (vector instanceof UInt8Vector v) {
            v.setSafe(index, (Long) value);
        } else if (vector instanceof Decimal256Vector v) {
            v.setSafe(index, ((BigDecimal) value).setScale(v.getScale(), RoundingMode.HALF_UP));
        } else if (vector instanceof VarBinaryVector v) {
            v.setSafe(index, (byte[]) value);
        } else if (vector instanceof TimeMicroVector v) {
            v.setSafe(index, (Long) value);
        } else if (vector instanceof BitVector v) {
            v.setSafe(index, ((Boolean) value) ? 1 : 0);
        } else {
            throw new UnsupportedExpressionException("vector " + vector.getClass().getSimpleName() + " is not supported");
        }
    }
}
