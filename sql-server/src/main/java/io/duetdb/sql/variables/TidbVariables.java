package io.duetdb.sql.variables;

import static io.duetdb.sql.variables.VariableScope.GLOBAL;
import static io.duetdb.sql.variables.VariableScope.SESSION;
import static io.duetdb.sql.variables.VariableScope.SESSION_AND_GLOBAL;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * TiDB's system variables that TiDB's tools and drivers set, with TiDB's scopes, types, defaults and bounds, so that
 * SET accepts them as TiDB does. Those that mean something here take effect (the names in the constants below);
 * the others are stored and shown.
 */
public final class TidbVariables {
    /** The rows an index backfill writes per transaction (the server's backfill-batch-size until set). */
    public static final String DDL_REORG_BATCH_SIZE = "tidb_ddl_reorg_batch_size";
    public static final String DDL_REORG_WORKER_COUNT = "tidb_ddl_reorg_worker_cnt";
    /** ADD INDEX imports a non-unique index's entries at the backfill's snapshot instead of writing transactions. */
    public static final String DDL_ENABLE_FAST_REORG = "tidb_ddl_enable_fast_reorg";
    /** The regions a coprocessor read has in flight at once. */
    public static final String DISTSQL_SCAN_CONCURRENCY = "tidb_distsql_scan_concurrency";
    /** The share of a table's rows modified since its last ANALYZE that triggers the next. */
    public static final String AUTO_ANALYZE_RATIO = "tidb_auto_analyze_ratio";
    /** Every statement logged at INFO on the server that runs it. */
    public static final String GENERAL_LOG = "tidb_general_log";
    /** How long garbage collection keeps old versions at least (a service safe point; placement's own is the floor). */
    public static final String GC_LIFE_TIME = "tidb_gc_life_time";
    /** The point in time a session reads at (history): a timestamp, or a date and time in UTC. */
    public static final String SNAPSHOT = "tidb_snapshot";
    /**
     * DuetDB's own bounded staleness for reads outside transactions: a Go duration ('50ms'); when the learners'
     * resolved timestamp is at most that old, reads take it and learners serve them without the leader.
     */
    public static final String MAX_STALENESS = "duet_max_staleness";
    /** DuetDB's read-ahead, its value of TiDB's tidb_distsql_scan_concurrency (TiDB's default is 15). */
    public static final int DEFAULT_SCAN_CONCURRENCY = 4;

    private static final BigDecimal MAX_INT32 = BigDecimal.valueOf(Integer.MAX_VALUE);
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal MAX_UINT64 = new BigDecimal("18446744073709551615");
    private static final Map<String, TypedVariable> VARIABLES = build();

    private TidbVariables() {
    }

    public static Optional<TypedVariable> find(String name) {
        return Optional.ofNullable(VARIABLES.get(name.toLowerCase(Locale.ROOT)));
    }

    public static List<TypedVariable> all() {
        return List.copyOf(VARIABLES.values());
    }

    private static Map<String, TypedVariable> build() {
        List<TypedVariable> list = new ArrayList<>();
        // Concurrency and batch sizes of TiDB's executors (-1: derived from tidb_executor_concurrency).
        list.add(integer("tidb_build_stats_concurrency", SESSION_AND_GLOBAL, 2, 1, 256));
        list.add(integer("tidb_build_sampling_stats_concurrency", SESSION_AND_GLOBAL, 2, 1, 256));
        list.add(integer(DISTSQL_SCAN_CONCURRENCY, SESSION_AND_GLOBAL, DEFAULT_SCAN_CONCURRENCY, 1, 256));
        list.add(integer("tidb_index_serial_scan_concurrency", SESSION_AND_GLOBAL, 1, 1, 256));
        list.add(integer("tidb_index_lookup_size", SESSION_AND_GLOBAL, 20000, 1, MAX_INT32));
        list.add(automatic("tidb_index_lookup_concurrency", 256));
        list.add(automatic("tidb_index_lookup_join_concurrency", 256));
        list.add(integer("tidb_index_join_batch_size", SESSION_AND_GLOBAL, 25000, 1, MAX_INT32));
        list.add(automatic("tidb_hash_join_concurrency", 256));
        list.add(automatic("tidb_projection_concurrency", 256));
        list.add(automatic("tidb_hashagg_partial_concurrency", 256));
        list.add(automatic("tidb_hashagg_final_concurrency", 256));
        list.add(automatic("tidb_window_concurrency", 256));
        list.add(integer("tidb_merge_join_concurrency", SESSION_AND_GLOBAL, 1, 1, 256));
        list.add(integer("tidb_streamagg_concurrency", SESSION_AND_GLOBAL, 1, 1, 256));
        list.add(integer("tidb_executor_concurrency", SESSION_AND_GLOBAL, 5, 1, 256));
        list.add(integer("tidb_checksum_table_concurrency", SESSION, 4, 1, 256));
        list.add(integer("tidb_analyze_version", SESSION_AND_GLOBAL, 2, 1, 2));
        list.add(integer("tidb_init_chunk_size", SESSION_AND_GLOBAL, 32, 1, 32));
        list.add(integer("tidb_max_chunk_size", SESSION_AND_GLOBAL, 1024, 32, MAX_INT32));
        // The optimizer.
        list.add(switchOf("tidb_opt_agg_push_down", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_distinct_agg_push_down", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_insubq_to_join_and_agg", SESSION_AND_GLOBAL, true));
        list.add(decimal("tidb_opt_correlation_threshold", SESSION_AND_GLOBAL, "0.9", BigDecimal.ZERO, BigDecimal.ONE));
        list.add(integer("tidb_opt_correlation_exp_factor", SESSION_AND_GLOBAL, 1, 0, MAX_INT32));
        list.add(switchOf("tidb_opt_write_row_id", SESSION, false));
        list.add(switchOf("tidb_opt_broadcast_join", SESSION_AND_GLOBAL, false));
        list.add(integer("tidb_opt_broadcast_cartesian_join", SESSION_AND_GLOBAL, 1, 0, 2));
        list.add(switchOf("tidb_opt_mpp_outer_join_fixed_build_side", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_enable_correlation_adjustment", SESSION_AND_GLOBAL, true));
        list.add(integer("tidb_opt_limit_push_down_threshold", SESSION_AND_GLOBAL, 100, 0, MAX_INT32));
        list.add(integer("tidb_opt_join_reorder_threshold", SESSION_AND_GLOBAL, 0, 0, 63));
        list.add(switchOf("tidb_opt_prefer_range_scan", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_projection_push_down", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_skew_distinct_agg", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_three_stage_distinct_agg", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_opt_force_inline_cte", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_advanced_join_hint", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_opt_enable_late_materialization", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_opt_enable_hash_join", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_opt_derive_topn", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_opt_prefix_index_single_scan", SESSION_AND_GLOBAL, true));
        list.add(integer("tidb_opt_range_max_size", SESSION_AND_GLOBAL, 67108864, 0, MAX_INT64));
        list.add(decimal("tidb_opt_ordering_index_selectivity_threshold", SESSION_AND_GLOBAL, "0", BigDecimal.ZERO,
                BigDecimal.ONE));
        list.add(text("tidb_opt_fix_control", SESSION_AND_GLOBAL, ""));
        list.add(choice("tidb_opt_objective", SESSION_AND_GLOBAL, "moderate", "moderate", "determinate"));
        for (String[] factor : new String[][] {{"cpu", "3"}, {"copcpu", "3"}, {"tiflash_concurrency", "24"},
                {"network", "1"}, {"scan", "1.5"}, {"desc", "3"}, {"seek", "20"}, {"memory", "0.001"}, {"disk", "1.5"},
                {"concurrency", "3"}}) {
            list.add(decimal("tidb_opt_" + factor[0] + "_factor", SESSION_AND_GLOBAL, factor[1], BigDecimal.ZERO,
                    MAX_UINT64));
        }
        // Features TiDB switches on and off.
        list.add(choice("tidb_enable_clustered_index", SESSION_AND_GLOBAL, "ON", "OFF", "ON", "INT_ONLY"));
        list.add(switchOf("tidb_enable_fast_analyze", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_index_merge", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_index_merge_join", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_vectorized_expression", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_window_function", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_pipelined_window_function", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_cascades_planner", SESSION_AND_GLOBAL, false));
        list.add(choice("tidb_enable_noop_functions", SESSION_AND_GLOBAL, "OFF", "OFF", "ON", "WARN"));
        list.add(switchOf("tidb_enable_async_commit", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_1pc", SESSION_AND_GLOBAL, true));
        list.add(choice("tidb_enable_table_partition", SESSION_AND_GLOBAL, "ON", "OFF", "ON", "AUTO"));
        list.add(switchOf("tidb_enable_list_partition", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_stmt_summary", GLOBAL, true));
        list.add(switchOf("tidb_enable_chunk_rpc", SESSION, true));
        list.add(switchOf("tidb_enable_collect_execution_info", GLOBAL, true));
        list.add(switchOf("tidb_enable_slow_log", GLOBAL, true));
        list.add(switchOf("tidb_enable_parallel_apply", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_rate_limit_action", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_amend_pessimistic_txn", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_telemetry", GLOBAL, false));
        list.add(switchOf("tidb_enable_paging", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_prepared_plan_cache", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_non_prepared_plan_cache", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_outer_join_reorder", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_null_aware_anti_join", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_auto_analyze", GLOBAL, true));
        list.add(switchOf("tidb_enable_mutation_checker", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_foreign_key", GLOBAL, true));
        list.add(switchOf("tidb_enable_metadata_lock", GLOBAL, true));
        list.add(switchOf("tidb_enable_exchange_partition", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_tmp_storage_on_oom", GLOBAL, true));
        list.add(switchOf("tidb_enable_reuse_chunk", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_strict_double_type_check", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_tso_follower_proxy", GLOBAL, false));
        list.add(switchOf("tidb_enable_ddl", GLOBAL, true));
        list.add(switchOf("tidb_enable_dist_task", GLOBAL, true));
        list.add(switchOf("tidb_enable_fast_create_table", GLOBAL, true));
        list.add(switchOf("tidb_enable_gc_aware_memory_track", GLOBAL, false));
        list.add(switchOf("tidb_enable_historical_stats", GLOBAL, false));
        list.add(switchOf("tidb_enable_top_sql", GLOBAL, false));
        list.add(switchOf("tidb_enable_unsafe_substitute", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_tiflash_read_for_write_stmt", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_resource_control", GLOBAL, true));
        list.add(switchOf("tidb_enable_plan_replayer_capture", GLOBAL, true));
        list.add(switchOf("tidb_enable_check_constraint", GLOBAL, false));
        list.add(switchOf("tidb_enable_auto_increment_in_generated", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_extended_stats", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_row_level_checksum", GLOBAL, false));
        list.add(switchOf("tidb_enable_ordered_result_mode", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_analyze_snapshot", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_pseudo_for_outdated_stats", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_enable_plan_cache_for_param_limit", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_plan_cache_for_subquery", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enable_instance_plan_cache", GLOBAL, false));
        list.add(switchOf("tidb_enable_column_tracking", GLOBAL, true));
        // Reading, TiFlash and MPP.
        list.add(new TypedVariable(SNAPSHOT, SESSION, VariableType.SNAPSHOT, "", null, null, false, List.of()));
        list.add(new TypedVariable("tidb_isolation_read_engines", SESSION, VariableType.ENGINE_LIST, "tikv,tiflash,tidb",
                null, null, false, List.of()));
        list.add(switchOf("tidb_allow_mpp", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_enforce_mpp", SESSION, false));
        list.add(integer("tidb_allow_batch_cop", SESSION_AND_GLOBAL, 1, 0, 2));
        list.add(integer("tidb_broadcast_join_threshold_count", SESSION_AND_GLOBAL, 10240, 0, MAX_INT64));
        list.add(integer("tidb_broadcast_join_threshold_size", SESSION_AND_GLOBAL, 104857600, 0, MAX_INT64));
        list.add(automatic("tidb_max_tiflash_threads", 256));
        list.add(choice("tidb_replica_read", SESSION_AND_GLOBAL, "leader", "leader", "follower", "leader-and-follower",
                "prefer-leader", "closest-replicas", "closest-adaptive", "learner"));
        list.add(integer("tidb_read_staleness", SESSION, 0, Long.MIN_VALUE, 0));
        list.add(new TypedVariable(MAX_STALENESS, SESSION_AND_GLOBAL, VariableType.DURATION, "0s", BigDecimal.ZERO,
                BigDecimal.valueOf(3_600_000L), false, List.of()));
        list.add(choice("tidb_partition_prune_mode", SESSION_AND_GLOBAL, "dynamic", "static", "dynamic"));
        list.add(integer("tidb_cost_model_version", SESSION_AND_GLOBAL, 2, 1, 2));
        // Memory, transactions and statements.
        list.add(integer("tidb_mem_quota_query", SESSION_AND_GLOBAL, 1073741824, -1, MAX_INT64));
        list.add(choice("tidb_txn_mode", SESSION_AND_GLOBAL, "pessimistic", "pessimistic", "optimistic", ""));
        list.add(integer("tidb_retry_limit", SESSION_AND_GLOBAL, 10, -1, MAX_INT64));
        list.add(switchOf("tidb_disable_txn_auto_retry", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_batch_insert", SESSION, false));
        list.add(switchOf("tidb_batch_delete", SESSION, false));
        list.add(switchOf("tidb_batch_commit", SESSION, false));
        list.add(integer("tidb_dml_batch_size", SESSION_AND_GLOBAL, 0, 0, MAX_INT32));
        list.add(switchOf("tidb_skip_isolation_level_check", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_constraint_check_in_place", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_constraint_check_in_place_pessimistic", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_skip_utf8_check", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_skip_ascii_check", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_low_resolution_tso", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_pessimistic_txn_fair_locking", SESSION_AND_GLOBAL, true));
        list.add(switchOf("tidb_rc_read_check_ts", SESSION_AND_GLOBAL, false));
        list.add(switchOf("tidb_guarantee_linearizability", SESSION_AND_GLOBAL, true));
        list.add(choice("tidb_txn_assertion_level", SESSION_AND_GLOBAL, "FAST", "OFF", "FAST", "STRICT"));
        list.add(integer("tidb_backoff_lock_fast", SESSION_AND_GLOBAL, 10, 1, MAX_INT32));
        list.add(integer("tidb_backoff_weight", SESSION_AND_GLOBAL, 2, 0, MAX_INT32));
        list.add(choice("tidb_multi_statement_mode", SESSION_AND_GLOBAL, "OFF", "OFF", "ON", "WARN"));
        list.add(choice("tidb_force_priority", SESSION_AND_GLOBAL, "NO_PRIORITY", "NO_PRIORITY", "LOW_PRIORITY",
                "HIGH_PRIORITY", "DELAYED"));
        list.add(text("tidb_session_alias", SESSION, ""));
        // Statistics.
        list.add(decimal(AUTO_ANALYZE_RATIO, GLOBAL, "0.5", BigDecimal.ZERO, MAX_UINT64));
        list.add(timeOfDay("tidb_auto_analyze_start_time", "00:00 +0000"));
        list.add(timeOfDay("tidb_auto_analyze_end_time", "23:59 +0000"));
        list.add(integer("tidb_stats_load_sync_wait", SESSION_AND_GLOBAL, 100, 0, MAX_INT32));
        list.add(switchOf("tidb_persist_analyze_options", GLOBAL, true));
        // Garbage collection: tidb_gc_life_time holds GC back (GcLifeTimeKeeper); the others are stored.
        list.add(switchOf("tidb_gc_enable", GLOBAL, true));
        list.add(duration(GC_LIFE_TIME, "10m0s", 600_000L, 8760L * 3_600_000));
        list.add(duration("tidb_gc_run_interval", "10m0s", 600_000L, 8760L * 3_600_000));
        list.add(new TypedVariable("tidb_gc_concurrency", GLOBAL, VariableType.INTEGER, "-1", BigDecimal.ONE,
                BigDecimal.valueOf(256), true, List.of()));
        // Logging.
        list.add(switchOf(GENERAL_LOG, GLOBAL, false));
        list.add(integer("tidb_slow_log_threshold", GLOBAL, 300, -1, MAX_INT64));
        list.add(integer("tidb_query_log_max_len", GLOBAL, 4096, 0, 1073741824));
        list.add(integer("tidb_expensive_query_time_threshold", GLOBAL, 60, 10, MAX_INT32));
        list.add(choice("tidb_redact_log", SESSION_AND_GLOBAL, "OFF", "OFF", "ON", "MARKER"));
        // DDL.
        list.add(integer(DDL_REORG_BATCH_SIZE, GLOBAL, 256, 32, 10240));
        list.add(integer(DDL_REORG_WORKER_COUNT, GLOBAL, 4, 1, 256));
        list.add(integer("tidb_ddl_error_count_limit", GLOBAL, 512, 0, MAX_INT64));
        list.add(choice("tidb_ddl_reorg_priority", SESSION, "PRIORITY_LOW", "PRIORITY_LOW", "PRIORITY_NORMAL",
                "PRIORITY_HIGH"));
        list.add(switchOf(DDL_ENABLE_FAST_REORG, GLOBAL, true));
        list.add(switchOf("tidb_scatter_region", GLOBAL, false));
        list.add(switchOf("tidb_wait_split_region_finish", SESSION, true));
        list.add(integer("tidb_wait_split_region_timeout", SESSION, 300, 1, MAX_INT32));
        list.add(integer("tidb_row_format_version", GLOBAL, 2, 1, 2));
        list.add(switchOf("tidb_allow_remove_auto_inc", SESSION_AND_GLOBAL, false));
        Map<String, TypedVariable> byName = new LinkedHashMap<>();
        for (TypedVariable variable : list) {
            if (byName.put(variable.name(), variable) != null) {
                throw new IllegalStateException("variable listed twice: " + variable.name());
            }
        }
        return java.util.Collections.unmodifiableMap(byName);
    }

    private static TypedVariable integer(String name, VariableScope scope, long defaultValue, long minimum,
            long maximum) {
        return integer(name, scope, defaultValue, minimum, BigDecimal.valueOf(maximum));
    }

    private static TypedVariable integer(String name, VariableScope scope, long defaultValue, long minimum,
            BigDecimal maximum) {
        return new TypedVariable(name, scope, VariableType.INTEGER, Long.toString(defaultValue),
                BigDecimal.valueOf(minimum), maximum, false, List.of());
    }

    /** An integer in [1, maximum] that also takes -1, its default ("decide automatically"). */
    private static TypedVariable automatic(String name, long maximum) {
        return new TypedVariable(name, SESSION_AND_GLOBAL, VariableType.INTEGER, "-1", BigDecimal.ONE,
                BigDecimal.valueOf(maximum), true, List.of());
    }

    private static TypedVariable decimal(String name, VariableScope scope, String defaultValue, BigDecimal minimum,
            BigDecimal maximum) {
        return new TypedVariable(name, scope, VariableType.DECIMAL, defaultValue, minimum, maximum, false, List.of());
    }

    private static TypedVariable switchOf(String name, VariableScope scope, boolean on) {
        return new TypedVariable(name, scope, VariableType.SWITCH, on ? "ON" : "OFF", null, null, false, List.of());
    }

    private static TypedVariable choice(String name, VariableScope scope, String defaultValue, String... choices) {
        return new TypedVariable(name, scope, VariableType.CHOICE, defaultValue, null, null, false, List.of(choices));
    }

    private static TypedVariable text(String name, VariableScope scope, String defaultValue) {
        return new TypedVariable(name, scope, VariableType.TEXT, defaultValue, null, null, false, List.of());
    }

    private static TypedVariable duration(String name, String defaultValue, long minimumMillis, long maximumMillis) {
        return new TypedVariable(name, GLOBAL, VariableType.DURATION, defaultValue, BigDecimal.valueOf(minimumMillis),
                BigDecimal.valueOf(maximumMillis), false, List.of());
    }

    private static TypedVariable timeOfDay(String name, String defaultValue) {
        return new TypedVariable(name, GLOBAL, VariableType.TIME_OF_DAY, defaultValue, null, null, false, List.of());
    }
}
