package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.junit.jupiter.api.Test;

class HashJoinTest {
    private static final String LEFT = "(VALUES (1, 'a'), (2, 'b'), (2, 'bb'), (CAST(NULL AS INT), 'n'), (4, 'd'))"
            + " AS l(k, v)";
    private static final String RIGHT = "(VALUES (CAST(1 AS DECIMAL(5, 2)), 'x'), (2.0, 'y'), (2.00, 'yy'),"
            + " (CAST(NULL AS DECIMAL(5, 2)), 'z'), (3.0, 'w')) AS r(k, w)";

    @Test
    void joinsEveryTypeByKeyAsTheNestedLoopDoes() {
        for (String type : new String[] {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
            String select = "SELECT l.v, r.w FROM " + LEFT + " " + type + " " + RIGHT;
            assertThat(rows(select + " ON l.k = r.k")).as(type)
                    .containsExactlyInAnyOrderElementsOf(rows(select + " ON l.k <= r.k AND l.k >= r.k"));
        }
        assertThat(rows("SELECT l.v, r.w FROM " + LEFT + " FULL JOIN " + RIGHT + " ON l.k = r.k"))
                .containsExactlyInAnyOrder("a|x", "b|y", "b|yy", "bb|y", "bb|yy", "n|null", "d|null", "null|z",
                        "null|w");
    }

    @Test
    void eitherInputCanBeTheBuildSideOfEveryJoinType() {
        String sql = "SELECT l.v, r.w FROM " + LEFT + " JOIN " + RIGHT + " ON l.k = r.k AND l.v < r.w";
        JoinKeys keys = keysOf(sql);
        ExpressionCompiler compiler = QueryExecution.compiler(QueryExecution.plan(sql).plan());
        // The plan's join inputs are (v, k) and (w, k), k cast to DECIMAL; keys, then l.v < r.w on the pairs.
        java.util.List<Object[]> left = java.util.List.of(new Object[] {"a", 1}, new Object[] {"b", 2},
                new Object[] {"z", 2}, new Object[] {"n", null}, new Object[] {"d", 4}, new Object[] {"b", 2});
        java.util.List<Object[]> right = java.util.List.of(new Object[] {"x", new BigDecimal("1.0")},
                new Object[] {"c", 2}, new Object[] {"a", 2}, new Object[] {"q", null}, new Object[] {"w", 3});
        java.util.Map<org.apache.calcite.rel.core.JoinRelType, java.util.List<String>> expected = java.util.Map.of(
                org.apache.calcite.rel.core.JoinRelType.INNER, java.util.List.of("a|1|x|1.0", "b|2|c|2", "b|2|c|2"),
                org.apache.calcite.rel.core.JoinRelType.LEFT, java.util.List.of("a|1|x|1.0", "b|2|c|2", "b|2|c|2",
                        "z|2|null|null", "n|null|null|null", "d|4|null|null"),
                org.apache.calcite.rel.core.JoinRelType.RIGHT, java.util.List.of("a|1|x|1.0", "b|2|c|2", "b|2|c|2",
                        "null|null|a|2", "null|null|q|null", "null|null|w|3"),
                org.apache.calcite.rel.core.JoinRelType.FULL, java.util.List.of("a|1|x|1.0", "b|2|c|2", "b|2|c|2",
                        "z|2|null|null", "n|null|null|null", "d|4|null|null", "null|null|a|2", "null|null|q|null",
                        "null|null|w|3"),
                org.apache.calcite.rel.core.JoinRelType.SEMI, java.util.List.of("a|1", "b|2", "b|2"),
                org.apache.calcite.rel.core.JoinRelType.ANTI, java.util.List.of("z|2", "n|null", "d|4"));
        for (var type : expected.entrySet()) {
            for (boolean buildLeft : new boolean[] {true, false}) {
                HashJoin join = new HashJoin(type.getKey(), keys, compiler, 2, 2);
                java.util.List<String> rows = join.join(left, right, buildLeft).stream()
                        .map(row -> java.util.Arrays.stream(row).map(String::valueOf)
                                .collect(java.util.stream.Collectors.joining("|")))
                        .toList();
                assertThat(rows).as("%s built on the %s", type.getKey(), buildLeft ? "left" : "right")
                        .containsExactlyInAnyOrderElementsOf(type.getValue());
            }
        }
    }

    @Test
    void splitsEqualitiesBetweenTheInputsFromTheRest() {
        JoinKeys keys = keysOf("SELECT l.v FROM " + LEFT + " JOIN " + RIGHT
                + " ON l.k = r.k AND r.w = l.v AND l.k < r.k + 1 AND r.k = 2");
        assertThat(keys.leftKeys()).hasSize(2);
        assertThat(keys.nullSafe()).containsExactly(false, false);
        assertThat(keys.remaining().toString()).contains("<");
        assertThat(keysOf("SELECT l.v FROM " + LEFT + " JOIN " + RIGHT + " ON l.k <= r.k AND l.k >= r.k")).isNull();
        JoinKeys factored = keysOf("SELECT l.v FROM " + LEFT + " JOIN " + RIGHT
                + " ON (l.k = r.k AND l.v = 'a') OR (r.k = l.k AND r.w = 'y')");
        assertThat(factored.leftKeys()).hasSize(1);
        assertThat(factored.remaining().getKind()).isEqualTo(org.apache.calcite.sql.SqlKind.OR);
        assertThat(rows("SELECT l.v, r.w FROM " + LEFT + " JOIN " + RIGHT
                + " ON (l.k = r.k AND l.v = 'a') OR (r.k = l.k AND r.w = 'y')")).containsExactlyInAnyOrder("a|x",
                "b|y", "bb|y");
    }

    private static JoinKeys keysOf(String sql) {
        RelNode plan = QueryExecution.plan(sql).plan();
        Join[] join = new Join[1];
        plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (other instanceof Join found) {
                    join[0] = found;
                }
                return super.visit(other);
            }
        });
        assertThat(join[0]).as("a join in %s", sql).isNotNull();
        return JoinKeys.of(join[0], plan.getCluster().getRexBuilder());
    }

    @Test
    void testsTheRemainingConditionOnCandidatePairs() {
        assertThat(rows("SELECT l.v, r.w FROM " + LEFT + " LEFT JOIN " + RIGHT
                + " ON l.k = r.k AND CHAR_LENGTH(l.v) = CHAR_LENGTH(r.w)"))
                .containsExactlyInAnyOrder("a|x", "b|y", "bb|yy", "n|null", "d|null");
    }

    @Test
    void semiAndAntiJoinsReturnEachLeftRowOnce() {
        assertThat(rows("SELECT l.v FROM " + LEFT + " WHERE EXISTS (SELECT 1 FROM " + RIGHT + " WHERE r.k = l.k)"))
                .containsExactlyInAnyOrder("a", "b", "bb");
        assertThat(rows("SELECT l.v FROM " + LEFT + " WHERE NOT EXISTS (SELECT 1 FROM " + RIGHT
                + " WHERE r.k = l.k)")).containsExactlyInAnyOrder("n", "d");
    }

    @Test
    void nullSafeKeysMatchNulls() {
        assertThat(keysOf("SELECT l.v FROM " + LEFT + " JOIN " + RIGHT + " ON l.k IS NOT DISTINCT FROM r.k")
                .nullSafe()).containsExactly(true);
        assertThat(rows("SELECT l.v, r.w FROM " + LEFT + " JOIN " + RIGHT + " ON l.k IS NOT DISTINCT FROM r.k"))
                .containsExactlyInAnyOrder("a|x", "b|y", "b|yy", "bb|y", "bb|yy", "n|z");
        assertThat(rows("SELECT l.v, r.w FROM " + LEFT + " JOIN " + RIGHT + " ON l.k <=> r.k AND r.w <> 'yy'"))
                .containsExactlyInAnyOrder("a|x", "b|y", "bb|y", "n|z");
        assertThat(rows("SELECT 1 <=> NULL, NULL <=> NULL, 1 + 1 <=> 2, 2 <=> 1 + 1")).containsExactly("0|1|1|1");
    }

    @Test
    void numbersAndDatesOfDifferentTypesAreOneKey() {
        assertThat(new GroupKey(new Object[] {1L, LocalDate.of(2026, 1, 2)}))
                .isEqualTo(new GroupKey(new Object[] {new BigDecimal("1.00"), LocalDate.of(2026, 1, 2).atStartOfDay()}))
                .hasSameHashCodeAs(new GroupKey(new Object[] {1.0, LocalDate.of(2026, 1, 2).atStartOfDay()}));
    }
}
