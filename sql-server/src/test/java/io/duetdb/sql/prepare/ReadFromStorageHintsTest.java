package io.duetdb.sql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.duetdb.sql.exec.StorageHints;
import io.duetdb.sql.exec.StorageHints.Engine;
import io.duetdb.sql.parser.StatementParser;

class ReadFromStorageHintsTest {
    private final List<String> warnings = new ArrayList<>();

    private StorageHints hints(String sql) {
        return ReadFromStorageHints.of(StatementParser.parse(sql), warnings::add);
    }

    @Test
    void enginesGoToTheTablesTheyNameByNameOrAlias() {
        StorageHints hints = hints("SELECT /*+ READ_FROM_STORAGE(TIFLASH[a, orders], tikv[c]) */ * FROM lineitem a"
                + " JOIN orders ON a.k = orders.k JOIN db.customer AS c ON c.k = a.k");
        assertThat(hints.engines()).isEqualTo(Map.of("lineitem", Engine.TIFLASH, "orders", Engine.TIFLASH,
                "customer", Engine.TIKV));
        assertThat(warnings).isEmpty();
        assertThat(hints.engineOf("LINEITEM")).contains(Engine.TIFLASH);
        assertThat(hints.engineOf("nation")).isEmpty();
    }

    @Test
    void hintsOfSubqueriesAndLockingOrExplainedQueriesCount() {
        assertThat(hints("SELECT * FROM t WHERE k IN (SELECT /*+ READ_FROM_STORAGE(TIFLASH[s]) */ k FROM s)").engines())
                .isEqualTo(Map.of("s", Engine.TIFLASH));
        assertThat(hints("EXPLAIN SELECT /*+ READ_FROM_STORAGE(TIKV[t]) */ * FROM t").engines())
                .isEqualTo(Map.of("t", Engine.TIKV));
        assertThat(hints("SELECT * FROM t").engines()).isEmpty();
    }

    @Test
    void whatAHintCannotUseIsAWarning() {
        assertThat(hints("SELECT /*+ READ_FROM_STORAGE(TIFLASH[nowhere]) */ * FROM t").engines()).isEmpty();
        assertThat(hints("SELECT /*+ READ_FROM_STORAGE(COLUMNS[t]) */ * FROM t").engines()).isEmpty();
        assertThat(hints("SELECT /*+ READ_FROM_STORAGE(t) */ * FROM t").engines()).isEmpty();
        assertThat(warnings).hasSize(3);
        assertThat(warnings.get(0)).contains("no matching table names for (nowhere)");
        assertThat(warnings.get(1)).contains("COLUMNS");
        assertThat(warnings.get(2)).contains("is not written as");
    }
}
