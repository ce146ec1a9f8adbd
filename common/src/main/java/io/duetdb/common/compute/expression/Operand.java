package io.duetdb.common.compute.expression;

import java.math.BigDecimal;
import java.math.BigInteger;

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
        if (vector instanceof BigIntVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof DateDayVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof TimeStampMicroVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof TimeMicroVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof BitVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof UInt8Vector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public long getLong(int row) {
                    return v.get(row);
                }

                @Override
                public double getDouble(int row) {
                    return getDecimal(row).doubleValue();
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    long bits = v.get(row);
                    return bits >= 0 ? BigDecimal.valueOf(bits)
                            : new BigDecimal(new BigInteger(Long.toUnsignedString(bits)));
                }
            };
        }
        if (vector instanceof Float8Vector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return v.get(row);
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return BigDecimal.valueOf(v.get(row));
                }
            };
        }
        if (vector instanceof Float4Vector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return v.get(row);
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return new BigDecimal(Float.toString(v.get(row)));
                }
            };
        }
        if (vector instanceof DecimalVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return v.getObject(row).doubleValue();
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return v.getObject(row);
                }
            };
        }
        if (vector instanceof Decimal256Vector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public double getDouble(int row) {
                    return v.getObject(row).doubleValue();
                }

                @Override
                public BigDecimal getDecimal(int row) {
                    return v.getObject(row);
                }
            };
        }
        if (vector instanceof VarCharVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public byte[] getBytes(int row) {
                    return v.get(row);
                }
            };
        }
        if (vector instanceof VarBinaryVector v) {
            return new Operand() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public byte[] getBytes(int row) {
                    return v.get(row);
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
