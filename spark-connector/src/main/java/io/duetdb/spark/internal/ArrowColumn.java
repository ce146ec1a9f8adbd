package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column over one of the coprocessor's Arrow vectors, read in place: integers of every width from the
 * 64-bit vector the coprocessor sends, DATE as days, DATETIME, TIMESTAMP and TIME as microseconds, strings as views
 * of the vector's buffer, decimals from their unscaled value. Valid until the batch it belongs to is replaced.
 */
final class ArrowColumn extends ColumnVector {
    private static final int DECIMAL128_BYTES = 16;
    private static final int MAX_LONG_DIGITS = 18;

    private final FieldVector vector;
    private final ArrowBuf data;
    private final int width;

    ArrowColumn(DataType type, FieldVector vector) {
        super(requireNonNull(type, "type is null"));
        this.vector = requireNonNull(vector, "vector is null");
        this.data = vector instanceof BitVector ? null : vector.getDataBuffer();
        this.width = vector instanceof BaseFixedWidthVector fixed && !(vector instanceof BitVector) ? fixed.getTypeWidth() : 0;
    }

    @Override
    public void close() {
        // The batch's vectors belong to the reader, which frees them when it loads the next batch or closes.
    }

    @Override
    public boolean hasNull() {
        return vector.getNullCount() > 0;
    }

    @Override
    public int numNulls() {
        return vector.getNullCount();
    }

    @Override
    public boolean isNullAt(int rowId) {
        return vector.isNull(rowId);
    }

    @Override
    public boolean getBoolean(int rowId) {
        return vector instanceof BitVector bits ? bits.get(rowId) == 1 : getLong(rowId) != 0;
    }

    @Override
    public byte getByte(int rowId) {
        return (byte) getLong(rowId);
    }

    @Override
    public short getShort(int rowId) {
        return (short) getLong(rowId);
    }

    @Override
    public int getInt(int rowId) {
        return width == Integer.BYTES ? data.getInt((long) rowId * Integer.BYTES) : (int) getLong(rowId);
    }

    @Override
    public long getLong(int rowId) {
        if (width == Integer.BYTES) {
            return data.getInt((long) rowId * Integer.BYTES);
        }
        return data.getLong((long) rowId * Long.BYTES);
    }

    @Override
    public float getFloat(int rowId) {
        return vector instanceof Float4Vector ? data.getFloat((long) rowId * Float.BYTES) : (float) getDouble(rowId);
    }

    @Override
    public double getDouble(int rowId) {
        return vector instanceof Float8Vector ? data.getDouble((long) rowId * Double.BYTES)
                : data.getFloat((long) rowId * Float.BYTES);
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        if (vector.isNull(rowId)) {
            return null;
        }
        if (vector instanceof UInt8Vector) {
            long unsigned = data.getLong((long) rowId * Long.BYTES);
            return unsigned >= 0 ? Decimal.createUnsafe(unsigned, precision, scale)
                    : Decimal.apply(new BigDecimal(new BigInteger(Long.toUnsignedString(unsigned))), precision, scale);
        }
        if (vector instanceof DecimalVector) {
            long offset = (long) rowId * DECIMAL128_BYTES;
            long low = data.getLong(offset);
            long high = data.getLong(offset + Long.BYTES);
            if (precision <= MAX_LONG_DIGITS && high == (low >> 63)) {
                return Decimal.createUnsafe(low, precision, scale);
            }
        }
        BigDecimal value = vector instanceof DecimalVector decimals ? decimals.getObject(rowId)
                : ((Decimal256Vector) vector).getObject(rowId);
        return Decimal.apply(value.setScale(scale), precision, scale);
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        if (vector.isNull(rowId)) {
            return null;
        }
        if (vector instanceof VarCharVector strings) {
            long start = strings.getStartOffset(rowId);
            int length = strings.getEndOffset(rowId) - (int) start;
            return UTF8String.fromAddress(null, strings.getDataBuffer().memoryAddress() + start, length);
        }
        if (vector instanceof DecimalVector decimals) {
            return UTF8String.fromString(decimals.getObject(rowId).toPlainString());
        }
        if (vector instanceof Decimal256Vector decimals) {
            return UTF8String.fromString(decimals.getObject(rowId).toPlainString());
        }
        return UTF8String.fromString(String.valueOf(vector.getObject(rowId)));
    }

    @Override
    public byte[] getBinary(int rowId) {
        if (vector.isNull(rowId)) {
            return null;
        }
        if (vector instanceof VarBinaryVector binary) {
            return binary.get(rowId);
        }
        return ((BaseVariableWidthVector) vector).get(rowId);
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw new UnsupportedOperationException("DuetDB columns hold no arrays");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw new UnsupportedOperationException("DuetDB columns hold no maps");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw new UnsupportedOperationException("DuetDB columns hold no structs");
    }
}
