package io.duetdb.sql.protocol;

/** Capability flags of the MySQL client/server protocol. */
final class Capabilities {
    static final int LONG_PASSWORD = 1;
    static final int FOUND_ROWS = 1 << 1;
    static final int LONG_FLAG = 1 << 2;
    static final int CONNECT_WITH_DB = 1 << 3;
    static final int NO_SCHEMA = 1 << 4;
    /** The client allows LOAD DATA LOCAL INFILE. */
    static final int LOCAL_FILES = 1 << 7;
    static final int IGNORE_SPACE = 1 << 8;
    static final int PROTOCOL_41 = 1 << 9;
    static final int INTERACTIVE = 1 << 10;
    static final int SSL = 1 << 11;
    static final int TRANSACTIONS = 1 << 13;
    static final int SECURE_CONNECTION = 1 << 15;
    static final int MULTI_STATEMENTS = 1 << 16;
    static final int MULTI_RESULTS = 1 << 17;
    static final int PS_MULTI_RESULTS = 1 << 18;
    static final int PLUGIN_AUTH = 1 << 19;
    static final int CONNECT_ATTRS = 1 << 20;
    static final int PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
    static final int DEPRECATE_EOF = 1 << 24;

    /** What this server offers; a connection uses the intersection with what its client asks for. */
    static final int SERVER = LONG_PASSWORD | FOUND_ROWS | LONG_FLAG | CONNECT_WITH_DB | NO_SCHEMA | LOCAL_FILES | IGNORE_SPACE
            | PROTOCOL_41 | INTERACTIVE | TRANSACTIONS | SECURE_CONNECTION | MULTI_RESULTS | PS_MULTI_RESULTS
            | PLUGIN_AUTH | CONNECT_ATTRS | PLUGIN_AUTH_LENENC_CLIENT_DATA | DEPRECATE_EOF;

    private Capabilities() {
    }
}
