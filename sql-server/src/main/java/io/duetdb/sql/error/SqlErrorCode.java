package io.duetdb.sql.error;

import io.duetdb.common.error.ErrorCode;

/**
 * MySQL errors the SQL layer raises that common's {@link ErrorCode} does not list yet. Each names the closest
 * common code, which is what code outside the SQL server sees; clients get the MySQL number and SQLSTATE.
 * Move them into ErrorCode when common is next changed.
 */
public enum SqlErrorCode {
    /** ER_KILL_DENIED_ERROR: KILL of another user's connection without SUPER. */
    KILL_DENIED(1095, "HY000", ErrorCode.SPECIFIC_ACCESS_DENIED),
    /** ER_PLUGIN_IS_NOT_LOADED: CREATE/ALTER USER ... IDENTIFIED WITH an unknown authentication plugin. */
    PLUGIN_IS_NOT_LOADED(1524, "HY000", ErrorCode.NOT_SUPPORTED_YET),
    /** ER_INCORRECT_GLOBAL_LOCAL_VAR: SET of a variable that cannot be set (here: fixed by the configuration). */
    READ_ONLY_VARIABLE(1238, "HY000", ErrorCode.WRONG_VALUE_FOR_VARIABLE),
    /** ER_VARIABLE_IS_READONLY: SET SESSION of a variable that has only a global value. */
    SESSION_VARIABLE_IS_READ_ONLY(1621, "HY000", ErrorCode.WRONG_VALUE_FOR_VARIABLE);

    private final int errorNumber;
    private final String sqlState;
    private final ErrorCode closest;

    SqlErrorCode(int errorNumber, String sqlState, ErrorCode closest) {
        this.errorNumber = errorNumber;
        this.sqlState = sqlState;
        this.closest = closest;
    }

    public int errorNumber() {
        return errorNumber;
    }

    public String sqlState() {
        return sqlState;
    }

    /** The common code that stands in for this one outside the SQL server. */
    public ErrorCode closest() {
        return closest;
    }
}
