package io.duetdb.compute.expression;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
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

import io.duetdb.compute.UnsupportedExpressionException;

/**
 * The input of a kernel, read row by row in the representation the kernel computes in: a vector of one Arrow
 * class, or a constant. One subclass per vector class keeps each kernel's loop free of type tests.
 */
public abstract class Operand implements AutoCloseable {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /** What {@link #unscaled} answers for a value without an exact long form at {@link #scale()}. */
    public static final long NOT_A_LONG = Long.MIN_VALUE;
    /** What {@link #scale()} answers for an operand read only through {@link #getDecimal} for exact arithmetic. */
    public static final int NO_SCALE = -1;
    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

    public abstract boolean isNull(int row);

    /** The scale of {@link #unscaled} values: 0 for integers, a decimal's scale, or {@link #NO_SCALE}. */
    public int scale() {
        return NO_SCALE;
    }

    /**
     * The exact value as an unscaled long at {@link #scale()}, or {@link #NOT_A_LONG} when it has no such form:
     * the caller then falls back to {@link #getDecimal}. Lets decimal kernels run without an object per value.
     */
    public long unscaled(int row) {
        return NOT_A_LONG;
    }

    public long getLong(int row) {
        throw new UnsupportedExpressionException(getClass().getSimpleName() + " has no integer form");
    }

    public double getDouble(int row) {
        return getLong(row);
    }

    public BigDecimal getDecimal(int row) {
        return BigDecimal.valueOf(getLong(row));
    }

    public byte[] getBytes(int row) {
        throw new UnsupportedExpressionException(getClass().getSimpleName() + " has no byte form");
    }

    @Override
    public void close() {
    }

    /** Reads {@code vector} and closes it with the operand. */
    public static Operand owning(FieldVector vector) {
        Operand reader = of(vector);
        return new Operand() {
            @Override
            public boolean isNull(int row) {
                return reader.isNull(row);
            }

            @Override
            public long getLong(int row) {
                return reader.getLong(row);
            }

            @Override
            public double getDouble(int row) {
                return reader.getDouble(row);
            }

            @Override
            public BigDecimal getDecimal(int row) {
                return reader.getDecimal(row);
            }

            @Override
            public byte[] getBytes(int row) {
                return reader.getBytes(row);
            }

            @Override
            public int scale() {
                return reader.scale();
            }

            @Override
            public long unscaled(int row) {
                return reader.unscaled(row);
            }

            @Override
            public void close() {
                vector.close();
            }
        };
    }

    /** Reads {@code vector} in place; the vector stays the caller's. */
    public static Operand of(FieldVector vector) {
        if (vector instanceof BigIntVector || vector instanceof TimeStampMicroVector || vector instanceof TimeMicroVector) {
            // Eight-byte values in one buffer: read them there, whatever the vector's logical type.
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return vector.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return vector.getDataBuffer().getLong((long) row * Long.BYTES);
                }

                @Override
                public int scale() {
                    return vector instanceof BigIntVector ? 0 : NO_SCALE;
                }

                @Override
                public long unscaled(int row) {
                    return vector instanceof BigIntVector ? getLong(row) : NOT_A_LONG;
                }
            };
        }
        if (vector instanceof DateDayVector days) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return days.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    // Read in place: callers test isNull first, so DateDayVector.get's own null test is redundant.
                    return days.getDataBuffer().getInt((long) row * DateDayVector.TYPE_WIDTH);
                }
            };
        }
        if (vector instanceof BitVector bits) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return bits.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return bits.get(row);
                }

                @Override
                public int scale() {
                    return 0;
                }

                @Override
                public long unscaled(int row) {
                    return bits.get(row);
                }
            };
        }
        if (vector instanceof UInt8Vector unsigned) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return unsigned.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return unsigned.get(row);
                }

                @Override
                public double getDouble(int row) {
                    return getDecimal(row).doubleValue();
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    long bits = unsigned.get(row);
                    return bits >= 0 ? BigDecimal.valueOf(bits)
                            : new BigDecimal(new BigInteger(Long.toUnsignedString(bits)));
                }
            };
        }
        if (vector instanceof Float8Vector || vector instanceof Float4Vector) {
            boolean single = vector instanceof Float4Vector;
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return vector.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return single ? vector.getDataBuffer().getFloat((long) row * Float4Vector.TYPE_WIDTH)
                            : vector.getDataBuffer().getDouble((long) row * Float8Vector.TYPE_WIDTH);
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return single ? new BigDecimal(Float.toString(((Float4Vector) vector).get(row)))
                            : BigDecimal.valueOf(getDouble(row));
                }
            };
        }
        if (vector instanceof DecimalVector decimals && LITTLE_ENDIAN) {
            return exactDecimal(decimals, decimals.getScale());
        }
        if (vector instanceof Decimal256Vector decimals && LITTLE_ENDIAN) {
            return exactDecimal(decimals, decimals.getScale());
        }
        if (vector instanceof DecimalVector || vector instanceof Decimal256Vector) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return vector.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return getDecimal(row).doubleValue();
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return (BigDecimal) vector.getObject(row);
                }
            };
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return variable.isNull(row);
                }

                @Override
                public byte[] getBytes(int row) {
                    int start = variable.getStartOffset(row);
                    byte[] bytes = new byte[variable.getValueLength(row)];
                    variable.getDataBuffer().getBytes(start, bytes);
                    return bytes;
                }
            };
        }
        throw new UnsupportedExpressionException("vector " + vector.getClass().getSimpleName() + " is not supported");
    }

    /** A Decimal128 or Decimal256 vector, read as unscaled longs where the value fits one. */
    private static Operand exactDecimal(BaseFixedWidthVector vector, int scale) {
        int width = vector.getTypeWidth();
        return new Operand() {
            @Override
            public boolean isNull(int row) {
                return vector.isNull(row);
            }

            @Override
            public double getDouble(int row) {
                return getDecimal(row).doubleValue();
            }

            @Override
            public BigDecimal getDecimal(int row) {
                return (BigDecimal) vector.getObject(row);
            }

            @Override
            public int scale() {
                return scale;
            }

            @Override
            public long unscaled(int row) {
                // Little-endian two's complement: the value fits a long when every higher word only extends its sign.
                long offset = (long) row * width;
                long low = vector.getDataBuffer().getLong(offset);
                long sign = low >> 63;
                for (int word = Long.BYTES; word < width; word += Long.BYTES) {
                    if (vector.getDataBuffer().getLong(offset + word) != sign) {
                        return NOT_A_LONG;
                    }
                }
                return low;
            }
        };
    }

    /** A DATE operand read as microseconds, to compare with DATETIME values. */
    static Operand daysAsMicros(Operand days) {
        return new Operand() {
            @Override
            public boolean isNull(int row) {
                return days.isNull(row);
            }

            @Override
            public long getLong(int row) {
                return days.getLong(row) * MICROS_PER_DAY;
            }

            @Override
            public void close() {
                days.close();
            }
        };
    }
}
