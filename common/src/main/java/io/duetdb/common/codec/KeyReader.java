package io.duetdb.common.codec;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;

import io.duetdb.common.types.ColumnType;

/** Decodes what {@link KeyWriter} wrote, field by field, from the start of a key. */
public final class KeyReader {
    private final byte[] key;
    private int position;

    public KeyReader(byte[] key) {
        this(key, 0);
    }

    public KeyReader(byte[] key, int position) {
        this.key = key;
        this.position = position;
    }

    public int position() {
        return position;
    }

    public int remaining() {
        return key.length - position;
    }

    public boolean hasRemaining() {
        return position < key.length;
    }

    public int readByte() {
        need(1);
        return key[position++] & 0xFF;
    }

    public int peekByte() {
        need(1);
        return key[position] & 0xFF;
    }

    public byte[] readRaw(int count) {
        need(count);
        byte[] result = new byte[count];
        System.arraycopy(key, position, result, 0, count);
        position += count;
        return result;
    }

    /** Consumes {@code expected} if the key continues with it; returns whether it did. */
    public boolean skipIfNext(byte[] expected) {
        if (remaining() < expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (key[position + i] != expected[i]) {
                return false;
            }
        }
        position += expected.length;
        return true;
    }

    public long readInt64() {
        return readUint64() ^ KeyWriter.SIGN_MASK;
    }

    public long readUint64() {
        need(8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | (key[position++] & 0xFF);
        }
        return value;
    }

    public double readFloat64() {
        long encoded = readUint64();
        long bits = encoded < 0 ? encoded & ~KeyWriter.SIGN_MASK : ~encoded;
        return Double.longBitsToDouble(bits);
    }

    public byte[] readBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16);
        while (true) {
            need(KeyWriter.GROUP_SIZE + 1);
            int marker = key[position + KeyWriter.GROUP_SIZE] & 0xFF;
            int padding = KeyWriter.GROUP_MARKER - marker;
            if (padding > KeyWriter.GROUP_SIZE) {
                throw new CodecException("invalid group marker " + marker + " at offset " + (position + 8));
            }
            int real = KeyWriter.GROUP_SIZE - padding;
            for (int i = real; i < KeyWriter.GROUP_SIZE; i++) {
                if (key[position + i] != 0) {
                    throw new CodecException("non-zero padding byte at offset " + (position + i));
                }
            }
            out.write(key, position, real);
            position += KeyWriter.GROUP_SIZE + 1;
            if (padding != 0) {
                return out.toByteArray();
            }
        }
    }

    public BigDecimal readDecimal() {
        int sign = readByte();
        if (sign == 2) {
            return BigDecimal.ZERO;
        }
        if (sign != 1 && sign != 3) {
            throw new CodecException("invalid decimal sign byte " + sign);
        }
        int mask = sign == 1 ? 0xFF : 0;
        int flipped = 0;
        for (int i = 0; i < 4; i++) {
            flipped = flipped << 8 | (readByte() ^ mask);
        }
        int exponent = flipped ^ Integer.MIN_VALUE;
        StringBuilder digits = new StringBuilder();
        while (true) {
            int pair = readByte() ^ mask;
            if (pair == 0) {
                break;
            }
            if (pair > 100) {
                throw new CodecException("invalid decimal digit pair " + pair);
            }
            pair -= 1;
            digits.append((char) ('0' + pair / 10)).append((char) ('0' + pair % 10));
        }
        if (digits.isEmpty()) {
            throw new CodecException("decimal without digits");
        }
        // value = 0.digits x 10^exponent
        BigDecimal magnitude = new BigDecimal(new BigInteger(digits.toString()), digits.length() - exponent)
                .stripTrailingZeros();
        return sign == 1 ? magnitude.negate() : magnitude;
    }

    public LocalDate readDate() {
        return PackedTime.unpackDate(readUint64());
    }

    public LocalDateTime readDateTime() {
        return PackedTime.unpackDateTime(readUint64());
    }

    public Duration readTime() {
        long micros = readInt64();
        return Duration.ofSeconds(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** A flagged value written by {@link KeyWriter#writeDatum}; null for NULL. */
    public Object readDatum(ColumnType type) {
        return Datum.read(this, type);
    }

    private void need(int count) {
        if (position + count > key.length) {
            throw new CodecException("key truncated: need " + count + " bytes at offset " + position
                    + " of " + key.length);
        }
    }
}
