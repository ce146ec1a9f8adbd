package io.duetdb.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.junit.jupiter.api.Test;

class PhysicalPlannerTest {
    private static PhysicalPlan plan(RelNode root) {
        return new PhysicalPlanner(null, QueryExecution.compiler(root), false, null).plan(root);
    }

    private static List<Join> joins(RelNode node, List<Join> found) {
        if (node instanceof Join join) {
            found.add(join);
        }
        node.getInputs().forEach(input -> joins(input, found));
        return found;
    }

    @Test
    void aJoinOnEqualitiesIsAHashJoinAndOneWithoutANestedLoop() {
        RelNode equi = QueryExecution.plan("SELECT * FROM (VALUES (1), (2)) AS a(x) JOIN (VALUES (2), (3)) AS b(y)"
                + " ON a.x = b.y").plan();
        RelNode theta = QueryExecution.plan("SELECT * FROM (VALUES (1), (2)) AS a(x) JOIN (VALUES (2), (3)) AS b(y)"
                + " ON a.x < b.y").plan();

        PhysicalPlan.JoinMethod hash = plan(equi).join(joins(equi, new ArrayList<>()).get(0));
        PhysicalPlan.JoinMethod loop = plan(theta).join(joins(theta, new ArrayList<>()).get(0));

        assertThat(hash.name()).isEqualTo("HashJoin");
        assertThat(hash.lookupOuterRows()).isEqualTo(-1);
        assertThat(hash.mergeKeys()).isNull();
        assertThat(loop.name()).isEqualTo("NestedLoopJoin");
    }

    @Test
    void anOperatorSeveralOthersReadIsPlannedOnce() {
        RelNode root = QueryExecution.plan("SELECT x, (SELECT COUNT(*) FROM (VALUES (1), (2)) AS s(y) WHERE s.y <= t.x)"
                + " FROM (VALUES (1), (2), (3)) AS t(x)").plan();
        PhysicalPlan plan = plan(root);

        Map<RelNode, PhysicalPlan.PhysicalOperator> seen = new IdentityHashMap<>();
        List<PhysicalPlan.PhysicalOperator> pending = new ArrayList<>(List.of(plan.root()));
        int visits = 0;
        while (!pending.isEmpty()) {
            PhysicalPlan.PhysicalOperator operator = pending.remove(pending.size() - 1);
            visits++;
            PhysicalPlan.PhysicalOperator earlier = seen.putIfAbsent(operator.logical(), operator);
            assertThat(earlier == null || earlier == operator).isTrue();
            pending.addAll(operator.children());
            assertThat(plan.operator(operator.logical())).isSameAs(operator);
        }
        assertThat(seen).isNotEmpty();
        // The decorrelated subquery reads the outer VALUES again: one operator, reached from two parents.
        assertThat(visits).isGreaterThan(seen.size());
    }

    @Test
    void withoutATransactionNothingGoesToTheStores() {
        RelNode root = QueryExecution.plan("SELECT x, COUNT(*) FROM (VALUES (1), (2), (2)) AS t(x) GROUP BY x"
                + " ORDER BY x LIMIT 1").plan();
        PhysicalPlan plan = plan(root);

        List<PhysicalPlan.PhysicalOperator> pending = new ArrayList<>(List.of(plan.root()));
        while (!pending.isEmpty()) {
            PhysicalPlan.PhysicalOperator operator = pending.remove(0);
            assertThat(operator.storeRead()).isNull();
            assertThat(operator.tableReader()).isNull();
            pending.addAll(operator.children());
        }
        assertThat(plan.root().logical()).isSameAs(root);
    }
}
