package io.duetdb.common.checksum;

import io.duetdb.proto.coprocessor.ChecksumResult;

/**
 * The checksum of a set of key-value pairs: the XOR of each pair's CRC-64 over (key without its table prefix, value),
 * the number of pairs and their bytes. Order-free, so regions may add their parts in any order; the table id is left
 * out so the same rows under another table id (TRUNCATE, a re-import) check the same. Not thread-safe.
 */
public final class KeyValueChecksum {
    /** 't' and the table id's eight bytes. */
    private static final int TABLE_PREFIX_LENGTH = 9;

    private final Crc64 crc = new Crc64();
    private long crc64Xor;
    private long totalKvs;
    private long totalBytes;

    public void add(byte[] key, byte[] value) {
        int from = key.length >= TABLE_PREFIX_LENGTH && key[0] == 't' ? TABLE_PREFIX_LENGTH : 0;
        crc.reset().update(key, from, key.length - from).update(value);
        crc64Xor ^= crc.value();
        totalKvs++;
        totalBytes += key.length - from + value.length;
    }

    public void add(ChecksumResult part) {
        crc64Xor ^= part.getCrc64Xor();
        totalKvs += part.getTotalKvs();
        totalBytes += part.getTotalBytes();
    }

    public ChecksumResult result() {
        return ChecksumResult.newBuilder().setCrc64Xor(crc64Xor).setTotalKvs(totalKvs).setTotalBytes(totalBytes).build();
    }

    public long crc64Xor() {
        return crc64Xor;
    }

    public long totalKvs() {
        return totalKvs;
    }

    public long totalBytes() {
        return totalBytes;
    }
}
