package io.duetdb.bulk.importer;

import io.duetdb.common.checksum.KeyValueChecksum;

/**
 * What a physical import wrote: rows and pairs (records and index entries), the source bytes read, the largest
 * AUTO_INCREMENT value and the hidden row ids used (for the table's counters), the checksum of the pairs written
 * (to compare with the stores' ADMIN CHECKSUM), and the time its two phases took.
 */
public record ImportResult(long rows, long pairs, long sourceBytes, long maxAutoIncrement, long rowIdsUsed,
        KeyValueChecksum checksum, long encodeNanos, long writeNanos) {
}
