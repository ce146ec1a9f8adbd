package io.duetdb.common.error;

import static java.util.Objects.requireNonNull;

/** An error meant for a user: a code with its MySQL errno and SQLSTATE, and a one-line message. */
public class DuetException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public DuetException(ErrorCode code, String message) {
        super(message);
        this.code = requireNonNull(code, "code is null");
    }

    public DuetException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }

    /** As MySQL clients print it: {@code ERROR 9001 (HY000): message}. */
    public String toMySqlString() {
        return "ERROR " + code.errorNumber() + " (" + code.sqlState() + "): " + getMessage();
    }
}
