package io.duetdb.learner.internal.mpp;

import static java.util.Objects.requireNonNull;

import io.duetdb.proto.mpp.MppError;

/** What stopped an MPP task, as the coordinator is told of it (a lock or a region to retry, or a plain error). */
final class MppTaskException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient MppError error;

    MppTaskException(MppError error) {
        super(error.getMessage());
        this.error = requireNonNull(error, "error is null");
    }

    static MppTaskException of(String message) {
        return new MppTaskException(MppError.newBuilder().setMessage(message).build());
    }

    static MppTaskException regions(String message) {
        return new MppTaskException(MppError.newBuilder().setMessage(message).setRetryRegions(true).build());
    }

    MppError error() {
        return error;
    }
}
