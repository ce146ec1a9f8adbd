package io.duetdb.raft;

import java.util.Optional;

/** A proposal reached a replica that does not lead the group (or no longer does). */
public final class NotLeaderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String leaderId;

    public NotLeaderException(String message, String leaderId) {
        super(message);
        this.leaderId = leaderId;
    }

    /** The leader the replica suggests, when it knows one. */
    public Optional<String> leaderId() {
        return Optional.ofNullable(leaderId);
    }
}
