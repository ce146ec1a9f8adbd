package io.duetdb.common.codec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;

import io.duetdb.common.types.ColumnType;

/**
 * Builds memcomparable keys: for every encoding here, comparing two encoded values byte-wise (unsigned)
 * gives the order of the values, and every encoding is self-delimiting, so that concatenated fields keep
 * the order of the tuple. {@link KeyReader} decodes what this writes.
 */
public final class KeyWriter {
    /** Bytes are written in groups of this many, each followed by a marker byte. */
    static final int GROUP_SIZE = 8;
    static final int GROUP_MARKER = 0xFF;
    static final long SIGN_MASK = 0x8000000000000000L;

    private byte[] buffer;
    private int length;

    public KeyWriter() {
        this(32);
    }

    public KeyWriter(int initialCapacity) {
        buffer = new byte[Math.max(initialCapacity, 8)];
    }

    /** Raw bytes with no length or escaping: only for fixed prefixes and for a key's final field. */
    public KeyWriter writeRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
        return this;
    }

    public KeyWriter writeByte(int value) {
        ensure(1);
        buffer[length++] = (byte) value;
        return this;
    }

    /** Signed 64-bit: big-endian with the sign bit flipped, so negative numbers sort first. */
    public KeyWriter writeInt64(long value) {
        return writeUint64(value ^ SIGN_MASK);
    }

    /** Unsigned 64-bit: big-endian. */
    public KeyWriter writeUint64(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[length++] = (byte) (value >>> shift);
        }
        return this;
    }

    /**
     * Double: the IEEE bits with the sign bit flipped for non-negative numbers and all bits flipped for
     * negative ones. Negative zero is written as zero; NaN is rejected (SQL has none).
     */
    public KeyWriter writeFloat64(double value) {
        return writeUint64(encodeFloat64(value));
    }

    static long encodeFloat64(double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException("NaN cannot be encoded in a key");
        }
        long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value);
        return bits >= 0 ? bits | SIGN_MASK : ~bits;
    }

    /**
     * Bytes in groups of eight, each group followed by a marker 0xFF minus the number of padding zeros in it;
     * the last group is always padded (possibly with eight zeros). Order-preserving and prefix-free.
     */
    public KeyWriter writeBytes(byte[] value) {
        int groups = value.length / GROUP_SIZE + 1;
        ensure(groups * (GROUP_SIZE + 1));
        for (int offset = 0; offset <= value.length; offset += GROUP_SIZE) {
            int remaining = value.length - offset;
            if (remaining >= GROUP_SIZE) {
                System.arraycopy(value, offset, buffer, length, GROUP_SIZE);
                length += GROUP_SIZE;
                buffer[length++] = (byte) GROUP_MARKER;
                if (remaining == GROUP_SIZE) {
                    // A full last group still needs the terminating all-padding group.
                    Arrays.fill(buffer, length, length + GROUP_SIZE, (byte) 0);
                    length += GROUP_SIZE;
                    buffer[length++] = (byte) (GROUP_MARKER - GROUP_SIZE);
                    break;
                }
            } else {
                System.arraycopy(value, offset, buffer, length, remaining);
                Arrays.fill(buffer, length + remaining, length + GROUP_SIZE, (byte) 0);
                length += GROUP_SIZE;
                buffer[length++] = (byte) (GROUP_MARKER - (GROUP_SIZE - remaining));
            }
        }
        return this;
    }

    /** A string as the group encoding of its UTF-8 bytes (binary collation). */
    public KeyWriter writeString(String value) {
        return writeBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Decimal, by value (1.50 and 1.5 encode alike). A sign byte (1 negative, 2 zero, 3 positive); for a
     * non-zero value 0.d1d2...dn x 10^e with d1 and dn not zero: e as a sign-flipped int32, then the digits
     * in pairs, each pair as a byte 1..100 (an odd count is padded with a zero digit), then a 0 terminator.
     * Negative values have every byte after the sign complemented, which reverses their order.
     */
    public KeyWriter writeDecimal(BigDecimal value) {
        int sign = value.signum();
        if (sign == 0) {
            return writeByte(2);
        }
        BigDecimal magnitude = value.abs().stripTrailingZeros();
        String digits = magnitude.unscaledValue().toString();
        // magnitude = digits x 10^-scale = 0.digits x 10^(len - scale)
        long exponent = (long) digits.length() - magnitude.scale();
        if (exponent > Integer.MAX_VALUE || exponent < Integer.MIN_VALUE) {
            throw new IllegalArgumentException("decimal exponent out of range: " + value);
        }
        int pairs = (digits.length() + 1) / 2;
        ensure(1 + 4 + pairs + 1);
        int mask = sign < 0 ? 0xFF : 0;
        buffer[length++] = (byte) (sign < 0 ? 1 : 3);
        int flipped = (int) exponent ^ Integer.MIN_VALUE;
        for (int shift = 24; shift >= 0; shift -= 8) {
            buffer[length++] = (byte) ((flipped >>> shift) ^ mask);
        }
        for (int i = 0; i < digits.length(); i += 2) {
            int high = digits.charAt(i) - '0';
            int low = i + 1 < digits.length() ? digits.charAt(i + 1) - '0' : 0;
            buffer[length++] = (byte) ((high * 10 + low + 1) ^ mask);
        }
        buffer[length++] = (byte) mask;
        return this;
    }

    /** A date as its packed form (see {@link PackedTime}). */
    public KeyWriter writeDate(LocalDate value) {
        return writeUint64(PackedTime.pack(value));
    }

    /** A date and time as its packed form, to the microsecond (see {@link PackedTime}). */
    public KeyWriter writeDateTime(LocalDateTime value) {
        return writeUint64(PackedTime.pack(value));
    }

    /** A MySQL TIME (signed duration) as signed microseconds. */
    public KeyWriter writeTime(Duration value) {
        return writeInt64(toMicros(value));
    }

    static long toMicros(Duration value) {
        return Math.addExact(Math.multiplyExact(value.getSeconds(), 1_000_000L), value.getNano() / 1000);
    }

    /**
     * A value of a column type preceded by a flag byte, as index keys store their fields: NULL (flag 0)
     * sorts before every value, and {@link Datum#MAX_FLAG} after every value of a column.
     */
    public KeyWriter writeDatum(ColumnType type, Object value) {
        Datum.write(this, type, value);
        return this;
    }

    public int length() {
        return length;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }

    private void ensure(int extra) {
        int needed = length + extra;
        if (needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
        }
    }
}
