package io.duetdb.store.txn;

import io.duetdb.common.txn.Write;

import static java.util.Objects.requireNonNull;

/** A write record with the timestamp it is filed under (the commit timestamp, or the start for a rollback). */
public record CommittedWrite(long commitTs, Write write) {
    public CommittedWrite {
        requireNonNull(write, "write is null");
    }
}
