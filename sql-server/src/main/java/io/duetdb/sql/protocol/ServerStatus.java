package io.duetdb.sql.protocol;

/** Server status flags sent in OK and EOF packets. */
final class ServerStatus {
    static final int IN_TRANSACTION = 1;
    static final int AUTOCOMMIT = 2;
    static final int MORE_RESULTS_EXIST = 8;
    static final int NO_INDEX_USED = 32;
    static final int CURSOR_EXISTS = 64;
    static final int LAST_ROW_SENT = 128;

    private ServerStatus() {
    }
}
