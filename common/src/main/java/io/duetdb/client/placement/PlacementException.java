package io.duetdb.client.placement;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.ErrorType;

/** An error the placement leader answered with, such as a stale region heartbeat or an unknown store. */
public final class PlacementException extends DuetException {
    private static final long serialVersionUID = 1L;

    private final ErrorType type;

    public PlacementException(ErrorType type, String message) {
        super(codeOf(type), message);
        this.type = requireNonNull(type, "type is null");
    }

    public ErrorType type() {
        return type;
    }

    private static ErrorCode codeOf(ErrorType type) {
        return switch (type) {
            case CLUSTER_ID_MISMATCH -> ErrorCode.CLUSTER_ID_MISMATCH;
            case UNAVAILABLE, NOT_LEADER -> ErrorCode.PLACEMENT_SERVER_TIMEOUT;
            case INTERNAL -> ErrorCode.UNKNOWN_ERROR;
            default -> ErrorCode.INVALID_ARGUMENT;
        };
    }
}
