package io.duetdb.client.txn;

/** How a transaction finds out about conflicting writers. */
public enum TxnMode {
    /** Conflicts surface at commit (prewrite) as a write conflict; the transaction is retried by the caller. */
    OPTIMISTIC,
    /** Keys are locked as they are written or read for update; conflicting writers wait (MySQL's behaviour). */
    PESSIMISTIC
}
