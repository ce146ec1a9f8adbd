package io.duetdb.learner.internal.storage;

import static java.util.Objects.requireNonNull;

/**
 * A prewritten change the learner holds until its transaction commits or rolls back (paper Table 1): what the
 * row store's lock on the key says, with the staged row value of a PUT.
 */
public record PendingWrite(Kind kind, long startTs, byte[] primary, long ttlMillis, long txnSize, long forUpdateTs,
        byte[] value) {
    public enum Kind {
        PUT,
        DELETE,
        /** Locks the key without changing it: readers pass it. */
        LOCK;

        byte code() {
            return (byte) ordinal();
        }

        static Kind ofCode(byte code) {
            return values()[code];
        }
    }

    public PendingWrite {
        requireNonNull(kind, "kind is null");
        requireNonNull(primary, "primary is null");
        if (kind == Kind.PUT) {
            requireNonNull(value, "value is null");
        }
    }

    /** Whether a snapshot read at or after startTs must wait for this transaction (its value may change). */
    public boolean blocksReadAt(long readTs) {
        return kind != Kind.LOCK && startTs <= readTs;
    }
}
