package io.duetdb.placement.internal;

import static java.util.Objects.requireNonNull;

import io.duetdb.proto.placement.Error;
import io.duetdb.proto.placement.ErrorType;

/** An error answered in a response header rather than as a gRPC status. */
public final class PlacementError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorType type;
    private final String leaderAddress;

    public PlacementError(ErrorType type, String message) {
        this(type, message, "");
    }

    public PlacementError(ErrorType type, String message, String leaderAddress) {
        super(message, null, false, false);
        this.type = requireNonNull(type, "type is null");
        this.leaderAddress = leaderAddress == null ? "" : leaderAddress;
    }

    public static PlacementError of(Error error) {
        return new PlacementError(error.getType(), error.getMessage(), error.getLeaderAddress());
    }

    public ErrorType type() {
        return type;
    }

    public Error toProto() {
        return Error.newBuilder().setType(type).setMessage(String.valueOf(getMessage()))
                .setLeaderAddress(leaderAddress).build();
    }
}
