package io.duetdb.common.checksum;

/** CRC-64 with the ECMA-182 polynomial, reflected (CRC-64/XZ: init and final XOR all ones), as TiDB's checksums use. */
public final class Crc64 {
    private static final long POLYNOMIAL = 0xC96C5795D7870F42L;
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private long crc = -1L;

    public Crc64 update(byte[] bytes, int offset, int length) {
        long value = crc;
        for (int i = offset; i < offset + length; i++) {
            value = TABLE[(int) ((value ^ bytes[i]) & 0xff)] ^ (value >>> 8);
        }
        crc = value;
        return this;
    }

    public Crc64 update(byte[] bytes) {
        return update(bytes, 0, bytes.length);
    }

    public long value() {
        return ~crc;
    }

    public Crc64 reset() {
        crc = -1L;
        return this;
    }
}
