package io.duetdb.sql.protocol;

/** A client sent bytes that are not a valid packet of the MySQL protocol; its connection is closed. */
public final class MalformedPacketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedPacketException(String message) {
        super(message);
    }
}
