package io.duetdb.common.txn;

/** What a record in the write column family says happened at its timestamp. */
public enum WriteType {
    PUT(0),
    DELETE(1),
    /** A committed LOCK mutation: no change to the value. */
    LOCK(2),
    /** The transaction started at this timestamp was rolled back and can never commit here. */
    ROLLBACK(3);

    private final int code;

    WriteType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static WriteType ofCode(int code) {
        for (WriteType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown write type " + code);
    }

    /** Whether the record sets the key's value (reads stop here) rather than being skipped. */
    public boolean isDataChange() {
        return this == PUT || this == DELETE;
    }

    public static WriteType ofLock(LockType lock) {
        return switch (lock) {
            case PUT -> PUT;
            case DELETE -> DELETE;
            case LOCK -> LOCK;
            case PESSIMISTIC -> throw new IllegalArgumentException("a pessimistic lock is never committed");
        };
    }
}
