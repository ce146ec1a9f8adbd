package io.duetdb.sql.session;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.exec.HandleLookup;
import io.duetdb.sql.exec.ScanCostModel;
import io.duetdb.sql.variables.TidbVariables;
import io.duetdb.sql.variables.TypedVariable;

/**
 * The system variables clients probe, with MySQL 8.0's defaults, and TiDB's ({@link TidbVariables}, typed);
 * sessions override them with SET.
 */
public final class SystemVariables {
    private static final Map<String, String> DEFAULTS = new TreeMap<>();
    /** Switches: MySQL shows them as 1 or 0 (a BIGINT in queries) and accepts ON, OFF, TRUE and FALSE too. */
    private static final Set<String> BOOLEANS = Set.of("autocommit", "foreign_key_checks", "performance_schema",
            "sql_auto_is_null", "sql_notes", "sql_quote_show_create", "sql_safe_updates", "transaction_read_only", "tx_read_only",
            "unique_checks");
    /**
     * Variables MySQL types as BIGINT in queries ({@code SELECT @@autocommit} gives the number 1, not the string
     * '1'; drivers map the column to an integer). sql_select_limit is BIGINT UNSIGNED in MySQL and stays text here.
     */
    private static final Set<String> INTEGERS = Set.of("auto_increment_increment", "auto_increment_offset",
            "autocommit", "foreign_key_checks", "innodb_lock_wait_timeout", "interactive_timeout", "lock_wait_timeout",
            "lower_case_table_names", "max_allowed_packet", "net_buffer_length", "net_read_timeout",
            "net_write_timeout", "performance_schema", "query_cache_size", "sql_auto_is_null", "sql_safe_updates",
            "transaction_read_only", "tx_read_only", "unique_checks", "wait_timeout", HandleLookup.MAX_OUTER_ROWS_VARIABLE);
    /** Non-negative numbers: the access path cost factors. */
    private static final Set<String> FACTORS = Set.of(ScanCostModel.SCAN_FACTOR_VARIABLE, ScanCostModel.SEEK_FACTOR_VARIABLE,
            ScanCostModel.LEARNER_READ_COST_VARIABLE);

    static {
        DEFAULTS.put("auto_increment_increment", "1");
        DEFAULTS.put("auto_increment_offset", "1");
        DEFAULTS.put("autocommit", "1");
        DEFAULTS.put("character_set_client", "utf8mb4");
        DEFAULTS.put("character_set_connection", "utf8mb4");
        DEFAULTS.put("character_set_database", "utf8mb4");
        DEFAULTS.put("character_set_results", "utf8mb4");
        DEFAULTS.put("character_set_server", "utf8mb4");
        DEFAULTS.put("collation_connection", "utf8mb4_bin");
        DEFAULTS.put("collation_database", "utf8mb4_bin");
        DEFAULTS.put("collation_server", "utf8mb4_bin");
        DEFAULTS.put("default_storage_engine", "InnoDB");
        DEFAULTS.put("init_connect", "");
        DEFAULTS.put("interactive_timeout", "28800");
        DEFAULTS.put("license", "Apache License 2.0");
        DEFAULTS.put("lower_case_table_names", "2");
        // Fixed by the server's configuration (SessionManager.configuredVariable); these are only the defaults.
        DEFAULTS.put("max_allowed_packet", "67108864");
        DEFAULTS.put("default_authentication_plugin", "mysql_native_password");
        DEFAULTS.put("net_buffer_length", "16384");
        DEFAULTS.put("net_read_timeout", "30");
        DEFAULTS.put("net_write_timeout", "60");
        DEFAULTS.put("performance_schema", "0");
        DEFAULTS.put("query_cache_size", "0");
        DEFAULTS.put("query_cache_type", "OFF");
        DEFAULTS.put("sql_mode", "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                + "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION");
        DEFAULTS.put("sql_select_limit", "18446744073709551615");
        DEFAULTS.put("system_time_zone", "UTC");
        DEFAULTS.put("time_zone", "SYSTEM");
        DEFAULTS.put("transaction_isolation", "REPEATABLE-READ");
        DEFAULTS.put("tx_isolation", "REPEATABLE-READ");
        DEFAULTS.put("transaction_read_only", "0");
        DEFAULTS.put("tx_read_only", "0");
        DEFAULTS.put("wait_timeout", "28800");
        DEFAULTS.put("version_comment", "DuetDB");
        DEFAULTS.put("innodb_lock_wait_timeout", "50");
        DEFAULTS.put("cte_max_recursion_depth", "1000");
        DEFAULTS.put("lock_wait_timeout", "31536000");
        DEFAULTS.put("duet_coprocessor_push_down", "ON");
        DEFAULTS.put("duet_vectorized_execution", "ON");
        DEFAULTS.put(ScanCostModel.SCAN_FACTOR_VARIABLE, plain(ScanCostModel.DEFAULT.scanFactor()));
        DEFAULTS.put(ScanCostModel.SEEK_FACTOR_VARIABLE, plain(ScanCostModel.DEFAULT.seekFactor()));
        DEFAULTS.put(ScanCostModel.LEARNER_READ_COST_VARIABLE, plain(ScanCostModel.DEFAULT_LEARNER_READ_COST));
        DEFAULTS.put(HandleLookup.MAX_OUTER_ROWS_VARIABLE, Long.toString(HandleLookup.DEFAULT_MAX_OUTER_ROWS));
        DEFAULTS.put("sql_auto_is_null", "0");
        DEFAULTS.put("sql_safe_updates", "0");
        DEFAULTS.put("foreign_key_checks", "1");
        DEFAULTS.put("sql_notes", "1");
        DEFAULTS.put("sql_quote_show_create", "1");
        DEFAULTS.put("unique_checks", "1");
        DEFAULTS.put("names", "utf8mb4");
        for (TypedVariable variable : TidbVariables.all()) {
            DEFAULTS.put(variable.name(), variable.defaultValue());
        }
    }

    private SystemVariables() {
    }

    private static String plain(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    public static boolean exists(String name) {
        return DEFAULTS.containsKey(name.toLowerCase(Locale.ROOT));
    }

    public static String defaultValue(String name) {
        return DEFAULTS.get(name.toLowerCase(Locale.ROOT));
    }

    /** True for variables that queries read as BIGINT. */
    public static boolean isInteger(String name) {
        return INTEGERS.contains(name.toLowerCase(Locale.ROOT))
                || TidbVariables.find(name).map(TypedVariable::readsAsInteger).orElse(false);
    }

    /** Whether the variable has a global value (all but TiDB's session-only ones). */
    public static boolean hasGlobalScope(String name) {
        return TidbVariables.find(name).map(variable -> variable.scope().hasGlobal()).orElse(true);
    }

    /**
     * The value SET stores for {@code name}: switches as 1 or 0, integers checked (1232 otherwise, as MySQL),
     * other values as written.
     */
    static String normalise(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        if (BOOLEANS.contains(key)) {
            return switch (value.toUpperCase(Locale.ROOT)) {
                case "1", "ON", "TRUE" -> "1";
                case "0", "OFF", "FALSE" -> "0";
                default -> throw new DuetException(ErrorCode.WRONG_VALUE_FOR_VARIABLE,
                        "Variable '" + key + "' can't be set to the value of '" + value + "'");
            };
        }
        if (FACTORS.contains(key)) {
            double factor;
            try {
                factor = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new DuetException(ErrorCode.WRONG_TYPE_FOR_VARIABLE, "Incorrect argument type to variable '"
                        + key + "'");
            }
            if (!(factor >= 0) || Double.isInfinite(factor)) {
                throw new DuetException(ErrorCode.WRONG_VALUE_FOR_VARIABLE,
                        "Variable '" + key + "' can't be set to the value of '" + value + "'");
            }
            return value;
        }
        if (INTEGERS.contains(key)) {
            try {
                return Long.toString(Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw new DuetException(ErrorCode.WRONG_TYPE_FOR_VARIABLE, "Incorrect argument type to variable '"
                        + key + "'");
            }
        }
        return value;
    }

    public static Map<String, String> defaults() {
        return DEFAULTS;
    }
}
