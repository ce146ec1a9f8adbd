package io.duetdb.raft;

/** The group cannot take a proposal right now (no leader yet, leader not ready, timeout); retrying may help. */
public final class RaftUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RaftUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
