package io.duetdb.common.row;

import io.duetdb.common.codec.CodecException;

/**
 * Reads single columns out of an encoded row without decoding the others: the header is parsed once and
 * each lookup is a binary search over the row's column ids.
 */
public final class RowView {
    private final byte[] row;
    private final boolean wide;
    private final int notNullCount;
    private final int nullCount;
    private final int idsStart;
    private final int offsetsStart;
    private final int dataStart;

    public RowView(byte[] row) {
        this.row = row;
        if (row.length < 4) {
            throw new CodecException("row value too short: " + row.length + " bytes");
        }
        int format = row[0] & 0xFF;
        if ((format & 0x80) == 0 || (format & 0x7F) > RowCodec.VERSION) {
            throw new CodecException("unknown row format byte 0x" + Integer.toHexString(format)
                    + " (this build reads versions up to " + RowCodec.VERSION + ")");
        }
        wide = (row[1] & RowCodec.WIDE_FLAG) != 0;
        int[] position = {2};
        notNullCount = readVarint(position);
        nullCount = readVarint(position);
        idsStart = position[0];
        int idWidth = wide ? 4 : 1;
        offsetsStart = idsStart + (notNullCount + nullCount) * idWidth;
        dataStart = offsetsStart + notNullCount * (wide ? 4 : 2);
        if (dataStart > row.length || dataStart < 0) {
            throw new CodecException("row value header overruns its " + row.length + " bytes");
        }
        if (notNullCount > 0 && dataStart + endOffset(notNullCount - 1) != row.length) {
            throw new CodecException("row value length does not match its offsets");
        }
    }

    /** The column's value, null if the row stores NULL, or the column's default if the row lacks it. */
    public Object get(RowColumn column) {
        int index = search(0, notNullCount, column.id());
        if (index >= 0) {
            int start = index == 0 ? 0 : endOffset(index - 1);
            int end = endOffset(index);
            return RowCodec.decodeValue(column.type(), row, dataStart + start, end - start);
        }
        if (search(notNullCount, notNullCount + nullCount, column.id()) >= 0) {
            return null;
        }
        return column.defaultValue();
    }

    /** {@link #span} of a column the row does not store. */
    public static final long ABSENT = -1;
    /** {@link #span} of a column the row stores as NULL. */
    public static final long NULL = -2;

    /**
     * Where a column's value lies in {@link #bytes()}: its offset in the high 32 bits and its length in the low
     * ones, or {@link #ABSENT} or {@link #NULL}. Lets a reader copy or decode a value without an object per value.
     */
    public long span(int columnId) {
        int index = search(0, notNullCount, columnId);
        if (index >= 0) {
            int start = index == 0 ? 0 : endOffset(index - 1);
            int end = endOffset(index);
            return ((long) (dataStart + start) << 32) | (end - start);
        }
        return search(notNullCount, notNullCount + nullCount, columnId) >= 0 ? NULL : ABSENT;
    }

    /** The encoded row. */
    public byte[] bytes() {
        return row;
    }

    /** A signed integer value at a {@link #span}. */
    public long signedAt(long span) {
        return RowCodec.readSignedValue(row, (int) (span >>> 32), (int) span);
    }

    /** An unsigned integer (or packed date and time) value at a {@link #span}. */
    public long unsignedAt(long span) {
        return RowCodec.readUnsignedValue(row, (int) (span >>> 32), (int) span);
    }

    /** What {@link #unscaledAt} answers when the value has another scale or does not fit a long. */
    public static final long NOT_A_LONG = Long.MIN_VALUE;

    /**
     * The unscaled value of a DECIMAL at a {@link #span} when its scale is {@code scale} and it fits a long (as
     * the decimals of most columns do), else {@link #NOT_A_LONG}: a reader then decodes it in full.
     */
    public long unscaledAt(long span, int scale) {
        int position = (int) (span >>> 32);
        int end = position + (int) span;
        int first = row[position] & 0xFF;
        if ((first & 0x80) != 0 || position + 1 >= end) {
            // A scale above 63 takes two varint bytes: never ours.
            return NOT_A_LONG;
        }
        int stored = (first >>> 1) ^ -(first & 1);
        int length = end - position - 1;
        if (stored != scale || length > 8) {
            return NOT_A_LONG;
        }
        long value = row[position + 1];
        for (int i = position + 2; i < end; i++) {
            value = (value << 8) | (row[i] & 0xFF);
        }
        return value;
    }

    /** Whether the row stores this column (as a value or as NULL). */
    public boolean contains(int columnId) {
        return search(0, notNullCount, columnId) >= 0
                || search(notNullCount, notNullCount + nullCount, columnId) >= 0;
    }

    public int columnCount() {
        return notNullCount + nullCount;
    }

    private int search(int from, int to, int id) {
        int low = from;
        int high = to - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int candidate = idAt(middle);
            if (candidate < id) {
                low = middle + 1;
            } else if (candidate > id) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -1;
    }

    private int idAt(int index) {
        return wide ? (int) RowCodec.readLittleEndian(row, idsStart + index * 4, 4) : row[idsStart + index] & 0xFF;
    }

    private int endOffset(int index) {
        return wide
                ? (int) RowCodec.readLittleEndian(row, offsetsStart + index * 4, 4)
                : (int) RowCodec.readLittleEndian(row, offsetsStart + index * 2, 2);
    }

    private int readVarint(int[] position) {
        int value = 0;
        int shift = 0;
        while (true) {
            if (position[0] >= row.length || shift > 28) {
                throw new CodecException("corrupt varint in row value header");
            }
            int b = row[position[0]++] & 0xFF;
            value |= (b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }
}
