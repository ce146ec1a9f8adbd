package io.duetdb.client.txn;

/** What a transaction's reads see. */
public enum Isolation {
    /** Snapshot isolation at the start timestamp (MySQL's REPEATABLE READ). */
    REPEATABLE_READ,
    /** Each read sees what was committed when it started. */
    READ_COMMITTED
}
