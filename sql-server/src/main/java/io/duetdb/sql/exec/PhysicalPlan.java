package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;

/**
 * The physical plan of one statement, decided once from its optimized logical plan before anything is read: for
 * each operator, whether the stores' coprocessors compute it (with the task they run), which path the SQL layer
 * reads a table by, and which algorithm each join runs. The executor instantiates these decisions and EXPLAIN prints
 * them, so that what EXPLAIN shows is what runs. Operators that several others read appear once.
 */
final class PhysicalPlan {
    private final PhysicalOperator root;
    private final Map<RelNode, PhysicalOperator> operators;

    private PhysicalPlan(PhysicalOperator root, Map<RelNode, PhysicalOperator> operators) {
        this.root = requireNonNull(root, "root is null");
        this.operators = operators;
    }

    /** A plan of the operators reachable from {@code root}. */
    static PhysicalPlan of(PhysicalOperator root) {
        Map<RelNode, PhysicalOperator> operators = new IdentityHashMap<>();
        collect(root, operators);
        return new PhysicalPlan(root, operators);
    }

    private static void collect(PhysicalOperator operator, Map<RelNode, PhysicalOperator> operators) {
        if (operators.putIfAbsent(operator.logical(), operator) == null) {
            operator.children().forEach(child -> collect(child, operators));
        }
    }

    PhysicalOperator root() {
        return root;
    }

    /** The physical operator of a logical one, or null when the plan reads it as part of another (inside a task). */
    PhysicalOperator operator(RelNode node) {
        return operators.get(node);
    }

    /** The stores' read that computes {@code node}, or null when the SQL layer computes it. */
    CoprocessorPlanner.StoreRead storeRead(RelNode node) {
        PhysicalOperator operator = operators.get(node);
        return operator == null ? null : operator.storeRead();
    }

    /** Whether any operator runs as an MPP read. */
    boolean anyMppRead() {
        return operators.values().stream().anyMatch(operator -> operator.mppRead() != null);
    }

    /** The MPP read that computes {@code node} on the learners, or null. */
    MppRead mppRead(RelNode node) {
        PhysicalOperator operator = operators.get(node);
        return operator == null ? null : operator.mppRead();
    }

    /** How {@code join} runs; a nested loop for a join this plan does not hold. */
    JoinMethod join(Join join) {
        PhysicalOperator operator = operators.get(join);
        return operator == null || operator.join() == null ? JoinMethod.NONE : operator.join();
    }

    /**
     * One operator. {@code storeRead} is set when the stores compute it (a scan chain, or an aggregation, top N or
     * limit over one), {@code tableReader} when the SQL layer reads a table itself (point gets, index lookups,
     * locking reads), {@code join} for joins, {@code mppRead} when the learners compute it with everything below it
     * in MPP fragments; {@code children} are the operators the SQL layer runs below it.
     */
    record PhysicalOperator(RelNode logical, List<PhysicalOperator> children, CoprocessorPlanner.StoreRead storeRead,
            TableReader tableReader, JoinMethod join, MppRead mppRead) {
        PhysicalOperator {
            requireNonNull(logical, "logical is null");
            children = List.copyOf(children);
        }

        PhysicalOperator(RelNode logical, List<PhysicalOperator> children, CoprocessorPlanner.StoreRead storeRead,
                TableReader tableReader, JoinMethod join) {
            this(logical, children, storeRead, tableReader, join, null);
        }
    }

    /**
     * How a join reads and matches its sides. {@code lookupOuterRows} is the most outer rows whose keys the inner rows
     * are looked up by ({@code lookup} says through what), or -1 when lookups do not apply; past it, or when lookups
     * cost more than reading the inner side, the join falls back to the merge join by {@code mergeKeys} (the left
     * and right fields both inputs ascend by) when they are set, else to a hash join (a nested loop without
     * equalities).
     */
    record JoinMethod(long lookupOuterRows, HandleLookup lookup, int[] mergeKeys, boolean equalities) {
        static final JoinMethod NONE = new JoinMethod(-1, null, null, false);

        /** The algorithm planned to run first, as EXPLAIN names it. */
        String name() {
            if (lookupOuterRows >= 0) {
                return "IndexJoin";
            }
            return mergeKeys != null ? "MergeJoin" : equalities ? "HashJoin" : "NestedLoopJoin";
        }

        /** The algorithm a join falls back to when lookups do not serve. */
        String fallbackName() {
            return mergeKeys != null ? "MergeJoin" : equalities ? "HashJoin" : "NestedLoopJoin";
        }
    }
}
