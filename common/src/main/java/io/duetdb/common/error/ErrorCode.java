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
    LOCK_NOWAIT(3572, "HY000"),
    RECURSION_DEPTH_EXCEEDED(3636, "HY000"),
    REGEXP_INDEX_OUT_OF_BOUNDS(3686, "HY000"),
    REGEXP_SYNTAX(3688, "HY000"),
    GENERATED_COLUMN_FUNCTION_NOT_ALLOWED(3102, "HY000"),
    GENERATED_COLUMN_VALUE_NOT_ALLOWED(3105, "HY000"),
    GENERATED_COLUMN_UNSUPPORTED(3106, "HY000"),
    GENERATED_COLUMN_NON_PRIOR(3107, "HY000"),
    GENERATED_COLUMN_DEPENDENCY(3108, "HY000"),
    GENERATED_COLUMN_REFERS_AUTO_INCREMENT(3109, "HY000"),
    DEFAULT_EXPRESSION_DISALLOWED(3771, "HY000"),
    CHECK_CONSTRAINT_OTHER_COLUMN(3813, "HY000"),
    CHECK_CONSTRAINT_NAMED_FUNCTION(3814, "HY000"),
    CHECK_CONSTRAINT_FUNCTION(3815, "HY000"),
    CHECK_CONSTRAINT_VARIABLES(3816, "HY000"),
    CHECK_CONSTRAINT_AUTO_INCREMENT(3818, "HY000"),
    CHECK_CONSTRAINT_VIOLATED(3819, "HY000"),
    CHECK_CONSTRAINT_UNKNOWN_COLUMN(3820, "HY000"),
    CHECK_CONSTRAINT_NOT_FOUND(3821, "HY000"),
    CHECK_CONSTRAINT_DUPLICATE_NAME(3822, "HY000"),
    CHECK_CONSTRAINT_COLUMN_DEPENDENCY(3959, "HY000"),
    INVALID_JSON_TEXT(3140, "22032"),
    INVALID_JSON_TEXT_IN_PARAM(3141, "22032"),
    INVALID_JSON_PATH(3143, "42000"),
    INVALID_TYPE_FOR_JSON(3146, "22032"),
    INVALID_JSON_PATH_WILDCARD(3149, "42000"),
    JSON_USED_AS_KEY(3152, "42000"),
    JSON_VACUOUS_PATH(3153, "42000"),
    JSON_BAD_ONE_OR_ALL_ARG(3154, "42000"),
    JSON_DOCUMENT_NULL_KEY(3158, "22032"),
    INVALID_JSON_PATH_ARRAY_CELL(3165, "42000"),
    /** "No value was found by 'json_value' on the specified path." (JSON_VALUE ... ERROR ON EMPTY). */
    MISSING_JSON_VALUE(3966, "22035"),
    /** "More than one value was found by 'json_value' on the specified path." (JSON_VALUE ... ERROR ON ERROR). */
    MULTIPLE_JSON_VALUES(3967, "22034"),
    BLOB_CANT_HAVE_DEFAULT(1101, "42000"),
    DUPLICATED_VALUE_IN_TYPE(1291, "HY000"),
    TOO_BIG_DISPLAYWIDTH(1439, "42000"),
    TOO_BIG_SET(1097, "HY000"),
    ILLEGAL_VALUE_FOR_TYPE(1367, "22007"),
    PACKET_TOO_LARGE(1153, "08S01"),
    QUERY_INTERRUPTED(1317, "70100"),
    ACCESS_DENIED(1045, "28000"),
    DATABASE_ACCESS_DENIED(1044, "42000"),
    TABLE_ACCESS_DENIED(1142, "42000"),
    NO_DATABASE_SELECTED(1046, "3D000"),
    DATABASE_EXISTS(1007, "HY000"),
    DATABASE_DROP_UNKNOWN(1008, "HY000"),
    TABLE_EXISTS(1050, "42S01"),
    BAD_TABLE(1051, "42S02"),
    CANNOT_ADD_FOREIGN(1215, "HY000"),
    DUPLICATE_COLUMN(1060, "42S21"),
    DUPLICATE_KEY_NAME(1061, "42000"),
    MULTIPLE_PRIMARY_KEY(1068, "42000"),
    KEY_COLUMN_DOES_NOT_EXIST(1072, "42000"),
    WRONG_AUTO_KEY(1075, "42000"),
    CANNOT_DROP_FIELD_OR_KEY(1091, "42000"),
    WRONG_VALUE_COUNT(1136, "21S01"),
    /** ALTER TABLE ... MODIFY to NOT NULL of a column that holds NULLs. */
    INVALID_USE_OF_NULL(1138, "22004"),
    /** A named index that the table does not have (RENAME INDEX, index hints). */
    KEY_DOES_NOT_EXIST(1176, "42000"),
    WRONG_NAME_FOR_INDEX(1280, "42000"),
    /** LOAD DATA's: an input row with fewer or more fields than the columns it fills. */
    TOO_FEW_RECORDS(1261, "01000"),
    TOO_MANY_RECORDS(1262, "01000"),
    /** MySQL 8's ER_CLIENT_LOCAL_FILES_DISABLED: LOAD DATA LOCAL from a client that did not enable it. */
    LOCAL_INFILE_DISABLED(3948, "42000"),
    UNKNOWN_COMMAND(1047, "08S01"),
    UNKNOWN_SYSTEM_VARIABLE(1193, "HY000"),
    WRONG_VALUE_FOR_VARIABLE(1231, "42000"),
    WRONG_TYPE_FOR_VARIABLE(1232, "42000"),
    /** SET GLOBAL of a variable that only sessions have. */
    SESSION_SCOPE_VARIABLE(1228, "HY000"),
    /** SET [SESSION] of a variable that only the cluster has. */
    GLOBAL_SCOPE_VARIABLE(1229, "HY000"),
    KILL_DENIED(1095, "HY000"),
    PLUGIN_IS_NOT_LOADED(1524, "HY000"),
    READ_ONLY_VARIABLE(1238, "HY000"),
    SESSION_VARIABLE_IS_READ_ONLY(1621, "HY000"),
    NOT_SUPPORTED_YET(1235, "42000"),
    UNKNOWN_STATEMENT_HANDLER(1243, "HY000"),
    WRONG_ARGUMENTS(1210, "HY000"),
    WINDOW_RANGE_FRAME_ORDER_TYPE(3587, "HY000"),
    INCORRECT_VALUE(1366, "HY000"),
    DATA_TOO_LONG(1406, "22001"),
    NON_UNIQUE_COLUMN(1052, "23000"),
    TOO_BIG_PRECISION(1426, "42000"),
    TOO_BIG_SCALE(1425, "42000"),
    WRONG_FIELD_SPEC(1063, "42000"),
    INVALID_DEFAULT(1067, "42000"),
    DIVISION_BY_ZERO(1365, "22012"),
    UNKNOWN_THREAD_ID(1094, "HY000"),
    CONNECTION_KILLED(1927, "70100"),
    SUBQUERY_RETURNS_MORE_THAN_ONE_ROW(1242, "21000"),
    OPERAND_COLUMNS(1241, "21000"),
    TRUNCATED_WRONG_VALUE(1292, "22007"),
    DATA_TRUNCATED(1265, "01000"),
    CANNOT_USER(1396, "HY000"),
    NONEXISTING_GRANT(1141, "42000"),
    SPECIFIC_ACCESS_DENIED(1227, "42000"),
    /** "'db.t' is not VIEW" / "is not BASE TABLE". */
    WRONG_OBJECT(1347, "HY000"),
    VIEW_WRONG_LIST(1353, "HY000"),
    VIEW_SELECTS_TEMPORARY_TABLE(1352, "HY000"),
    /** TiDB's "No access path for table ... is found with 'tidb_isolation_read_engines' = ...". */
    NO_ACCESS_PATH(1815, "HY000"),
    VIEW_INVALID(1356, "HY000"),
    VIEW_RECURSIVE(1462, "HY000"),
    NON_UPDATABLE_TABLE(1288, "HY000"),
    /** ORDER BY or LIMIT in a multiple-table UPDATE or DELETE. */
    WRONG_USAGE(1221, "HY000"),

    NON_INSERTABLE_TABLE(1471, "HY000"),
    /** MySQL's "Server shutdown in progress": a server stopped while it was still starting or waiting. */
    SERVER_SHUTDOWN(1053, "08S01"),
    /** A selected column neither grouped nor functionally dependent on the grouped ones (ONLY_FULL_GROUP_BY). */
    WRONG_FIELD_WITH_GROUP(1055, "42000"),
    /** An aggregating SELECT without GROUP BY that also selects a column (ONLY_FULL_GROUP_BY). */
    MIX_OF_GROUP_FUNC_AND_FIELDS(1140, "42000"),
    INVALID_GROUP_FUNCTION_USE(1111, "HY000"),
    NON_UNIQUE_TABLE(1066, "42000"),
    SELECTS_DIFFERENT_COLUMN_COUNTS(1222, "21000"),
    /** "Result consisted of more than one row": SELECT ... INTO variables of a query with several. */
    RESULT_HAS_MORE_THAN_ONE_ROW(1172, "42000"),
    /** "No data - zero rows fetched, selected, or processed" (a warning). */
    NO_DATA(1329, "02000"),
    FUNCTION_DOES_NOT_EXIST(1305, "42000"),
    WRONG_PARAMETER_COUNT(1582, "42000"),
    FIELD_IN_ORDER_NOT_SELECT(3065, "HY000"),
    WINDOW_NOT_DEFINED(3579, "HY000"),
    /** "Incorrect foreign key definition for 'x': Key reference and table reference don't match". */
    WRONG_FOREIGN_KEY(1239, "42000"),
    DUPLICATE_FOREIGN_KEY(1826, "HY000"),
    /** "Cannot delete or update a parent row: a foreign key constraint fails (...)". */
    ROW_IS_REFERENCED(1451, "23000"),
    /** "Cannot add or update a child row: a foreign key constraint fails (...)". */
    NO_REFERENCED_ROW(1452, "23000"),
    /** "Cannot truncate a table referenced in a foreign key constraint (...)". */
    TRUNCATE_ILLEGAL_FOREIGN_KEY(1701, "42000"),
    /** "Cannot drop table 'p' referenced by a foreign key constraint 'fk' on table 'c'." */
    FOREIGN_KEY_CANNOT_DROP_PARENT(3730, "HY000"),
    /** "Failed to add the foreign key constraint. Missing index for constraint 'fk' in the referenced table 'p'". */
    FOREIGN_KEY_NO_INDEX_IN_PARENT(1822, "HY000"),
    /** "Failed to add the foreign key constraint. Missing column 'c' for constraint 'fk' in the referenced table 'p'". */
    FOREIGN_KEY_NO_COLUMN_IN_PARENT(3734, "HY000"),
    /** "Failed to open the referenced table 'p'". */
    FOREIGN_KEY_CANNOT_OPEN_PARENT(1824, "HY000"),
    /** "Foreign key cascade delete/update exceeds max depth of 15." */
    FOREIGN_KEY_DEPTH_EXCEEDED(3008, "HY000"),
    /** "Column 'c' cannot be NOT NULL: needed in a foreign key constraint 'fk' SET NULL". */
    FOREIGN_KEY_COLUMN_NOT_NULL(1830, "HY000"),
    /** "Referencing column 'c' and referenced column 'p' in foreign key constraint 'fk' are incompatible." */
    FOREIGN_KEY_INCOMPATIBLE_COLUMNS(3780, "HY000"),
    UNKNOWN_CHARACTER_SET(1115, "42000"),
    UNKNOWN_COLLATION(1273, "HY000"),
    /** "COLLATION 'x' is not valid for CHARACTER SET 'y'". */
    COLLATION_CHARSET_MISMATCH(1253, "42000"),
    /** "Illegal mix of collations (a,IMPLICIT) and (b,IMPLICIT) for operation '='". */
    ILLEGAL_MIX_OF_COLLATIONS(1267, "HY000"),
    /** "Cannot execute statement in a READ ONLY transaction." */
    READ_ONLY_TRANSACTION(1792, "25006"),
    /** "Transaction characteristics can't be changed while a transaction is in progress". */
    TRANSACTION_CHARACTERISTICS_IN_PROGRESS(1568, "25001"),

    // TiDB's distributed-system errors.
    TRANSACTION_RETRYABLE(8002, "HY000"),
    TRANSACTION_TOO_LARGE(8004, "HY000"),
    SCHEMA_OUT_OF_DATE(8027, "HY000"),
    SCHEMA_CHANGED(8028, "HY000"),
    /** TiDB's: a statement went over tidb_mem_quota_query. */
    MEMORY_QUOTA_EXCEEDED(8175, "HY000"),
    /** TiDB's ErrAsOf: a stale or historical read's timestamp is not one that can be read (in the future). */
    INVALID_READ_TIMESTAMP(8135, "HY000"),
    /** TiDB's IMPORT INTO errors: an unsupported FORMAT, a bad or unreadable source, bad options, failed checks. */
    IMPORT_UNSUPPORTED_FORMAT(8157, "HY000"),
    IMPORT_INVALID_URI(8158, "HY000"),
    IMPORT_CANNOT_ACCESS(8159, "HY000"),
    IMPORT_WRONG_FORMAT_CONFIG(8162, "HY000"),
    IMPORT_UNSUPPORTED_OPTION(8166, "HY000"),
    IMPORT_PRECHECK_FAILED(8173, "HY000"),
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
