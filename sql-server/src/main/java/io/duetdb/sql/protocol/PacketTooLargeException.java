package io.duetdb.sql.protocol;

/** A client packet over max_allowed_packet: answered with error 1153, then the connection closes. */
final class PacketTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PacketTooLargeException(long bytes, long limit) {
        super("Got a packet bigger than 'max_allowed_packet' bytes (" + bytes + " > " + limit + ")");
    }
}
