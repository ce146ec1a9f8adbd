package io.duetdb.common.compute.expression;

import java.math.BigDecimal;
import java.math.BigInteger;

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

import io.duetdb.common.compute.UnsupportedExpressionException;

/**
 * The input of a kernel, read row by row in the representation the kernel computes in: a vector of one Arrow
 * class, or a constant. One subclass per vector class keeps each kernel's loop free of type tests.
 */
public abstract class Operand implements AutoCloseable {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    public abstract boolean isNull(int row);

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
                    return days.get(row);
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
                    return single ? ((Float4Vector) vector).get(row) : ((Float8Vector) vector).get(row);
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return single ? new BigDecimal(Float.toString(((Float4Vector) vector).get(row)))
                            : BigDecimal.valueOf(getDouble(row));
                }
            };
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
