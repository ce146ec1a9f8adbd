package io.duetdb.store.engine;

import java.util.List;

/** The engine's key spaces. User data goes to the first three; the store's own records to RAFT. */
public enum ColumnFamily {
    /** Values: raw key-value data, and MVCC values too long to inline in write records. */
    DEFAULT("default"),
    /** MVCC locks: key to the lock of the transaction writing it. */
    LOCK("lock"),
    /** MVCC commit records: key + commit timestamp to (type, start timestamp, short value). */
    WRITE("write"),
    /** Region local states, apply positions, store identity. */
    RAFT("raft");

    public static final List<ColumnFamily> DATA = List.of(DEFAULT, LOCK, WRITE);

    private final String engineName;

    ColumnFamily(String engineName) {
        this.engineName = engineName;
    }

    public String engineName() {
        return engineName;
    }
}
