package io.duetdb.common.txn;

/** What a transaction's lock on a key stands for. */
public enum LockType {
    PUT(0),
    DELETE(1),
    /** Locks the key without changing it; readers ignore it. */
    LOCK(2),
    /** Taken before prewrite in a pessimistic transaction; readers ignore it, writers wait for it. */
    PESSIMISTIC(3);

    private final int code;

    LockType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static LockType ofCode(int code) {
        for (LockType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown lock type " + code);
    }

    /** Whether a snapshot read must stop at this lock (the value may change at a commit before the read). */
    public boolean blocksReads() {
        return this == PUT || this == DELETE;
    }
}
