package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.sql.prepare.DuetTable;

/**
 * EXPLAIN in TiDB's shape: one line per operator with its estimated rows, where it runs ({@code root} in the SQL
 * server, {@code cop[tikv]} in the stores' coprocessors), the table it reads and what it does. The decisions are
 * the executor's own: the same push-down planner and access-path choice, made without reading any rows.
 * Estimated rows are Calcite's until statistics exist.
 */
public final class PlanExplainer {
    /** One operator. */
    public record Line(String id, String estimatedRows, String task, String accessObject, String operatorInfo,
            String actualRows, String executionInfo, String memory) {
    }

    private static final String ROOT = "root";
    private static final String ROW_COPROCESSOR = "cop[tikv]";
    private static final String LEARNER_COPROCESSOR = "cop[tiflash]";

    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    private final List<Line> lines = new ArrayList<>();
    /** The executor that ran the plan for EXPLAIN ANALYZE, or null for EXPLAIN. */
    private final PlanExecutor run;
    /** The physical plan drawn: the one {@link #run} ran, or the one an executor would run. */
    private PhysicalPlan plan;
    /** The locking clause of the query explained (for SelectLock), or null. */
    private String lock;
    /**
     * The operators from the root down to where the rows are read, through those that come after the locking read
     * in TiDB's plans (aggregation, projection, sort, limit), until SelectLock is drawn; identity set.
     */
    private final java.util.Set<RelNode> lockPath = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    public PlanExplainer(Transaction transaction, ExpressionCompiler compiler) {
        this(transaction, compiler, null);
    }

    /**
     * An explainer that adds what each operator did in {@code run} (EXPLAIN ANALYZE): actual rows, time and memory,
     * which joins read their inner side by lookups of the outer side's keys, and what the stores reported of their
     * coprocessor reads. Null for plain EXPLAIN.
     */
    public PlanExplainer(Transaction transaction, ExpressionCompiler compiler, PlanExecutor run) {
        this.run = run;
        this.transaction = transaction;
        this.compiler = compiler;
    }

    /** The physical plan of {@code root} as an executor for this query would decide it (a locking one for a lock). */
    private PhysicalPlan physicalPlan(RelNode root, boolean locking) {
        if (run != null && run.physicalPlan() != null) {
            return run.physicalPlan();
        }
        CoprocessorPlanner coprocessor = transaction != null && !locking && CoprocessorPlanner.enabled(compiler.session())
                ? new CoprocessorPlanner(transaction, compiler, MemoryTracker.unlimited()) : null;
        return new PhysicalPlanner(transaction, compiler, locking, coprocessor).plan(root);
    }

    /** Whether the join's inner side was read by lookups (EXPLAIN ANALYZE) or is planned to be (EXPLAIN). */
    private boolean readByLookup(Join join) {
        return run != null ? run.readByLookup(join) : plan.join(join).lookupOuterRows() >= 0;
    }

    /** The secondary index the join's inner rows were (or are planned to be) looked up through; null for the key. */
    private IndexInfo lookupIndex(Join join) {
        if (run != null) {
            return run.lookupIndex(join);
        }
        HandleLookup lookup = plan.join(join).lookup();
        return lookup == null || lookup.byClusteredKey() ? null : lookup.index();
    }

    /** The join's algorithm: the one that ran (EXPLAIN ANALYZE) or the one planned to run first (EXPLAIN). */
    private String joinName(Join join) {
        PhysicalPlan.JoinMethod method = plan.join(join);
        if (run == null) {
            return method.name();
        }
        return run.readByLookup(join) ? "IndexJoin" : run.mergedJoin(join) ? "MergeJoin"
                : method.equalities() ? "HashJoin" : "NestedLoopJoin";
    }

    public List<Line> explain(RelNode root) {
        return explain(root, null);
    }

    /**
     * The plan's lines; with {@code lock} (a locking clause, as {@code for update}), TiDB's SelectLock line with it
     * above where the rows are read: over the joins and filters, under aggregation, projection, sort and limit.
     */
    public List<Line> explain(RelNode root, String lock) {
        lines.clear();
        this.lock = lock;
        this.plan = physicalPlan(root, lock != null);
        lockPath.clear();
        if (lock != null) {
            RelNode node = root;
            lockPath.add(node);
            while ((node instanceof Project || node instanceof Sort || node instanceof Aggregate
                    || node instanceof org.apache.calcite.rel.core.Window) && node.getInputs().size() == 1) {
                node = node.getInput(0);
                lockPath.add(node);
            }
        }
        visit(root, "", "");
        return List.copyOf(lines);
    }

    private static String estimate(RelNode node) {
        RelMetadataQuery metadata = node.getCluster().getMetadataQuery();
        Double estimate = metadata.getRowCount(node);
        return estimate == null ? "" : String.format(Locale.ROOT, "%.2f", estimate);
    }

    private void add(String prefix, String name, RelNode estimateOf, String task, String access, String info) {
        String rows = estimateOf == null ? "" : estimate(estimateOf);
        PlanExecutor.OperatorStatistics actual = estimateOf == null || run == null ? null
                : run.statistics().get(estimateOf);
        lines.add(new Line(prefix + name, rows, task, access, info,
                actual == null ? "" : String.valueOf(actual.rows()),
                actual == null ? "" : String.format(Locale.ROOT, "time: %.3f ms", actual.nanos() / 1e6),
                actual == null ? "" : formatBytes(actual.bytes())));
    }

    /** A line whose actual rows and execution info come from the stores' reports, not from an operator's run. */
    private void addReported(String prefix, String name, RelNode estimateOf, String task, String access, String info,
            String actualRows, String executionInfo) {
        add(prefix, name, estimateOf, task, access, info);
        Line line = lines.remove(lines.size() - 1);
        lines.add(new Line(line.id(), line.estimatedRows(), line.task(), line.accessObject(), line.operatorInfo(),
                actualRows, executionInfo, ""));
    }

    private static String formatBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }

    /** Draws {@code node} under {@code prefix}; {@code childIndent} is what its children's lines start with. */
    private void visit(RelNode node, String prefix, String childIndent) {
        if (!lockPath.contains(node)) {
            visitOperator(node, prefix, childIndent);
            return;
        }
        int first = lines.size();
        visitOperator(node, prefix, childIndent);
        if (lockPath.isEmpty()) {
            return;
        }
        // The lowest operator on the way down to where the rows are read that has lines of its own (a pushed-down
        // read draws a whole subtree as one reader): SelectLock goes above it, its lines one level down.
        lockPath.clear();
        for (int i = first; i < lines.size(); i++) {
            Line line = lines.get(i);
            String id = i == first ? childIndent + "└─" + line.id().substring(prefix.length())
                    : childIndent + "  " + line.id().substring(childIndent.length());
            lines.set(i, new Line(id, line.estimatedRows(), line.task(), line.accessObject(), line.operatorInfo(),
                    line.actualRows(), line.executionInfo(), line.memory()));
        }
        lines.add(first, new Line(prefix + "SelectLock", estimate(node), ROOT, "", lock, "", "", ""));
    }

    private void visitOperator(RelNode node, String prefix, String childIndent) {
        PhysicalPlan.PhysicalOperator operator = plan.operator(node);
        if (operator != null && operator.mppRead() != null) {
            MppRead mpp = operator.mppRead();
            String reader = childIndent;
            if (!mpp.finishedOnLearners()) {
                add(prefix, "HashAgg", node, ROOT, "", "final merge of the learners' groups");
                prefix = childIndent + "└─";
                reader = childIndent + "  ";
            }
            add(prefix, "TableReader", mpp.finishedOnLearners() ? node : null, ROOT, "", "data:ExchangeSender, MPP: "
                    + mpp.query().getFragmentsCount() + " fragment(s)");
            String readerIndent = reader;
            new MppExplainer(mpp, (linePrefix, name, task, access, info) -> add(linePrefix, name, null, task, access, info))
                    .draw(readerIndent + "└─", readerIndent + "  ");
            return;
        }
        if (operator != null && operator.storeRead() != null) {
            visitStoreRead(node, operator.storeRead().rows(), prefix, childIndent);
            return;
        }
        TableReader tableReader = operator == null ? null : operator.tableReader();
        if (node instanceof TableScan scan) {
            readerLine(scan, null, tableReader, prefix);
            return;
        }
        if (node instanceof Filter filter && filter.getInput() instanceof TableScan scan) {
            readerLine(scan, filter, tableReader, prefix);
            return;
        }
        String name;
        String info;
        if (node instanceof Aggregate aggregate) {
            name = "HashAgg";
            info = aggregateInfo(aggregate);
        } else if (node instanceof Join join) {
            name = joinName(join);
            info = join.getJoinType().lowerName + " join, condition: " + describe(join.getCondition(), join.getLeft().getRowType(),
                    join.getRight().getRowType()) + (!readByLookup(join) ? "" : lookupIndex(join) == null
                            ? "; inner rows by clustered key lookups"
                            : "; inner rows through index " + lookupIndex(join).name() + " lookups")
                    + (run != null || !readByLookup(join) ? "" : "; " + plan.join(join).fallbackName() + " past "
                            + plan.join(join).lookupOuterRows() + " outer rows");
        } else if (node instanceof Sort sort) {
            name = sort.fetch != null && !sort.getCollation().getFieldCollations().isEmpty() ? "TopN"
                    : sort.fetch != null ? "Limit" : "Sort";
            info = sortInfo(sort);
        } else if (node instanceof Project project) {
            name = "Projection";
            info = projections(project.getProjects(), project.getInput().getRowType());
        } else if (node instanceof Filter filter) {
            name = "Selection";
            info = describe(filter.getCondition(), filter.getInput().getRowType(), null);
        } else if (node instanceof Union union) {
            name = union.all ? "Union" : "Union (distinct)";
            info = "";
        } else if (node instanceof RepeatUnion repeat) {
            name = repeat.all ? "RecursiveUnion" : "RecursiveUnion (distinct)";
            info = "steps until one adds no row";
        } else if (node instanceof Spool) {
            name = "WorkingTable";
            info = "rows the next step reads";
        } else if (node instanceof Minus || node instanceof Intersect) {
            name = (node instanceof Minus ? "Except" : "Intersect") + (((SetOp) node).all ? " (all)" : "");
            info = "";
        } else if (node instanceof Values values) {
            name = "Values";
            info = values.getTuples().size() + " row(s)";
        } else {
            name = node.getRelTypeName();
            info = "";
        }
        if (run != null && run.ranVectorized(node)) {
            info = info.isEmpty() ? "vectorized" : info + "; vectorized";
        }
        add(prefix, name, node, ROOT, "", info);
        if (node instanceof Join join && readByLookup(join)) {
            visit(join.getLeft(), childIndent + "├─", childIndent + "│ ");
            if (lookupIndex(join) == null) {
                add(childIndent + "└─", "PointGet", join.getRight(), ROOT, "table:" + lookedUpTable(join.getRight()),
                        "batch gets of the outer side's keys");
            } else {
                add(childIndent + "└─", "IndexLookUp", join.getRight(), ROOT, "table:" + lookedUpTable(join.getRight())
                        + ", index:" + lookupIndex(join).name(), "index entries of the outer side's keys, then batch"
                        + " gets of their rows");
            }
            return;
        }
        children(node.getInputs(), childIndent);
    }

    /** The table under an index join's inner projection and filter. */
    private static String lookedUpTable(RelNode node) {
        RelNode input = node;
        while (!(input instanceof TableScan) && !input.getInputs().isEmpty()) {
            input = input.getInput(0);
        }
        return input instanceof TableScan scan ? String.join(".", scan.getTable().getQualifiedName()) : "";
    }

    private void children(List<RelNode> inputs, String indent) {
        for (int i = 0; i < inputs.size(); i++) {
            boolean last = i == inputs.size() - 1;
            visit(inputs.get(i), indent + (last ? "└─" : "├─"), indent + (last ? "  " : "│ "));
        }
    }

    /** A node the stores compute: its SQL-side line (the final step), a reader, then the coprocessor's executors. */
    private void visitStoreRead(RelNode node, CoprocessorTask task, String prefix, String indent) {
        if (node instanceof Aggregate aggregate) {
            boolean streamed = task.dag().getExecutorsList().stream()
                    .anyMatch(executor -> executor.hasAggregation() && executor.getAggregation().getStreamed());
            add(prefix, streamed ? "StreamAgg" : "HashAgg", node, ROOT, "", aggregateInfo(aggregate)
                    + (streamed ? " (final, over partial results in group order)" : " (final, over partial results)"));
            reader(task, node, indent + "└─", indent + "  ");
            return;
        }
        if (node instanceof Sort sort) {
            add(prefix, sort.getCollation().getFieldCollations().isEmpty() ? "Limit" : "TopN", node, ROOT, "",
                    sortInfo(sort));
            String readerIndent = indent;
            if (sort.getInput() instanceof Project project) {
                add(indent + "└─", "Projection", project, ROOT, "", projections(project.getProjects(),
                        project.getInput().getRowType()));
                readerIndent = indent + "  ";
            }
            reader(task, node, readerIndent + "└─", readerIndent + "  ");
            return;
        }
        if (node instanceof Project project && !task.projectsInTheStores()) {
            add(prefix, "Projection", node, ROOT, "", projections(project.getProjects(), project.getInput().getRowType()));
            reader(task, node, indent + "└─", indent + "  ");
            return;
        }
        reader(task, node, prefix, indent);
    }

    /** The reader line and the coprocessor's executors, last first. */
    private void reader(CoprocessorTask pushed, RelNode estimateOf, String prefix, String indent) {
        String task = pushed.shape().fromLearners() ? LEARNER_COPROCESSOR : ROW_COPROCESSOR;
        if (!pushed.residualConditions().isEmpty()) {
            // Conditions the stores cannot evaluate: the SQL layer applies them to the rows that come back.
            add(prefix, "Selection", estimateOf, ROOT, "", "residual: " + String.join(" and ", pushed.residualConditions()));
            prefix = indent + "└─";
            indent = indent + "  ";
        }
        String readerInfo = "data: " + pushed.dag().getExecutorsCount() + " executor(s) in the stores, regions in"
                + " parallel" + (pushed.accessNote().isEmpty() ? "" : "; " + pushed.accessNote())
                + (pushed.shape().engineNote().isEmpty() ? "" : "; " + pushed.shape().engineNote());
        io.duetdb.client.txn.CoprocessorSummary summary = run == null ? null : run.coprocessorSummary(estimateOf);
        if (run == null) {
            add(prefix, "TableReader", estimateOf, ROOT, "", readerInfo);
        } else {
            addReported(prefix, "TableReader", estimateOf, ROOT, "", readerInfo,
                    summary == null ? "0" : String.valueOf(summary.returnedRows()), summary == null ? "not read"
                            : String.format(Locale.ROOT, "cop: %d region answer(s), store time: %.3f ms", summary.regions(),
                                    summary.storeNanos() / 1e6));
        }
        List<Executor> executors = pushed.dag().getExecutorsList();
        String current = indent;
        for (int i = executors.size() - 1; i >= 0; i--) {
            Executor executor = executors.get(i);
            String line = current + "└─";
            switch (executor.getKindCase()) {
                case TABLE_SCAN -> {
                    boolean full = java.util.Arrays.equals(pushed.shape().start(),
                            io.duetdb.common.keys.Keys.recordPrefix(executor.getTableScan().getTableId()))
                            && java.util.Arrays.equals(pushed.shape().end(),
                                    io.duetdb.common.keys.Keys.recordEnd(executor.getTableScan().getTableId()));
                    String scanInfo = executor.getTableScan().getColumnsCount() + " column(s) read";
                    if (run == null) {
                        add(line, full ? "TableFullScan" : "TableRangeScan", null, task, "table:" + pushed.table(),
                                scanInfo);
                    } else {
                        addReported(line, full ? "TableFullScan" : "TableRangeScan", null, task,
                                "table:" + pushed.table(), scanInfo, summary == null ? "0"
                                        : String.valueOf(summary.scannedRows()), "rows the stores' scans read");
                    }
                }
                case INDEX_SCAN -> {
                    long tableId = executor.getIndexScan().getTableId();
                    long indexId = executor.getIndexScan().getIndexId();
                    boolean full = java.util.Arrays.equals(pushed.shape().start(),
                            io.duetdb.common.keys.Keys.indexPrefix(tableId, indexId))
                            && java.util.Arrays.equals(pushed.shape().end(), io.duetdb.common.keys.Keys.indexEnd(tableId, indexId));
                    String access = "table:" + pushed.table() + ", index:" + pushed.shape().indexName();
                    String scanInfo = executor.getIndexScan().getOutputsCount() + " column(s) read";
                    if (run == null) {
                        add(line, full ? "IndexFullScan" : "IndexRangeScan", null, task, access, scanInfo);
                    } else {
                        addReported(line, full ? "IndexFullScan" : "IndexRangeScan", null, task, access, scanInfo,
                                summary == null ? "0" : String.valueOf(summary.scannedRows()),
                                "index entries the stores' scans read");
                    }
                }
                case SELECTION -> executorLine(line, "Selection", pushed.pushedConditions().isEmpty()
                        ? executor.getSelection().getConditionsCount() + " condition(s)"
                        : String.join(" and ", pushed.pushedConditions()), summary, i, task);
                case AGGREGATION -> executorLine(line, executor.getAggregation().getStreamed() ? "StreamAgg" : "HashAgg",
                        (executor.getAggregation().getStreamed() ? "in scan order, " : "") + "partial: "
                        + executor.getAggregation().getGroupByCount() + " group key(s), "
                        + executor.getAggregation().getCallsList().stream().map(call -> call.getFunction().name())
                                .toList(), summary, i, task);
                case TOP_N -> executorLine(line, "TopN", "limit " + executor.getTopN().getLimit() + " per region", summary, i, task);
                case PROJECTION -> executorLine(line, "Projection", String.join(", ", pushed.pushedProjections()), summary, i, task);
                case LIMIT -> executorLine(line, "Limit", "limit " + executor.getLimit().getLimit() + " per region", summary, i, task);
                default -> add(line, executor.getKindCase().name(), null, task, "", "");
            }
            current = current + "  ";
        }
    }

    /**
     * A coprocessor executor's line; under EXPLAIN ANALYZE with the rows it output in all regions and the time the
     * stores spent in it (its inputs included, regions added up).
     */
    private void executorLine(String prefix, String name, String info, io.duetdb.client.txn.CoprocessorSummary summary,
            int executor, String task) {
        if (run == null) {
            add(prefix, name, null, task, "", info);
            return;
        }
        long rows = summary == null ? 0 : Math.max(0, summary.executorRows(executor));
        long nanos = summary == null ? 0 : Math.max(0, summary.executorNanos(executor));
        addReported(prefix, name, null, task, "", info, String.valueOf(rows),
                String.format(Locale.ROOT, "store time: %.3f ms", nanos / 1e6));
    }

    /** A scan the SQL layer does itself: point gets, index lookups, or a scan with push-down off. */
    private void readerLine(TableScan scan, Filter filter, TableReader reader, String prefix) {
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null) {
            add(prefix, "MemTableScan", filter == null ? scan : filter, ROOT, "table:" + String.join(".",
                    scan.getTable().getQualifiedName()), filter == null ? "" : describe(filter.getCondition(),
                    scan.getRowType(), null));
            return;
        }
        if (reader == null) {
            add(prefix, "TableReader", filter == null ? scan : filter, ROOT, "table:" + table.table().name(), "");
            return;
        }
        add(prefix, reader.operatorName(), filter == null ? scan : filter, ROOT, reader.accessObject(),
                reader.describePath() + (filter == null ? "" : ", condition: " + describe(filter.getCondition(),
                        scan.getRowType(), null)));
    }

    private static String aggregateInfo(Aggregate aggregate) {
        RelDataType input = aggregate.getInput().getRowType();
        List<String> keys = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            keys.add(input.getFieldList().get(key).getName());
        }
        List<String> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            List<String> arguments = call.getArgList().stream().map(i -> input.getFieldList().get(i).getName()).toList();
            calls.add(call.getAggregation().getName().toLowerCase(Locale.ROOT) + "(" + (call.isDistinct() ? "distinct " : "")
                    + String.join(", ", arguments) + ")");
        }
        return (keys.isEmpty() ? "" : "group by: " + String.join(", ", keys) + "; ") + "funcs: " + String.join(", ", calls);
    }

    private String sortInfo(Sort sort) {
        RelDataType input = sort.getInput().getRowType();
        List<String> keys = new ArrayList<>();
        sort.getCollation().getFieldCollations().forEach(collation -> keys.add(input.getFieldList()
                .get(collation.getFieldIndex()).getName() + (collation.getDirection().isDescending() ? " desc" : "")));
        String order = keys.isEmpty() ? "" : "order by: " + String.join(", ", keys);
        String limit = sort.fetch == null ? "" : "limit: " + sort.fetch + (sort.offset == null ? "" : ", offset: " + sort.offset);
        return order.isEmpty() ? limit : limit.isEmpty() ? order : order + "; " + limit;
    }

    private static String projections(List<RexNode> projects, RelDataType input) {
        List<String> items = new ArrayList<>();
        for (RexNode project : projects) {
            items.add(describe(project, input, null));
        }
        return String.join(", ", items);
    }

    /** An expression with column names for input references (a join's right side continues the left's). */
    static String describe(RexNode node, RelDataType left, RelDataType right) {
        int leftCount = left.getFieldCount();
        return describe(node, index -> index < leftCount ? left.getFieldList().get(index).getName()
                : right == null ? "$" + index : right.getFieldList().get(index - leftCount).getName());
    }

    /** A literal as MySQL would write it. */
    private static String literal(RexLiteral literal) {
        if (literal.isNull()) {
            return "NULL";
        }
        org.apache.calcite.sql.type.SqlTypeFamily family = literal.getTypeName().getFamily();
        return switch (family == null ? org.apache.calcite.sql.type.SqlTypeFamily.ANY : family) {
            case CHARACTER -> "'" + literal.getValueAs(String.class).replace("'", "''") + "'";
            case NUMERIC -> literal.getValueAs(java.math.BigDecimal.class).toPlainString();
            case DATE -> "DATE '" + literal.getValueAs(org.apache.calcite.util.DateString.class) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + literal.getValueAs(org.apache.calcite.util.TimestampString.class) + "'";
            case BOOLEAN -> Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? "TRUE" : "FALSE";
            default -> literal.toString();
        };
    }

    /** An expression with {@code names} for its input references. */
    static String describe(RexNode node, java.util.function.IntFunction<String> names) {
        if (node instanceof RexInputRef reference) {
            return names.apply(reference.getIndex());
        }
        if (node instanceof RexLiteral literal) {
            return literal(literal);
        }
        if (node instanceof RexCall call) {
            List<String> operands = call.getOperands().stream().map(operand -> describe(operand, names)).toList();
            if (call.getOperator().getSyntax() == org.apache.calcite.sql.SqlSyntax.BINARY && operands.size() == 2) {
                return "(" + operands.get(0) + " " + call.getOperator().getName() + " " + operands.get(1) + ")";
            }
            return call.getOperator().getName().toLowerCase(Locale.ROOT) + "(" + String.join(", ", operands) + ")";
        }
        return node.toString();
    }
}
