package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.sql.prepare.QueryPlanner;

class PlanExplainerTest {
    private static List<String> explain(String sql, String lock) {
        QueryPlanner.PlannedQuery planned = QueryExecution.plan(sql);
        return new PlanExplainer(null, QueryExecution.compiler(planned.plan())).explain(planned.plan(), lock).stream()
                .map(line -> line.id() + " | " + line.operatorInfo()).toList();
    }

    @Test
    void aLockingQueryIsTheQuerysPlanWithSelectLockAboveWhereItsRowsAreRead() {
        String sql = "SELECT a, COUNT(*) FROM (VALUES (1), (2), (2)) AS t(a) WHERE a > 0 GROUP BY a ORDER BY a LIMIT 5";
        List<String> plain = explain(sql, null);
        List<String> locking = explain(sql, "for update nowait");
        assertThat(plain).noneMatch(line -> line.contains("SelectLock"));
        assertThat(locking).hasSize(plain.size() + 1);
        int lock = locking.indexOf(locking.stream().filter(line -> line.contains("SelectLock")).findFirst().orElseThrow());
        assertThat(locking.get(lock)).endsWith("| for update nowait");
        // Above the filter that reads the rows, below the aggregation, sort and limit.
        assertThat(locking.subList(0, lock)).anyMatch(line -> line.contains("HashAgg")).anyMatch(line -> line.contains("TopN"));
        assertThat(locking.get(lock + 1)).contains("Selection");
        String indent = locking.get(lock).substring(0, locking.get(lock).indexOf("SelectLock"));
        for (int i = lock + 1; i < locking.size(); i++) {
            assertThat(locking.get(i)).startsWith(indent.replace("└─", "  ").replace("├─", "│ "));
            String before = plain.get(i - 1);
            assertThat(locking.get(i).strip()).endsWith(before.strip().replaceFirst("^[│ ├└─]*", ""));
        }
    }
}
