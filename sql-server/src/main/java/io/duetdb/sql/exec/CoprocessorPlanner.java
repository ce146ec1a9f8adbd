package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.keys.Keys;
import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.IndexScan;
import io.duetdb.proto.coprocessor.Limit;
import io.duetdb.proto.coprocessor.OrderBy;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.coprocessor.TopN;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.sql.prepare.DuetTable;

/**
 * Plans the work of table scans for the stores' coprocessors, without reading anything: the conditions the
 * coprocessor can evaluate become a selection next to the data, a projection over a scan reads only the columns it
 * uses (and computes its expressions there when it can), a top N or limit cuts each region's rows, and an
 * aggregation over a scan becomes partial aggregations per region with their final merge in the SQL layer. Only
 * reads of committed data qualify: not locking reads, and not tables the transaction has written. Everything the
 * coprocessor cannot evaluate (as its own plan checks say) stays in the SQL layer.
 */
final class CoprocessorPlanner {
    static final String SWITCH_VARIABLE = "duet_coprocessor_push_down";

    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    private final ExpressionTranslator translator;
    /** The statement's memory, which the final merge of partial aggregates counts against. */
    private final MemoryTracker memory;

    CoprocessorPlanner(Transaction transaction, ExpressionCompiler compiler, MemoryTracker memory) {
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.compiler = requireNonNull(compiler, "compiler is null");
        this.translator = new ExpressionTranslator(compiler);
        this.memory = requireNonNull(memory, "memory is null");
    }

    /** The statement's memory. */
    MemoryTracker memory() {
        return memory;
    }

    static boolean enabled(SessionFunctions session) {
        return session.switchedOn(SWITCH_VARIABLE);
    }

    /** A plan over a scan's shape, or null when the stores would refuse it. */
    private static CoprocessorTask checked(DagRequest dag, CoprocessorTask.ScanShape shape, List<FieldType> outputTypes,
            Function<CoprocessorAnswers, RowStream> finish, TableAccess access) {
        try {
            DagPipeline.check(dag);
        } catch (UnsupportedExpressionException e) {
            return null;
        }
        return new CoprocessorTask(dag, shape, outputTypes, finish, access.table().name(), "", List.of(), List.of(), List.of());
    }

    /**
     * (A projection over) (a filter over) a table scan of a DuetDB table, with the key range it reads: records,
     * or the entries of a covering {@code index} (null for records).
     */
    private record ScanChain(TableAccess access, RelNode scan, RexNode condition, List<RexNode> projects, byte[][] range,
            IndexInfo index, String accessNote, TableReader reader, AccessPathEstimator estimator,
            EngineChoice.Choice engine) {
        CoprocessorTask noted(CoprocessorTask pushed) {
            return pushed == null ? null : pushed.withAccessNote(accessNote);
        }

        /** Whether the scan reads its rows in the order of these ascending sort keys (over the chain's outputs). */
        boolean ascendsBy(List<RelFieldCollation> collations) {
            if (engine != null) {
                // The learners scan all records where the reader would have read an index: not the reader's order.
                return false;
            }
            List<Integer> positions = new ArrayList<>();
            for (RelFieldCollation collation : collations) {
                if (collation.getDirection() != RelFieldCollation.Direction.ASCENDING
                        || !(projects.get(collation.getFieldIndex()) instanceof RexInputRef column)) {
                    return false;
                }
                positions.add(column.getIndex());
            }
            return reader.ascendsBy(positions);
        }

        /** The column a scan reads when the consumer uses none (COUNT(*)): one its index holds, for an index. */
        int anyColumn() {
            if (index == null) {
                return 0;
            }
            List<ColumnInfo> columns = access.table().publicColumns();
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(index.columns().get(0))) {
                    return i;
                }
            }
            return 0;
        }
    }

    private ScanChain chain(RelNode node) {
        List<RexNode> projects = null;
        RelNode input = node;
        if (input instanceof Project project) {
            projects = project.getProjects();
            input = project.getInput();
        }
        RexNode condition = null;
        if (input instanceof Filter filter) {
            condition = filter.getCondition();
            input = filter.getInput();
        }
        if (!(input instanceof TableScan tableScan)) {
            return null;
        }
        DuetTable table = tableScan.getTable().unwrap(DuetTable.class);
        if (table == null) {
            return null;
        }
        TableAccess access = new TableAccess(table.table());
        if (projects == null) {
            projects = new ArrayList<>();
            for (int i = 0; i < access.table().publicColumns().size(); i++) {
                projects.add(RexInputRef.of(i, tableScan.getRowType()));
            }
        }
        BitSet needed = new BitSet();
        for (RexNode consumer : projects) {
            needed.or(RelOptUtil.InputFinder.bits(consumer).toBitSet());
        }
        if (condition != null) {
            needed.or(RelOptUtil.InputFinder.bits(condition).toBitSet());
        }
        AccessPathEstimator estimator = AccessPathEstimator.of(table, transaction, compiler.session());
        TableReader reader = TableReader.create(transaction, access, condition, compiler, false,
                estimator == null ? null : estimator.needing(needed));
        byte[][] range = reader.recordRange();
        IndexInfo index = null;
        EngineChoice.Choice engine = null;
        if (range == null && reader.rangeIndex() != null) {
            // The costs chose an index range (with or without its double read): all the records in columns, which
            // the learners read, may still cost less.
            List<ColumnInfo> columns = new ArrayList<>();
            needed.stream().forEach(position -> columns.add(access.table().publicColumns().get(position)));
            engine = EngineChoice.insteadOfIndex(compiler.session(), access.table(), transaction, estimator, reader,
                    columns, access.recordStart(), access.recordEnd());
            if (engine != null) {
                range = new byte[][] {access.recordStart(), access.recordEnd()};
            }
        }
        if (range == null && reader.coveringIndex() != null) {
            index = reader.coveringIndex();
            range = reader.indexRange();
        }
        if (range == null) {
            return null;
        }
        return new ScanChain(access, tableScan, condition, projects, range, index, engine == null ? reader.costNote()
                : "", reader, estimator, engine);
    }

    CoprocessorTask planTopN(RelNode input, List<RelFieldCollation> collations, long count) {
        ScanChain chain = chain(input);
        if (chain == null || count < 0) {
            return null;
        }
        List<RexNode> used = new ArrayList<>(chain.projects());
        if (chain.condition() != null) {
            used.add(chain.condition());
        }
        Pruning pruning = Pruning.of(chain.access().table().publicColumns().size(), used, chain.anyColumn());
        CoprocessorTask.ScanShape shape = shape(chain, pruning);
        if (shape == null) {
            return null;
        }
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(shape.scan());
        List<String> conditionTexts = new ArrayList<>();
        if (chain.condition() != null) {
            Selection.Builder selection = Selection.newBuilder();
            for (RexNode conjunct : RelOptUtil.conjunctions(SearchExpansion.expand(compiler.rexBuilder(),
                    pruning.remap(chain.condition())))) {
                Expression expression = translator.translate(conjunct, shape.types());
                if (expression == null || !ExpressionTranslator.isCondition(expression, shape.types())) {
                    return null;
                }
                selection.addConditions(expression);
                conditionTexts.add(PlanExplainer.describe(conjunct, columnNames(chain.access(), pruning)));
            }
            dag.addExecutors(Executor.newBuilder().setSelection(selection));
        }
        // A scan in the sort's order (an index range past its fixed columns, or the clustered key) keeps its first
        // rows: a limit stops the region's scan there, where a top N reads every row of the range.
        if (collations.isEmpty() || chain.ascendsBy(collations)) {
            dag.addExecutors(Executor.newBuilder().setLimit(Limit.newBuilder().setLimit(count)));
        } else {
            TopN.Builder topN = TopN.newBuilder().setLimit(count);
            for (RelFieldCollation collation : collations) {
                Expression key = translator.translate(pruning.remap(chain.projects().get(collation.getFieldIndex())), shape.types());
                if (key == null) {
                    return null;
                }
                topN.addOrderBy(OrderBy.newBuilder().setExpression(key)
                        .setDescending(collation.getDirection().isDescending()));
            }
            dag.addExecutors(Executor.newBuilder().setTopN(topN));
        }
        Projection projection = projection(chain.projects(), pruning);
        CoprocessorTask plan = checked(dag.build(), shape, shape.types(), rows -> rows.map(projection), chain.access());
        return chain.noted(plan == null ? null : plan.withConditions(conditionTexts, List.of()));
    }

    /** A projection over a scan chain: the scan of the columns it uses, and the same with the projection in the stores. */
    private record ProjectPlan(ScanChain chain, Pruning pruning, CoprocessorTask scan, CoprocessorTask projected) {
    }

    private ProjectPlan projectPlan(Project project) {
        ScanChain chain = chain(project);
        if (chain == null) {
            return null;
        }
        List<RexNode> used = new ArrayList<>(chain.projects());
        if (chain.condition() != null) {
            used.add(chain.condition());
        }
        Pruning pruning = Pruning.of(chain.access().table().publicColumns().size(), used, chain.anyColumn());
        CoprocessorTask scan = planScan(chain,
                chain.condition() == null ? null : pruning.remap(chain.condition()), pruning);
        if (scan == null) {
            return null;
        }
        return new ProjectPlan(chain, pruning, scan, projectedInTheStores(scan, chain.projects(), pruning, chain.access()));
    }

    /**
     * A scan chain read as the stores' Arrow batches: the plan, whose answers are the rows with nothing left to do
     * but {@code projects} (over its outputs; null when there are none).
     */
    record BatchScan(CoprocessorTask task, List<RexNode> projects) {
        BatchScan {
            requireNonNull(task, "task is null");
        }
    }

    /**
     * The stores' part of reading (a projection over) (a filter over) a table scan: the task whose finished answers
     * are the node's rows, and how batch operators read it (null when the SQL layer must evaluate a condition the
     * stores cannot). Null when the node is not such a chain or its scan cannot go to the stores.
     */
    StoreRead planRead(RelNode node) {
        if (node instanceof Project project) {
            ProjectPlan plan = projectPlan(project);
            if (plan == null) {
                return null;
            }
            CoprocessorTask rows = plan.chain().noted(plan.projected() != null ? plan.projected()
                    : plan.scan().then(projection(plan.chain().projects(), plan.pruning())));
            if (!plan.scan().finishedInTheStores()) {
                return new StoreRead(rows, null);
            }
            if (plan.projected() != null) {
                return new StoreRead(rows, new BatchScan(rows, null));
            }
            List<RexNode> projects = plan.chain().projects().stream().map(plan.pruning()::remap).toList();
            boolean identity = projects.size() == plan.scan().outputTypes().size();
            for (int i = 0; identity && i < projects.size(); i++) {
                identity = projects.get(i) instanceof RexInputRef reference && reference.getIndex() == i;
            }
            // The scan's columns as they are (pruning already chose them): nothing is left to do.
            return new StoreRead(rows, new BatchScan(plan.chain().noted(plan.scan()), identity ? null : projects));
        }
        if (!(node instanceof TableScan || node instanceof Filter filter && filter.getInput() instanceof TableScan)) {
            return null;
        }
        ScanChain chain = chain(node);
        if (chain == null) {
            return null;
        }
        CoprocessorTask scan = chain.noted(planScan(chain, chain.condition(), null));
        if (scan == null) {
            return null;
        }
        return new StoreRead(scan, scan.finishedInTheStores() ? new BatchScan(scan, null) : null);
    }

    /** A read planned for the stores: for operators on rows, and for operators on batches (null when they cannot). */
    record StoreRead(CoprocessorTask rows, BatchScan batches) {
        StoreRead {
            requireNonNull(rows, "rows is null");
        }
    }

    /**
     * {@code scan} with a projection executor that computes {@code projects} in the stores, so that only the
     * results travel; null when a projection computes nothing (column references are pruning's job), a condition
     * stays in the SQL layer (it needs the columns), or an expression cannot be evaluated there.
     */
    private CoprocessorTask projectedInTheStores(CoprocessorTask scan, List<RexNode> projects, Pruning pruning, TableAccess access) {
        if (!scan.residualConditions().isEmpty() || projects.stream().allMatch(project -> project instanceof RexInputRef)) {
            return null;
        }
        io.duetdb.proto.coprocessor.Projection.Builder projection = io.duetdb.proto.coprocessor.Projection.newBuilder();
        List<FieldType> types = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        IntFunction<String> names = columnNames(access, pruning);
        for (RexNode project : projects) {
            RexNode remapped = pruning.remap(project);
            Expression expression = translator.translate(remapped, scan.shape().types());
            if (expression == null || ExpressionTranslator.fieldType(project.getType()) == null) {
                return null;
            }
            projection.addExpressions(expression);
            types.add(expression.getType());
            texts.add(PlanExplainer.describe(remapped, names));
        }
        DagRequest dag = scan.dag().toBuilder().addExecutors(Executor.newBuilder().setProjection(projection)).build();
        CoprocessorTask plan = checked(dag, scan.shape(), types, rows -> rows, access);
        return plan == null ? null : plan.withConditions(scan.pushedConditions(), List.of()).withProjections(texts);
    }

    /**
     * The output field of a pushed projection whose rows ascend: the clustered key of a record scan, or the first
     * column of a covering index's scan (NULLs first); -1 when neither is projected as it is; null when the
     * projection does not go to the stores.
     */
    Integer ascendingField(Project project) {
        ScanChain chain = chain(project);
        if (chain == null || planRead(project) == null) {
            return null;
        }
        List<ColumnInfo> columns = chain.access().table().publicColumns();
        String ordered = chain.index() != null ? chain.index().columns().get(0)
                : chain.access().table().handleColumn() == null ? null : String.valueOf(chain.access().table().handleColumn());
        if (ordered == null) {
            return -1;
        }
        for (int i = 0; i < chain.projects().size(); i++) {
            if (chain.projects().get(i) instanceof RexInputRef reference && reference.getIndex() < columns.size()
                    && columns.get(reference.getIndex()).name().equalsIgnoreCase(ordered)) {
                return i;
            }
        }
        return -1;
    }

    /** The projections over a scan's pruned rows. */
    private Projection projection(List<RexNode> projects, Pruning pruning) {
        return Projection.of(projects.stream().map(pruning::remap).toList(), pruning.columns().length, compiler);
    }

    /** The columns of a table scan its consumers use, and references renumbered to them. */
    record Pruning(int[] columns, int[] newIndex) {
        static Pruning of(int columnCount, List<RexNode> consumers, int anyColumn) {
            BitSet used = new BitSet(columnCount);
            for (RexNode consumer : consumers) {
                for (int index : RelOptUtil.InputFinder.bits(consumer)) {
                    used.set(index);
                }
            }
            if (used.isEmpty()) {
                // COUNT(*) and constants still need one column to count rows by.
                used.set(anyColumn);
            }
            int[] columns = used.stream().toArray();
            int[] newIndex = new int[columnCount];
            Arrays.fill(newIndex, -1);
            for (int i = 0; i < columns.length; i++) {
                newIndex[columns[i]] = i;
            }
            return new Pruning(columns, newIndex);
        }

        RexNode remap(RexNode node) {
            return node.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return new RexInputRef(newIndex[reference.getIndex()], reference.getType());
                }
            });
        }
    }

    /** A scan of the pruned columns (all when null) with the conditions the stores can evaluate. */
    private CoprocessorTask planScan(ScanChain chain, RexNode condition, Pruning pruning) {
        TableAccess access = chain.access();
        CoprocessorTask.ScanShape shape = shape(chain, pruning);
        if (shape == null) {
            return null;
        }
        List<Expression> pushed = new ArrayList<>();
        List<RexNode> kept = new ArrayList<>();
        List<String> pushedTexts = new ArrayList<>();
        IntFunction<String> names = columnNames(access, pruning);
        if (condition != null) {
            for (RexNode conjunct : RelOptUtil.conjunctions(SearchExpansion.expand(compiler.rexBuilder(), condition))) {
                Expression expression = translator.translate(conjunct, shape.types());
                if (expression != null && ExpressionTranslator.isCondition(expression, shape.types())) {
                    pushed.add(expression);
                    pushedTexts.add(PlanExplainer.describe(conjunct, names));
                } else {
                    kept.add(conjunct);
                }
            }
        }
        List<String> keptTexts = kept.stream().map(conjunct -> PlanExplainer.describe(conjunct, names)).toList();
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(shape.scan());
        if (!pushed.isEmpty()) {
            dag.addExecutors(Executor.newBuilder().setSelection(Selection.newBuilder().addAllConditions(pushed)));
        }
        if (kept.isEmpty()) {
            CoprocessorTask plan = checked(dag.build(), shape, shape.types(), rows -> rows, access);
            return plan == null ? null : plan.withConditions(pushedTexts, keptTexts);
        }
        RowExpression residual = compiler.compile(RexUtil.composeConjunction(compiler.rexBuilder(), kept));
        CoprocessorTask plan = checked(dag.build(), shape, shape.types(), rows -> rows.map(batch -> {
            List<Object[]> matching = new ArrayList<>();
            for (Object[] row : batch) {
                if (Boolean.TRUE.equals(Values.truth(residual.evaluate(row)))) {
                    matching.add(row);
                }
            }
            return matching;
        }), access);
        return plan == null ? null : plan.withConditions(pushedTexts, keptTexts);
    }

    /** The names of a scan's columns, pruned or all of them, by their position in its rows. */
    private static IntFunction<String> columnNames(TableAccess access, Pruning pruning) {
        List<ColumnInfo> columns = access.table().publicColumns();
        return index -> {
            int column = pruning == null ? index : index < pruning.columns().length ? pruning.columns()[index] : -1;
            return column >= 0 && column < columns.size() ? columns.get(column).name() : "$" + index;
        };
    }

    CoprocessorTask planAggregate(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return null;
        }
        ScanChain chain = chain(aggregate.getInput());
        if (chain == null) {
            return null;
        }
        TableAccess access = chain.access();
        RexNode condition = chain.condition();
        byte[][] range = chain.range();
        int columnCount = access.table().publicColumns().size();
        List<RexNode> inputNodes = chain.projects();
        List<RexNode> used = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            used.add(inputNodes.get(key));
        }
        for (AggregateCall call : aggregate.getAggCallList()) {
            for (int argument : call.getArgList()) {
                used.add(inputNodes.get(argument));
            }
        }
        if (condition != null) {
            used.add(condition);
        }
        Pruning pruning = Pruning.of(columnCount, used, chain.anyColumn());
        CoprocessorTask.ScanShape shape = shape(chain, pruning);
        if (shape == null) {
            return null;
        }
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(shape.scan());
        List<String> conditionTexts = new ArrayList<>();
        if (condition != null) {
            Selection.Builder selection = Selection.newBuilder();
            for (RexNode conjunct : RelOptUtil.conjunctions(SearchExpansion.expand(compiler.rexBuilder(),
                    pruning.remap(condition)))) {
                Expression expression = translator.translate(conjunct, shape.types());
                if (expression == null || !ExpressionTranslator.isCondition(expression, shape.types())) {
                    return null;
                }
                selection.addConditions(expression);
                conditionTexts.add(PlanExplainer.describe(conjunct, columnNames(access, pruning)));
            }
            dag.addExecutors(Executor.newBuilder().setSelection(selection));
        }
        List<Expression> inputs = new ArrayList<>();
        for (RexNode node : inputNodes) {
            boolean needed = RelOptUtil.InputFinder.bits(node).asList().stream().allMatch(i -> pruning.newIndex()[i] >= 0);
            inputs.add(needed ? translator.translate(pruning.remap(node), shape.types()) : null);
        }
        Aggregation.Builder partial = Aggregation.newBuilder();
        List<FieldType> partialTypes = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            Expression expression = inputs.get(key);
            if (expression == null) {
                return null;
            }
            partial.addGroupBy(expression);
            partialTypes.add(expression.getType());
        }
        int keyCount = partialTypes.size();
        List<int[]> slots = PartialAggregates.addAllCalls(aggregate.getAggCallList(), inputs, partial, partialTypes);
        if (slots == null) {
            return null;
        }
        boolean streamed = scanOrderGroups(chain, aggregate);
        partial.setStreamed(streamed);
        dag.addExecutors(Executor.newBuilder().setAggregation(partial));
        // Regions answer in key order, so streamed partial groups arrive in the scan's order: the merge streams too.
        PartialAggregateMerge merge = new PartialAggregateMerge(aggregate.getAggCallList(), keyCount, slots, memory,
                compiler.session());
        CoprocessorTask plan = checked(dag.build(), shape, partialTypes, partials -> !streamed
                ? RowStream.of(merge.hashed(partials))
                : VectorizedPlans.enabled(compiler.session()) ? merge.orderedBatches(partials)
                : merge.orderedRows(partials), access);
        return chain.noted(plan == null ? null : plan.withConditions(conditionTexts, List.of()));
    }

    /**
     * Whether the scan gives rows with equal group keys one after another, so the stores can aggregate them as a
     * stream: an index scan grouped by exactly the index's first columns, or a record scan grouped by keys that
     * include the clustered key (every row its own group).
     */
    private static boolean scanOrderGroups(ScanChain chain, Aggregate aggregate) {
        if (aggregate.getGroupSet().isEmpty()) {
            return false;
        }
        List<ColumnInfo> columns = chain.access().table().publicColumns();
        Set<String> keys = new HashSet<>();
        for (int key : aggregate.getGroupSet()) {
            if (!(chain.projects().get(key) instanceof RexInputRef reference) || reference.getIndex() >= columns.size()) {
                return false;
            }
            keys.add(columns.get(reference.getIndex()).name().toLowerCase(Locale.ROOT));
        }
        if (chain.index() == null) {
            Object handle = chain.access().table().handleColumn();
            return handle != null && keys.contains(String.valueOf(handle).toLowerCase(Locale.ROOT));
        }
        List<String> indexColumns = chain.index().columns();
        if (keys.size() > indexColumns.size()) {
            return false;
        }
        for (String column : indexColumns.subList(0, keys.size())) {
            if (!keys.contains(column.toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }

    /** The scan of the pruned columns (all when null): of the records, or of a covering index's entries. */
    private CoprocessorTask.ScanShape shape(ScanChain chain, Pruning pruning) {
        TableAccess access = chain.access();
        byte[][] range = chain.range();
        IndexInfo index = chain.index();
        if (range == null) {
            return null;
        }
        List<ColumnInfo> publicColumns = access.table().publicColumns();
        List<ColumnInfo> scanned = new ArrayList<>();
        if (pruning == null) {
            scanned.addAll(publicColumns);
        } else {
            for (int column : pruning.columns()) {
                scanned.add(publicColumns.get(column));
            }
        }
        if (index != null) {
            return indexShape(access, range, index, scanned);
        }
        if (transaction.hasWritesIn(access.recordStart(), access.recordEnd())) {
            return null;
        }
        io.duetdb.proto.coprocessor.TableScan.Builder scan = io.duetdb.proto.coprocessor.TableScan.newBuilder()
                .setTableId(access.table().id());
        List<FieldType> types = new ArrayList<>();
        for (ColumnInfo column : scanned) {
            FieldType type = ComputeValues.columnType(column);
            if (type == null) {
                return null;
            }
            ScanColumn.Builder scanColumn = ScanColumn.newBuilder().setColumnId(column.id()).setType(type);
            Object origin = column.originDefault();
            if (origin != null) {
                scanColumn.setDefaultValue(Literals.of(ComputeValues.toCompute(origin, type)));
            }
            scan.addColumns(scanColumn);
            types.add(type);
        }
        EngineChoice.Choice engine = chain.engine() != null ? chain.engine() : EngineChoice.of(compiler.session(),
                access.table(), transaction, chain.estimator(), chain.reader().scannedRecords(chain.estimator()), scanned,
                range[0], range[1]);
        return new CoprocessorTask.ScanShape(Executor.newBuilder().setTableScan(scan).build(), types, range[0], range[1], null,
                engine.fromLearners(), engine.note());
    }

    /** An index scan whose outputs are the scanned columns, each an index column or the clustered handle. */
    private CoprocessorTask.ScanShape indexShape(TableAccess access, byte[][] range, IndexInfo index, List<ColumnInfo> scanned) {
        byte[] indexStart = Keys.indexPrefix(access.table().id(), index.id());
        if (transaction.hasWritesIn(indexStart, Keys.indexEnd(access.table().id(), index.id()))) {
            return null;
        }
        IndexScan.Builder scan = IndexScan.newBuilder()
                .setTableId(access.table().id()).setIndexId(index.id());
        for (String name : index.columns()) {
            FieldType type = ComputeValues.columnType(access.table().columns().get(access.columnIndex(name)));
            if (type == null) {
                return null;
            }
            scan.addKeyTypes(type);
        }
        List<FieldType> types = new ArrayList<>();
        for (ColumnInfo column : scanned) {
            int position = -1;
            for (int i = 0; i < index.columns().size(); i++) {
                if (index.columns().get(i).equalsIgnoreCase(column.name())) {
                    position = i;
                    break;
                }
            }
            if (position < 0 && column.name().equalsIgnoreCase(String.valueOf(access.table().handleColumn()))) {
                position = index.columns().size();
            }
            FieldType type = ComputeValues.columnType(column);
            if (position < 0 || type == null
                    || position == index.columns().size() && type.getType() != ValueType.INT64) {
                return null;
            }
            scan.addOutputs(position);
            types.add(type);
        }
        return new CoprocessorTask.ScanShape(Executor.newBuilder().setIndexScan(scan).build(), types, range[0], range[1], index.name(),
                ReadEngines.of(compiler.session(), access.table()).learnersOnly(), "");
    }

}
