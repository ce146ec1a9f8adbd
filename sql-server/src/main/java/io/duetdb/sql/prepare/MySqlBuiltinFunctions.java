package io.duetdb.sql.prepare;

import java.util.Locale;
import java.util.Set;

/**
 * The names of MySQL 8.0's built-in functions, so that one DuetDB lacks is reported as not supported yet (1235)
 * rather than as a function that does not exist (1305), which MySQL says only of names it has no function for.
 */
final class MySqlBuiltinFunctions {
    private static final Set<String> NAMES = Set.of("ABS", "ACOS", "ADDDATE", "ADDTIME", "AES_DECRYPT",
            "AES_ENCRYPT", "ANY_VALUE", "ASCII", "ASIN", "ATAN", "ATAN2", "AVG", "BENCHMARK", "BIN", "BIN_TO_UUID",
            "BIT_AND", "BIT_COUNT", "BIT_LENGTH", "BIT_OR", "BIT_XOR", "CEIL", "CEILING", "CHAR", "CHAR_LENGTH",
            "CHARACTER_LENGTH", "CHARSET", "COALESCE", "COERCIBILITY", "COLLATION", "COMPRESS", "CONCAT", "CONCAT_WS",
            "CONNECTION_ID", "CONV", "CONVERT_TZ", "COS", "COT", "COUNT", "CRC32", "CUME_DIST", "CURDATE",
            "CURRENT_DATE", "CURRENT_ROLE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_USER", "CURTIME", "DATABASE",
            "DATE", "DATE_ADD", "DATE_FORMAT", "DATE_SUB", "DATEDIFF", "DAY", "DAYNAME", "DAYOFMONTH", "DAYOFWEEK",
            "DAYOFYEAR", "DEGREES", "DENSE_RANK", "ELT", "EXP", "EXPORT_SET", "EXTRACT", "EXTRACTVALUE", "FIELD",
            "FIND_IN_SET", "FIRST_VALUE", "FLOOR", "FORMAT", "FORMAT_BYTES", "FORMAT_PICO_TIME", "FOUND_ROWS",
            "FROM_BASE64", "FROM_DAYS", "FROM_UNIXTIME", "GET_FORMAT", "GET_LOCK", "GREATEST", "GROUP_CONCAT",
            "GROUPING", "GTID_SUBSET", "GTID_SUBTRACT", "HEX", "HOUR", "ICU_VERSION", "IF", "IFNULL", "INET_ATON",
            "INET_NTOA", "INET6_ATON", "INET6_NTOA", "INSERT", "INSTR", "INTERVAL", "IS_FREE_LOCK", "IS_IPV4",
            "IS_IPV4_COMPAT", "IS_IPV4_MAPPED", "IS_IPV6", "IS_USED_LOCK", "IS_UUID", "ISNULL", "JSON_ARRAY",
            "JSON_ARRAY_APPEND", "JSON_ARRAY_INSERT", "JSON_ARRAYAGG", "JSON_CONTAINS", "JSON_CONTAINS_PATH",
            "JSON_DEPTH", "JSON_EXTRACT", "JSON_INSERT", "JSON_KEYS", "JSON_LENGTH", "JSON_MERGE", "JSON_MERGE_PATCH",
            "JSON_MERGE_PRESERVE", "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_OVERLAPS", "JSON_PRETTY", "JSON_QUOTE",
            "JSON_REMOVE", "JSON_REPLACE", "JSON_SCHEMA_VALID", "JSON_SCHEMA_VALIDATION_REPORT", "JSON_SEARCH",
            "JSON_SET", "JSON_STORAGE_FREE", "JSON_STORAGE_SIZE", "JSON_TABLE", "JSON_TYPE", "JSON_UNQUOTE",
            "JSON_VALID", "JSON_VALUE", "LAG", "LAST_DAY", "LAST_INSERT_ID", "LAST_VALUE", "LCASE", "LEAD", "LEAST",
            "LEFT", "LENGTH", "LN", "LOAD_FILE", "LOCALTIME", "LOCALTIMESTAMP", "LOCATE", "LOG", "LOG10", "LOG2",
            "LOWER", "LPAD", "LTRIM", "MAKE_SET", "MAKEDATE", "MAKETIME", "MAX", "MD5", "MICROSECOND", "MID", "MIN",
            "MINUTE", "MOD", "MONTH", "MONTHNAME", "NAME_CONST", "NOW", "NTH_VALUE", "NTILE", "NULLIF", "OCT",
            "OCTET_LENGTH", "ORD", "PERCENT_RANK", "PERIOD_ADD", "PERIOD_DIFF", "PI", "POSITION", "POW", "POWER",
            "PS_CURRENT_THREAD_ID", "PS_THREAD_ID", "QUARTER", "QUOTE", "RADIANS", "RAND", "RANDOM_BYTES", "RANK",
            "REGEXP_INSTR", "REGEXP_LIKE", "REGEXP_REPLACE", "REGEXP_SUBSTR", "RELEASE_ALL_LOCKS", "RELEASE_LOCK",
            "REPEAT", "REPLACE", "REVERSE", "RIGHT", "ROUND", "ROW_COUNT", "ROW_NUMBER", "RPAD", "RTRIM", "SCHEMA",
            "SEC_TO_TIME", "SECOND", "SESSION_USER", "SHA", "SHA1", "SHA2", "SIGN", "SIN", "SLEEP", "SOUNDEX", "SPACE",
            "SQRT", "STATEMENT_DIGEST", "STATEMENT_DIGEST_TEXT", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP",
            "STR_TO_DATE", "STRCMP", "SUBDATE", "SUBSTR", "SUBSTRING", "SUBSTRING_INDEX", "SUBTIME", "SUM", "SYSDATE",
            "SYSTEM_USER", "TAN", "TIME", "TIME_FORMAT", "TIME_TO_SEC", "TIMEDIFF", "TIMESTAMP", "TIMESTAMPADD",
            "TIMESTAMPDIFF", "TO_BASE64", "TO_DAYS", "TO_SECONDS", "TRIM", "TRUNCATE", "UCASE", "UNCOMPRESS",
            "UNCOMPRESSED_LENGTH", "UNHEX", "UNIX_TIMESTAMP", "UPDATEXML", "UPPER", "USER", "UTC_DATE", "UTC_TIME",
            "UTC_TIMESTAMP", "UUID", "UUID_SHORT", "UUID_TO_BIN", "VALIDATE_PASSWORD_STRENGTH", "VALUES", "VAR_POP",
            "VAR_SAMP", "VARIANCE", "VERSION", "WAIT_FOR_EXECUTED_GTID_SET", "WEEK", "WEEKDAY", "WEEKOFYEAR",
            "WEIGHT_STRING", "YEAR", "YEARWEEK");

    private MySqlBuiltinFunctions() {
    }

    /** Whether MySQL 8.0 has a built-in function of the name (its spatial ST_ and MBR functions included). */
    static boolean contains(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return NAMES.contains(upper) || upper.startsWith("ST_") || upper.startsWith("MBR");
    }
}
