package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

/** A note left by a statement (SHOW WARNINGS): its MySQL code and message. */
public record Warning(int code, String message) {
    /** ER_UNKNOWN_ERROR's number, for notes MySQL has no code of its own for. */
    public static final int GENERIC = 1105;

    public Warning {
        requireNonNull(message, "message is null");
    }
}
