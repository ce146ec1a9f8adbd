package io.duetdb.sql.error;

import static java.util.Objects.requireNonNull;

import io.duetdb.common.error.DuetException;

/** A {@link DuetException} whose MySQL number and SQLSTATE come from {@link SqlErrorCode}. */
public final class SqlErrorException extends DuetException {
    private static final long serialVersionUID = 1L;

    private final SqlErrorCode sqlCode;

    public SqlErrorException(SqlErrorCode sqlCode, String message) {
        super(requireNonNull(sqlCode, "sqlCode is null").closest(), message);
        this.sqlCode = sqlCode;
    }

    public SqlErrorCode sqlCode() {
        return sqlCode;
    }

    /** The MySQL error number clients see. */
    public static int errorNumber(DuetException error) {
        return error instanceof SqlErrorException local ? local.sqlCode.errorNumber() : error.code().errorNumber();
    }

    /** The SQLSTATE clients see. */
    public static String sqlState(DuetException error) {
        return error instanceof SqlErrorException local ? local.sqlCode.sqlState() : error.code().sqlState();
    }

    @Override
    public String toMySqlString() {
        return "ERROR " + sqlCode.errorNumber() + " (" + sqlCode.sqlState() + "): " + getMessage();
    }
}
