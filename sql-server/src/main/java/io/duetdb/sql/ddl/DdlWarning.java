package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.error.ErrorCode;

/**
 * What a DDL statement tells the client beside success: a note (MySQL's level for IF [NOT] EXISTS finding its
 * answer already there) or a warning (an option accepted and ignored), with its MySQL code.
 */
public record DdlWarning(boolean note, ErrorCode code, String message) {
    public DdlWarning {
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }

    static DdlWarning note(ErrorCode code, String message) {
        return new DdlWarning(true, code, message);
    }

    static DdlWarning warning(String message) {
        return new DdlWarning(false, ErrorCode.UNKNOWN_ERROR, message);
    }
}
