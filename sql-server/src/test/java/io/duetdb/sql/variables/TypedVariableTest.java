package io.duetdb.sql.variables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;

class TypedVariableTest {
    private static TypedVariable variable(String name) {
        return TidbVariables.find(name).orElseThrow();
    }

    private static int errorOf(TypedVariable variable, String value) {
        try {
            variable.assign(value);
        } catch (DuetException e) {
            return e.code().errorNumber();
        }
        throw new AssertionError("expected an error for " + value);
    }

    @Test
    void integersAreCheckedAndClampedIntoTheirBounds() {
        TypedVariable concurrency = variable("tidb_build_stats_concurrency");
        assertThat(concurrency.assign("16")).isEqualTo(new Assignment("16", Optional.empty()));
        assertThat(concurrency.assign(" 7 ").value()).isEqualTo("7");
        assertThat(concurrency.assign("0")).isEqualTo(new Assignment("1",
                Optional.of("Truncated incorrect tidb_build_stats_concurrency value: '0'")));
        assertThat(concurrency.assign("99999999999999999999999").value()).isEqualTo("256");
        assertThat(errorOf(concurrency, "x")).isEqualTo(1232);
        assertThat(errorOf(concurrency, "1.5")).isEqualTo(1232);
        assertThat(errorOf(concurrency, "")).isEqualTo(1232);
        // -1 only where TiDB decides automatically.
        assertThat(concurrency.assign("-1").value()).isEqualTo("1");
        assertThat(variable("tidb_hash_join_concurrency").assign("-1")).isEqualTo(new Assignment("-1", Optional.empty()));
        assertThat(variable("tidb_hash_join_concurrency").assign("-2").value()).isEqualTo("1");
        assertThat(variable("tidb_mem_quota_query").assign("-1").value()).isEqualTo("-1");
    }

    @Test
    void switchesChoicesAndDecimals() {
        TypedVariable pushDown = variable("tidb_opt_agg_push_down");
        assertThat(pushDown.assign("1").value()).isEqualTo("ON");
        assertThat(pushDown.assign("off").value()).isEqualTo("OFF");
        assertThat(pushDown.assign("TRUE").value()).isEqualTo("ON");
        assertThat(errorOf(pushDown, "2")).isEqualTo(1231);
        assertThat(variable("tidb_txn_mode").assign("OPTIMISTIC").value()).isEqualTo("optimistic");
        assertThat(variable("tidb_txn_mode").assign("").value()).isEqualTo("");
        assertThat(errorOf(variable("tidb_txn_mode"), "eventual")).isEqualTo(1231);
        TypedVariable threshold = variable("tidb_opt_correlation_threshold");
        assertThat(threshold.assign("0.50").value()).isEqualTo("0.5");
        assertThat(threshold.assign("2").value()).isEqualTo("1");
        assertThat(threshold.assign("2").warning()).isPresent();
        assertThat(errorOf(threshold, "high")).isEqualTo(1232);
        assertThat(variable("tidb_isolation_read_engines").assign("TiFlash , tikv").value()).isEqualTo("tiflash,tikv");
        assertThat(errorOf(variable("tidb_isolation_read_engines"), "tikv,disk")).isEqualTo(1231);
        assertThat(variable("tidb_auto_analyze_start_time").assign("1:30 +0800").value()).isEqualTo("01:30 +0800");
        assertThat(errorOf(variable("tidb_auto_analyze_start_time"), "25:00")).isEqualTo(1231);
        assertThat(variable("tidb_snapshot").assign("400036290571534337").value()).isEqualTo("400036290571534337");
        assertThat(variable("tidb_snapshot").assign("2017-11-11 20:20:20").value()).isEqualTo("2017-11-11 20:20:20");
        assertThat(errorOf(variable("tidb_snapshot"), "yesterday")).isEqualTo(1231);
    }

    @Test
    void durationsAreGoDurationsWithinBounds() {
        TypedVariable lifeTime = variable("tidb_gc_life_time");
        assertThat(lifeTime.defaultValue()).isEqualTo("10m0s");
        assertThat(lifeTime.assign("24h").value()).isEqualTo("24h0m0s");
        assertThat(lifeTime.assign("1h30m").value()).isEqualTo("1h30m0s");
        assertThat(lifeTime.assign("90m").value()).isEqualTo("1h30m0s");
        assertThat(lifeTime.assign("1m")).isEqualTo(new Assignment("10m0s",
                Optional.of("Truncated incorrect tidb_gc_life_time value: '1m'")));
        assertThat(lifeTime.assign("100000h").value()).isEqualTo("8760h0m0s");
        assertThat(errorOf(lifeTime, "soon")).isEqualTo(1232);
        assertThat(errorOf(lifeTime, "10")).isEqualTo(1232);
        assertThat(GoDurations.format(1_500)).isEqualTo("1.5s");
        assertThat(GoDurations.format(500)).isEqualTo("500ms");
        assertThat(GoDurations.format(0)).isEqualTo("0s");
        assertThat(GoDurations.format(61_000)).isEqualTo("1m1s");
        assertThat(GoDurations.parseMillis("1.5s")).hasValue(1_500);
        assertThat(GoDurations.parseMillis("2h45m10s")).hasValue(9_910_000);
        assertThat(GoDurations.parseMillis("0")).hasValue(0);
        assertThat(GoDurations.parseMillis("5x")).isEmpty();
        assertThat(GoDurations.parseMillis("m")).isEmpty();
    }

    @Test
    void everyDefaultIsAValueOfItsOwnVariable() {
        for (TypedVariable variable : TidbVariables.all()) {
            assertThat(variable.assign(variable.defaultValue()).value()).as(variable.name())
                    .isEqualTo(variable.defaultValue());
            assertThat(variable.name()).matches("(tidb|duet)_.*");
        }
        assertThat(TidbVariables.find("TIDB_BUILD_STATS_CONCURRENCY")).isPresent();
        assertThat(TidbVariables.find("tidb_no_such_variable")).isEmpty();
    }

    @Test
    void scopesAreTidbs() {
        assertThat(variable("tidb_gc_life_time").scope()).isEqualTo(VariableScope.GLOBAL);
        assertThat(variable("tidb_snapshot").scope()).isEqualTo(VariableScope.SESSION);
        assertThat(variable("tidb_distsql_scan_concurrency").scope()).isEqualTo(VariableScope.SESSION_AND_GLOBAL);
        assertThat(VariableScope.GLOBAL.hasSession()).isFalse();
        assertThat(VariableScope.SESSION.hasGlobal()).isFalse();
    }
}
