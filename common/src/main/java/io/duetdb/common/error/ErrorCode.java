package io.duetdb.common.error;

/**
 * Every error a user can see, with the MySQL error number and SQLSTATE that the SQL layer returns for it.
 * MySQL's own numbers where MySQL has the error; TiDB's 8xxx/9xxx numbers for distributed-system errors,
 * so that tools that know TiDB recognise them.
 */
public enum ErrorCode {
    // MySQL errors.
    UNKNOWN_ERROR(1105, "HY000"),
    PARSE_ERROR(1064, "42000"),
    UNKNOWN_DATABASE(1049, "42000"),
    UNKNOWN_TABLE(1146, "42S02"),
    UNKNOWN_COLUMN(1054, "42S22"),
    DUPLICATE_ENTRY(1062, "23000"),
    COLUMN_CANNOT_BE_NULL(1048, "23000"),
    NO_DEFAULT_FOR_FIELD(1364, "HY000"),
    OUT_OF_RANGE_VALUE(1264, "22003"),
    LOCK_WAIT_TIMEOUT(1205, "HY000"),
    DEADLOCK(1213, "40001"),
    PACKET_TOO_LARGE(1153, "08S01"),
    QUERY_INTERRUPTED(1317, "70100"),
    ACCESS_DENIED(1045, "28000"),

    // TiDB's distributed-system errors.
    TRANSACTION_RETRYABLE(8002, "HY000"),
    TRANSACTION_TOO_LARGE(8004, "HY000"),
    PLACEMENT_SERVER_TIMEOUT(9001, "HY000"),
    STORE_SERVER_TIMEOUT(9002, "HY000"),
    STORE_SERVER_BUSY(9003, "HY000"),
    RESOLVE_LOCK_TIMEOUT(9004, "HY000"),
    REGION_UNAVAILABLE(9005, "HY000"),
    GC_TOO_EARLY(9006, "HY000"),
    WRITE_CONFLICT(9007, "HY000"),
    LEARNER_SERVER_TIMEOUT(9012, "HY000"),
    LEARNER_SERVER_BUSY(9013, "HY000"),

    // DuetDB's own operational errors (outside both ranges).
    INVALID_CONFIG(9501, "HY000"),
    INCOMPATIBLE_DATA_DIRECTORY(9502, "HY000"),
    ADDRESS_IN_USE(9503, "HY000"),
    CLUSTER_ID_MISMATCH(9504, "HY000"),
    INVALID_ARGUMENT(9505, "HY000");

    private final int errorNumber;
    private final String sqlState;

    ErrorCode(int errorNumber, String sqlState) {
        this.errorNumber = errorNumber;
        this.sqlState = sqlState;
    }

    /** The MySQL error number (errno). */
    public int errorNumber() {
        return errorNumber;
    }

    /** The five-character SQLSTATE. */
    public String sqlState() {
        return sqlState;
    }
}
