package io.duetdb.compute.expression;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;

/**
 * A batch of TRUE, FALSE and NULL results gathered in words on the heap, then written to a bit vector's
 * validity and value buffers a word at a time instead of two bit updates per row.
 */
final class TruthBits {
    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

    private final long[] known;
    private final long[] truths;

    TruthBits(int rows) {
        known = new long[(rows + Long.SIZE - 1) / Long.SIZE];
        truths = new long[known.length];
    }

    /** Row {@code row} is TRUE or FALSE; rows never set stay NULL. */
    void set(int row, boolean truth) {
        long bit = 1L << row;
        known[row >>> 6] |= bit;
        if (truth) {
            truths[row >>> 6] |= bit;
        }
    }

    /** Writes the first {@code rows} results into {@code out}, whose buffers hold at least that many bits. */
    void writeTo(BitVector out, int rows) {
        write(known, out.getValidityBuffer(), rows);
        write(truths, out.getDataBuffer(), rows);
    }

    private static void write(long[] words, ArrowBuf buffer, int rows) {
        int bytes = (rows + Byte.SIZE - 1) / Byte.SIZE;
        for (int word = 0; word < words.length; word++) {
            long offset = (long) word * Long.BYTES;
            if (offset + Long.BYTES <= buffer.capacity()) {
                // Arrow numbers bits from the least significant of each byte, as a little-endian word does.
                buffer.setLong(offset, LITTLE_ENDIAN ? words[word] : Long.reverseBytes(words[word]));
                continue;
            }
            for (long index = offset; index < bytes; index++) {
                buffer.setByte(index, (byte) (words[word] >>> (Byte.SIZE * (index - offset))));
            }
        }
    }
}
