package io.duetdb.learner.internal.mpp;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** Whether an MPP task was told to stop, checked by its operators between batches and while they wait. */
final class Cancellation {
    private volatile String reason;

    void cancel(String why) {
        if (reason == null) {
            reason = why;
        }
    }

    String reason() {
        return reason;
    }

    void check() {
        String why = reason;
        if (why != null) {
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted: " + why);
        }
    }
}
