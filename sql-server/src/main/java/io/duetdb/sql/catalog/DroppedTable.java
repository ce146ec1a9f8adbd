package io.duetdb.sql.catalog;

/**
 * A dropped (or truncated) table whose rows and index entries still occupy the stores. {@code observedTs} is the
 * snapshot at which a server first saw this record, 0 until then: every snapshot that can still read the table
 * started before it, so once the GC safe point passes it the data can be destroyed.
 */
public record DroppedTable(long tableId, long observedTs) {
    public DroppedTable withObservedTs(long timestamp) {
        return new DroppedTable(tableId, timestamp);
    }
}
