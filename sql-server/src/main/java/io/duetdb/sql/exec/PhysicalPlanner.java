package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.sql.prepare.DuetTable;

/**
 * Turns an optimized logical plan into its {@link PhysicalPlan}, top down: an operator the stores' coprocessors can
 * compute with everything below it (a scan chain, or an aggregation, top N or limit over one) becomes a read with its
 * task; a table the SQL layer reads itself gets its access path; each join gets its algorithm. Nothing is read.
 */
final class PhysicalPlanner {
    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    private final boolean locking;
    /** Null when nothing goes to the coprocessors (no transaction, a locking read, push-down switched off). */
    private final CoprocessorPlanner coprocessor;
    private final Map<RelNode, PhysicalPlan.PhysicalOperator> planned = new IdentityHashMap<>();

    PhysicalPlanner(Transaction transaction, ExpressionCompiler compiler, boolean locking, CoprocessorPlanner coprocessor) {
        this.transaction = transaction;
        this.compiler = compiler;
        this.locking = locking;
        this.coprocessor = coprocessor;
    }

    PhysicalPlan plan(RelNode root) {
        PhysicalPlan plan = PhysicalPlan.of(operator(root));
        if (coprocessor != null && MppPlanner.enforced(compiler.session()) && !plan.anyMppRead() && joinsOrAggregates(root)) {
            // TiDB's warning: the statement runs, without MPP.
            compiler.session().planWarning("MPP mode may be blocked because the plan's joins and aggregations do not"
                    + " all read tables with available columnar replicas, or use what MPP does not run yet (outer, semi"
                    + " or anti joins, DISTINCT aggregates, join keys of different types)");
        }
        return plan;
    }

    private static boolean joinsOrAggregates(RelNode node) {
        return node instanceof Join || node instanceof Aggregate
                || node.getInputs().stream().anyMatch(PhysicalPlanner::joinsOrAggregates);
    }

    private PhysicalPlan.PhysicalOperator operator(RelNode node) {
        PhysicalPlan.PhysicalOperator operator = planned.get(node);
        if (operator == null) {
            operator = build(node);
            planned.put(node, operator);
        }
        return operator;
    }

    private PhysicalPlan.PhysicalOperator build(RelNode node) {
        MppRead mpp = coprocessor == null ? null : MppPlanner.plan(node, coprocessor, compiler, coprocessor.memory());
        if (mpp != null) {
            return new PhysicalPlan.PhysicalOperator(node, List.of(), null, null, null, mpp);
        }
        CoprocessorPlanner.StoreRead read = coprocessor == null ? null : storeRead(node);
        if (read != null) {
            return new PhysicalPlan.PhysicalOperator(node, List.of(), read, null, null);
        }
        if (node instanceof TableScan scan) {
            return new PhysicalPlan.PhysicalOperator(node, List.of(), null, tableReader(scan, null), null);
        }
        if (node instanceof Filter filter && filter.getInput() instanceof TableScan scan) {
            return new PhysicalPlan.PhysicalOperator(node, List.of(), null, tableReader(scan, filter.getCondition()), null);
        }
        List<PhysicalPlan.PhysicalOperator> children = new ArrayList<>();
        for (RelNode input : node.getInputs()) {
            children.add(operator(input));
        }
        return new PhysicalPlan.PhysicalOperator(node, children, null, null,
                node instanceof Join join ? joinMethod(join) : null);
    }

    private CoprocessorPlanner.StoreRead storeRead(RelNode node) {
        if (node instanceof Aggregate aggregate) {
            CoprocessorTask task = coprocessor.planAggregate(aggregate);
            return task == null ? null : new CoprocessorPlanner.StoreRead(task, null);
        }
        if (node instanceof Sort sort) {
            long kept = keptRows(sort);
            CoprocessorTask task = kept < 0 ? null
                    : coprocessor.planTopN(sort.getInput(), sort.getCollation().getFieldCollations(), kept);
            return task == null ? null : new CoprocessorPlanner.StoreRead(task, null);
        }
        if (node instanceof Project || node instanceof TableScan
                || node instanceof Filter filter && filter.getInput() instanceof TableScan) {
            return coprocessor.planRead(node);
        }
        return null;
    }

    /** The rows a LIMIT (with its offset) keeps, or -1 without one or when a placeholder's value is not known yet. */
    private long keptRows(Sort sort) {
        try {
            SortWindow window = SortWindow.of(sort, compiler);
            return window.limited() ? window.kept() : -1;
        } catch (RuntimeException e) {
            // EXPLAIN of a prepared statement: the placeholder has no value.
            return -1;
        }
    }

    /** The path the SQL layer reads a table by, or null for a table that is not a DuetDB table. */
    private TableReader tableReader(TableScan scan, RexNode condition) {
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null || transaction == null) {
            return null;
        }
        return TableReader.create(transaction, new TableAccess(table.table()), condition, compiler, locking,
                AccessPathEstimator.of(table, transaction, compiler.session()));
    }

    private PhysicalPlan.JoinMethod joinMethod(Join join) {
        JoinKeys keys = JoinKeys.of(join, compiler.rexBuilder());
        long maxOuterRows = HandleLookup.maxOuterRows(compiler.session());
        HandleLookup lookup = keys == null || transaction == null || locking || maxOuterRows <= 0 ? null
                : HandleLookup.of(join, keys);
        return new PhysicalPlan.JoinMethod(lookup == null ? -1 : maxOuterRows, lookup, mergeKeys(join, keys), keys != null);
    }

    /** The left and right fields a merge join walks, or null when the inputs' order does not allow one. */
    private int[] mergeKeys(Join join, JoinKeys keys) {
        if (keys == null || !MergeJoin.supports(join.getJoinType())) {
            return null;
        }
        int leftField = ascendingField(join.getLeft());
        int rightField = leftField < 0 ? -1 : ascendingField(join.getRight());
        if (rightField < 0) {
            return null;
        }
        for (int i = 0; i < keys.leftKeys().size(); i++) {
            if (!keys.nullSafe().get(i) && keys.leftKeys().get(i) instanceof RexInputRef leftKey
                    && keys.rightKeys().get(i) instanceof RexInputRef rightKey && leftKey.getIndex() == leftField
                    && rightKey.getIndex() == rightField && isInteger(leftKey.getType()) && isInteger(rightKey.getType())) {
                return new int[] {leftField, rightField};
            }
        }
        return null;
    }

    private static boolean isInteger(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
            default -> false;
        };
    }

    /**
     * The field by which the node's rows ascend, or -1 when that is not known: records scanned from the stores come
     * in clustered-key order (regions in key order), a covering index's entries in their first column's order,
     * and filters and plain projections keep the order.
     */
    private int ascendingField(RelNode node) {
        if (coprocessor == null) {
            return -1;
        }
        if (node instanceof TableScan scan) {
            return scanOrder(scan, null);
        }
        if (node instanceof Filter filter) {
            return filter.getInput() instanceof TableScan scan ? scanOrder(scan, filter.getCondition())
                    : ascendingField(filter.getInput());
        }
        if (node instanceof Project project) {
            Integer pushed = coprocessor.ascendingField(project);
            if (pushed != null) {
                return pushed;
            }
            int input = ascendingField(project.getInput());
            for (int i = 0; input >= 0 && i < project.getProjects().size(); i++) {
                if (project.getProjects().get(i) instanceof RexInputRef reference && reference.getIndex() == input) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** The clustered key's position in a record range scan's rows, or -1 for another path or no clustered key. */
    private int scanOrder(TableScan scan, RexNode condition) {
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null || table.table().handleColumn() == null) {
            return -1;
        }
        TableReader reader = TableReader.create(transaction, new TableAccess(table.table()), condition, compiler, locking,
                AccessPathEstimator.of(table, transaction, compiler.session()));
        if (reader.recordRange() == null) {
            return -1;
        }
        List<ColumnInfo> columns = table.table().publicColumns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(String.valueOf(table.table().handleColumn()))) {
                return i;
            }
        }
        return -1;
    }
}
