package io.duetdb.common.row;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;

import io.duetdb.common.codec.CodecException;
import io.duetdb.common.codec.PackedTime;
import io.duetdb.common.types.ColumnType;

/**
 * The row value format: compact, null-aware, and keyed by column id so that adding or dropping a column
 * never rewrites rows (a reader fills a column the row lacks with the column's default and skips ids it
 * does not know).
 * <pre>
 *   byte       format: 0x80 | version (version 1)
 *   byte       flags: bit 0 = wide (column ids as u32 and offsets as u32, else u8 and u16)
 *   varint     n, the number of non-null columns
 *   varint     m, the number of null columns
 *   n ids      ascending, then m ids ascending (little-endian)
 *   n offsets  end offset of each non-null value within the data (little-endian)
 *   data       the non-null values, each in the shortest form its type allows
 * </pre>
 * Integers take 1, 2, 4 or 8 bytes; dates and times their packed form as an unsigned integer; decimals a
 * zigzag varint scale followed by the two's complement unscaled value; strings their UTF-8 bytes.
 */
public final class RowCodec {
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public static final int VERSION = 1;
    static final int FORMAT_BYTE = 0x80 | VERSION;
    static final int WIDE_FLAG = 1;

    private RowCodec() {
    }

    /** Encodes the given columns; null values are recorded as nulls (distinct from absent columns). */
    public static byte[] encode(List<RowColumn> columns, List<?> values) {
        if (columns.size() != values.size()) {
            throw new IllegalArgumentException(columns.size() + " columns for " + values.size() + " values");
        }
        int count = columns.size();
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(columns.get(a).id(), columns.get(b).id()));
        int[] notNullIds = new int[count];
        int[] nullIds = new int[count];
        byte[][] encoded = new byte[count][];
        int notNullCount = 0;
        int nullCount = 0;
        int dataLength = 0;
        int maxId = 0;
        int previousId = 0;
        for (Integer index : order) {
            RowColumn column = columns.get(index);
            if (column.id() == previousId) {
                throw new IllegalArgumentException("column id " + column.id() + " appears twice");
            }
            previousId = column.id();
            maxId = Math.max(maxId, column.id());
            Object value = column.type().check(values.get(index));
            if (value == null) {
                nullIds[nullCount++] = column.id();
            } else {
                byte[] bytes = encodeValue(column.type(), value);
                encoded[notNullCount] = bytes;
                notNullIds[notNullCount++] = column.id();
                dataLength += bytes.length;
            }
        }
        boolean wide = maxId > 0xFF || dataLength > 0xFFFF;
        int idWidth = wide ? 4 : 1;
        int offsetWidth = wide ? 4 : 2;
        ByteArrayOutputStream out = new ByteArrayOutputStream(
                12 + (notNullCount + nullCount) * idWidth + notNullCount * offsetWidth + dataLength);
        out.write(FORMAT_BYTE);
        out.write(wide ? WIDE_FLAG : 0);
        writeVarint(out, notNullCount);
        writeVarint(out, nullCount);
        for (int i = 0; i < notNullCount; i++) {
            writeLittleEndian(out, notNullIds[i], idWidth);
        }
        for (int i = 0; i < nullCount; i++) {
            writeLittleEndian(out, nullIds[i], idWidth);
        }
        int end = 0;
        for (int i = 0; i < notNullCount; i++) {
            end += encoded[i].length;
            writeLittleEndian(out, end, offsetWidth);
        }
        for (int i = 0; i < notNullCount; i++) {
            out.writeBytes(encoded[i]);
        }
        return out.toByteArray();
    }

    /** Decodes the schema's columns in schema order; see {@link RowView} for reading a few columns. */
    public static Object[] decode(byte[] row, List<RowColumn> schema) {
        RowView view = new RowView(row);
        Object[] result = new Object[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            result[i] = view.get(schema.get(i));
        }
        return result;
    }

    static byte[] encodeValue(ColumnType type, Object value) {
        return switch (type) {
            case INT64 -> signed((Long) value);
            case UINT64 -> unsigned((Long) value);
            case FLOAT32 -> littleEndian(Float.floatToIntBits((Float) value) & 0xFFFFFFFFL, 4);
            case FLOAT64 -> littleEndian(Double.doubleToLongBits((Double) value), 8);
            case DECIMAL -> decimal((BigDecimal) value);
            case STRING -> ((String) value).getBytes(StandardCharsets.UTF_8);
            case BYTES -> ((byte[]) value).clone();
            case DATE -> unsigned(PackedTime.pack((LocalDate) value));
            case DATETIME, TIMESTAMP -> unsigned(PackedTime.pack((LocalDateTime) value));
            case TIME -> signed(toMicros((Duration) value));
        };
    }

    static Object decodeValue(ColumnType type, byte[] row, int offset, int length) {
        return switch (type) {
            case INT64 -> readSigned(row, offset, length);
            case UINT64 -> readUnsigned(row, offset, length);
            case FLOAT32 -> Float.intBitsToFloat((int) readFixed(row, offset, length, 4));
            case FLOAT64 -> Double.longBitsToDouble(readFixed(row, offset, length, 8));
            case DECIMAL -> readDecimal(row, offset, length);
            case STRING -> new String(row, offset, length, StandardCharsets.UTF_8);
            case BYTES -> Arrays.copyOfRange(row, offset, offset + length);
            case DATE -> PackedTime.unpackDate(readUnsigned(row, offset, length));
            case DATETIME, TIMESTAMP -> PackedTime.unpackDateTime(readUnsigned(row, offset, length));
            case TIME -> {
                long micros = readSigned(row, offset, length);
                yield Duration.ofSeconds(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
            }
        };
    }

    private static long toMicros(Duration value) {
        return Math.addExact(Math.multiplyExact(value.getSeconds(), 1_000_000L), value.getNano() / 1000);
    }

    private static byte[] signed(long value) {
        if (value == (byte) value) {
            return littleEndian(value, 1);
        } else if (value == (short) value) {
            return littleEndian(value, 2);
        } else if (value == (int) value) {
            return littleEndian(value, 4);
        }
        return littleEndian(value, 8);
    }

    private static byte[] unsigned(long value) {
        if ((value & ~0xFFL) == 0) {
            return littleEndian(value, 1);
        } else if ((value & ~0xFFFFL) == 0) {
            return littleEndian(value, 2);
        } else if ((value & ~0xFFFFFFFFL) == 0) {
            return littleEndian(value, 4);
        }
        return littleEndian(value, 8);
    }

    private static byte[] decimal(BigDecimal value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(12);
        int scale = value.scale();
        writeVarint(out, (scale << 1) ^ (scale >> 31));
        out.writeBytes(value.unscaledValue().toByteArray());
        return out.toByteArray();
    }

    private static BigDecimal readDecimal(byte[] row, int offset, int length) {
        int end = offset + length;
        long zigzag = 0;
        int shift = 0;
        int position = offset;
        while (true) {
            if (position >= end || shift > 28) {
                throw new CodecException("corrupt decimal scale in row value");
            }
            int b = row[position++] & 0xFF;
            zigzag |= (long) (b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                break;
            }
        }
        int scale = (int) (zigzag >>> 1) ^ -(int) (zigzag & 1);
        if (position >= end) {
            throw new CodecException("decimal without digits in row value");
        }
        return new BigDecimal(new BigInteger(row, position, end - position), scale);
    }

    static long readUnsignedValue(byte[] row, int offset, int length) {
        return readUnsigned(row, offset, length);
    }

    static long readSignedValue(byte[] row, int offset, int length) {
        return readSigned(row, offset, length);
    }

    private static long readSigned(byte[] row, int offset, int length) {
        return switch (length) {
            case 1 -> row[offset];
            case 2 -> (short) readLittleEndian(row, offset, 2);
            case 4 -> (int) readLittleEndian(row, offset, 4);
            case 8 -> readLittleEndian(row, offset, 8);
            default -> throw new CodecException("invalid integer length " + length + " in row value");
        };
    }

    private static long readUnsigned(byte[] row, int offset, int length) {
        if (length != 1 && length != 2 && length != 4 && length != 8) {
            throw new CodecException("invalid integer length " + length + " in row value");
        }
        return readLittleEndian(row, offset, length);
    }

    private static long readFixed(byte[] row, int offset, int length, int expected) {
        if (length != expected) {
            throw new CodecException("expected " + expected + " bytes for a float, found " + length);
        }
        return readLittleEndian(row, offset, length);
    }

    static long readLittleEndian(byte[] bytes, int offset, int width) {
        switch (width) {
            case 2 -> {
                return (short) SHORTS.get(bytes, offset) & 0xFFFFL;
            }
            case 4 -> {
                return (int) INTS.get(bytes, offset) & 0xFFFF_FFFFL;
            }
            case 8 -> {
                return (long) LONGS.get(bytes, offset);
            }
            default -> {
                // Other widths are read byte by byte below.
            }
        }
        long value = 0;
        for (int i = width - 1; i >= 0; i--) {
            value = value << 8 | (bytes[offset + i] & 0xFF);
        }
        return value;
    }

    private static byte[] littleEndian(long value, int width) {
        byte[] bytes = new byte[width];
        for (int i = 0; i < width; i++) {
            bytes[i] = (byte) (value >>> (8 * i));
        }
        return bytes;
    }

    private static void writeLittleEndian(ByteArrayOutputStream out, long value, int width) {
        for (int i = 0; i < width; i++) {
            out.write((int) (value >>> (8 * i)));
        }
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
        int remaining = value;
        while ((remaining & ~0x7F) != 0) {
            out.write((remaining & 0x7F) | 0x80);
            remaining >>>= 7;
        }
        out.write(remaining);
    }
}
