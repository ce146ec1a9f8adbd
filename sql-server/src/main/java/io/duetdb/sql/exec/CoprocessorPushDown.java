package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.proto.kv.ReplicaRead;
import io.duetdb.sql.prepare.DuetTable;

/**
 * Moves the work of table scans into the stores' coprocessors: the conditions the coprocessor can evaluate
 * become a selection next to the data, and an aggregation over a scan becomes partial aggregations per region
 * that this class merges. Only reads of committed data qualify: not locking reads, and not tables the
 * transaction has written. Everything the coprocessor cannot evaluate (as its own plan checks say) stays here.
 */
final class CoprocessorPushDown {
    static final String SWITCH_VARIABLE = "duet_coprocessor_push_down";
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final int PARTIAL_SUM_PRECISION = ValueTypes.MAX_DECIMAL_PRECISION;

    /** A table scan's columns as the coprocessor sees them, or null when a column's type cannot travel. */
    record ScanShape(Executor scan, List<FieldType> types, byte[] start, byte[] end, String indexName, boolean fromLearners) {
    }

    /**
     * A plan for the stores with the rows' types, how the SQL layer finishes what comes back (residual
     * conditions, projections, the merge of partial aggregates), and the table it reads.
     */
    record Pushed(DagRequest dag, ScanShape shape, List<FieldType> outputTypes,
            java.util.function.Function<Answers, RowStream> finish, String table, String accessNote,
            List<String> pushedConditions, List<String> residualConditions, List<String> pushedProjections) {
        Pushed {
            pushedConditions = List.copyOf(pushedConditions);
            residualConditions = List.copyOf(residualConditions);
            pushedProjections = List.copyOf(pushedProjections);
        }

        /** The same plan with {@code next} applied to each batch of its finished rows. */
        Pushed then(java.util.function.UnaryOperator<List<Object[]>> next) {
            return new Pushed(dag, shape, outputTypes, rows -> finish.apply(rows).map(next), table, accessNote,
                    pushedConditions, residualConditions, pushedProjections);
        }

        /** The same plan, with why the costs chose a scan of the records (for EXPLAIN). */
        Pushed withAccessNote(String note) {
            return new Pushed(dag, shape, outputTypes, finish, table, requireNonNull(note, "note is null"), pushedConditions,
                    residualConditions, pushedProjections);
        }

        /** The same plan, with the conditions the stores evaluate and those left to the SQL layer (for EXPLAIN). */
        Pushed withConditions(List<String> pushed, List<String> residual) {
            return new Pushed(dag, shape, outputTypes, finish, table, accessNote, pushed, residual, pushedProjections);
        }

        /** The same plan, with the expressions its projection in the stores computes (for EXPLAIN). */
        Pushed withProjections(List<String> projections) {
            return new Pushed(dag, shape, outputTypes, finish, table, accessNote, pushedConditions, residualConditions,
                    projections);
        }

        /** Whether the stores compute the rows' final columns (the SQL layer adds no projection of its own). */
        boolean projectsInTheStores() {
            return !pushedProjections.isEmpty();
        }
    }

    private static final int MEMORY_CHECK_INTERVAL = 16_384;

    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    /** The statement's memory: the merge of partial aggregates counts against it, and the answers in flight too. */
    private final MemoryTracker memory;

    CoprocessorPushDown(Transaction transaction, ExpressionCompiler compiler, MemoryTracker memory) {
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.compiler = requireNonNull(compiler, "compiler is null");
        this.memory = requireNonNull(memory, "memory is null");
    }

    static boolean enabled(SessionFunctions session) {
        return session.switchedOn(SWITCH_VARIABLE);
    }

    /** The rows (public columns) of a record scan with {@code condition}, or null when the scan cannot go. */
    RowStream scan(TableAccess access, byte[][] range, RexNode condition, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        return open(planScan(access, range, condition, null), reported);
    }

    /** The rows of a plan run by the stores and finished here; null for a null plan. */
    List<Object[]> execute(Pushed pushed, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        RowStream rows = open(pushed, reported);
        return rows == null ? null : RowStream.drain(rows);
    }

    /**
     * The rows of a plan run by the stores and finished here, as the stores answer; null for a null plan. What the
     * stores report of their work goes to {@code reported} once the stream ends or is closed.
     */
    RowStream open(Pushed pushed, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        if (pushed == null) {
            return null;
        }
        return pushed.finish().apply(run(pushed.dag(), pushed.shape(), pushed.outputTypes(), reported));
    }

    /** A plan over a scan's shape, or null when the stores would refuse it. */
    private static Pushed checked(DagRequest dag, ScanShape shape, List<FieldType> outputTypes,
            java.util.function.Function<Answers, RowStream> finish, TableAccess access) {
        try {
            DagPipeline.check(dag);
        } catch (UnsupportedExpressionException e) {
            return null;
        }
        return new Pushed(dag, shape, outputTypes, finish, access.table().name(), "", List.of(), List.of(), List.of());
    }

    /**
     * (A projection over) (a filter over) a table scan of a DuetDB table, with the key range it reads: records,
     * or the entries of a covering {@code index} (null for records).
     */
    private record ScanChain(TableAccess access, RelNode scan, RexNode condition, List<RexNode> projects, byte[][] range,
            IndexInfo index, String accessNote, TableReader reader) {
        Pushed noted(Pushed pushed) {
            return pushed == null ? null : pushed.withAccessNote(accessNote);
        }

        /** Whether the scan reads its rows in the order of these ascending sort keys (over the chain's outputs). */
        boolean ascendsBy(List<org.apache.calcite.rel.RelFieldCollation> collations) {
            List<Integer> positions = new ArrayList<>();
            for (org.apache.calcite.rel.RelFieldCollation collation : collations) {
                if (collation.getDirection() != org.apache.calcite.rel.RelFieldCollation.Direction.ASCENDING
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
        java.util.BitSet needed = new java.util.BitSet();
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
        if (range == null && reader.coveringIndex() != null) {
            index = reader.coveringIndex();
            range = reader.indexRange();
        }
        if (range == null) {
            return null;
        }
        return new ScanChain(access, tableScan, condition, projects, range, index, reader.costNote(), reader);
    }

    /**
     * The first {@code count} rows of {@code input} in the given order, from TopN (or limit) operators in the
     * stores; the caller still sorts and cuts them. Null when the input is not a scan chain whose condition
     * and sort keys all go to the stores.
     */
    List<Object[]> topN(RelNode input, List<org.apache.calcite.rel.RelFieldCollation> collations, long count,
            java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        return execute(planTopN(input, collations, count), reported);
    }

    Pushed planTopN(RelNode input, List<org.apache.calcite.rel.RelFieldCollation> collations, long count) {
        ScanChain chain = chain(input);
        if (chain == null || count < 0) {
            return null;
        }
        List<RexNode> used = new ArrayList<>(chain.projects());
        if (chain.condition() != null) {
            used.add(chain.condition());
        }
        Pruning pruning = Pruning.of(chain.access().table().publicColumns().size(), used, chain.anyColumn());
        ScanShape shape = shape(chain.access(), chain.range(), chain.index(), pruning);
        if (shape == null) {
            return null;
        }
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(shape.scan());
        List<String> conditionTexts = new ArrayList<>();
        if (chain.condition() != null) {
            Selection.Builder selection = Selection.newBuilder();
            for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(compiler.rexBuilder(), null,
                    pruning.remap(chain.condition())))) {
                Expression expression = translate(conjunct, shape.types());
                if (expression == null || !isBooleanCondition(expression, shape.types())) {
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
            dag.addExecutors(Executor.newBuilder().setLimit(io.duetdb.proto.coprocessor.Limit.newBuilder().setLimit(count)));
        } else {
            io.duetdb.proto.coprocessor.TopN.Builder topN = io.duetdb.proto.coprocessor.TopN.newBuilder().setLimit(count);
            for (org.apache.calcite.rel.RelFieldCollation collation : collations) {
                Expression key = translate(pruning.remap(chain.projects().get(collation.getFieldIndex())), shape.types());
                if (key == null) {
                    return null;
                }
                topN.addOrderBy(io.duetdb.proto.coprocessor.OrderBy.newBuilder().setExpression(key)
                        .setDescending(collation.getDirection().isDescending()));
            }
            dag.addExecutors(Executor.newBuilder().setTopN(topN));
        }
        Projection projection = projection(chain.projects(), pruning);
        Pushed plan = checked(dag.build(), shape, shape.types(), rows -> rows.map(projection), chain.access());
        return chain.noted(plan == null ? null : plan.withConditions(conditionTexts, List.of()));
    }

    /**
     * The rows of {@code project} over (a filter over) a table scan, reading only the columns it uses; null when
     * the scan cannot go to the stores.
     */
    RowStream project(Project project, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        return open(planProject(project), reported);
    }

    Pushed planProject(Project project) {
        ProjectPlan plan = projectPlan(project);
        if (plan == null) {
            return null;
        }
        return plan.chain().noted(plan.projected() != null ? plan.projected()
                : plan.scan().then(projection(plan.chain().projects(), plan.pruning())));
    }

    /** A projection over a scan chain: the scan of the columns it uses, and the same with the projection in the stores. */
    private record ProjectPlan(ScanChain chain, Pruning pruning, Pushed scan, Pushed projected) {
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
        Pushed scan = planScan(chain.access(), chain.range(), chain.index(),
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
    record BatchScan(Pushed pushed, List<RexNode> projects) {
        BatchScan {
            requireNonNull(pushed, "pushed is null");
        }
    }

    /**
     * (A projection over) (a filter over) a table scan as batches, or null when the stores cannot evaluate all of
     * its condition.
     */
    BatchScan planBatchScan(RelNode node) {
        if (node instanceof Project project) {
            ProjectPlan plan = projectPlan(project);
            if (plan == null || !plan.scan().residualConditions().isEmpty()) {
                return null;
            }
            if (plan.projected() != null) {
                return new BatchScan(plan.chain().noted(plan.projected()), null);
            }
            List<RexNode> projects = plan.chain().projects().stream().map(plan.pruning()::remap).toList();
            boolean identity = projects.size() == plan.scan().outputTypes().size();
            for (int i = 0; identity && i < projects.size(); i++) {
                identity = projects.get(i) instanceof RexInputRef reference && reference.getIndex() == i;
            }
            // The scan's columns as they are (pruning already chose them): nothing is left to do.
            return new BatchScan(plan.chain().noted(plan.scan()), identity ? null : projects);
        }
        if (!(node instanceof TableScan || node instanceof Filter filter && filter.getInput() instanceof TableScan)) {
            return null;
        }
        ScanChain chain = chain(node);
        if (chain == null) {
            return null;
        }
        Pushed scan = planScan(chain.access(), chain.range(), chain.index(), chain.condition(), null);
        return scan == null || !scan.residualConditions().isEmpty() ? null : new BatchScan(chain.noted(scan), null);
    }

    /**
     * The answers of a plan whose finish does nothing, as the Arrow batches they arrive in (owned by
     * {@code allocator}); the stores are asked once the first batch is.
     */
    BatchOperator openBatches(Pushed pushed, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported,
            BufferAllocator allocator) {
        requireNonNull(pushed, "pushed is null");
        return new BatchOperator() {
            private final java.util.ArrayDeque<VectorSchemaRoot> arrived = new java.util.ArrayDeque<>();
            private Answers answers;
            private VectorSchemaRoot current;
            private boolean ended;

            @Override
            public List<FieldType> outputTypes() {
                return pushed.outputTypes();
            }

            @Override
            public VectorSchemaRoot next() {
                closeCurrent();
                while (arrived.isEmpty() && !ended) {
                    if (answers == null) {
                        answers = run(pushed.dag(), pushed.shape(), pushed.outputTypes(), reported);
                    }
                    ended = !answers.nextBatches(allocator, batch -> {
                        if (batch.getRowCount() > 0) {
                            arrived.add(owned(batch, allocator));
                        }
                    });
                }
                current = arrived.poll();
                return current;
            }

            private void closeCurrent() {
                if (current != null) {
                    current.close();
                    current = null;
                }
            }

            @Override
            public void close() {
                closeCurrent();
                arrived.forEach(VectorSchemaRoot::close);
                arrived.clear();
                if (answers != null) {
                    answers.close();
                }
            }
        };
    }

    /** A batch whose buffers now belong to a new root in {@code allocator}; the old one is left empty. */
    private static VectorSchemaRoot owned(VectorSchemaRoot batch, BufferAllocator allocator) {
        List<org.apache.arrow.vector.FieldVector> vectors = new ArrayList<>();
        for (org.apache.arrow.vector.FieldVector vector : batch.getFieldVectors()) {
            org.apache.arrow.vector.util.TransferPair transfer = vector.getTransferPair(allocator);
            transfer.transfer();
            vectors.add((org.apache.arrow.vector.FieldVector) transfer.getTo());
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(batch.getRowCount());
        return root;
    }

    /**
     * {@code scan} with a projection executor that computes {@code projects} in the stores, so that only the
     * results travel; null when a projection computes nothing (column references are pruning's job), a condition
     * stays in the SQL layer (it needs the columns), or an expression cannot be evaluated there.
     */
    private Pushed projectedInTheStores(Pushed scan, List<RexNode> projects, Pruning pruning, TableAccess access) {
        if (!scan.residualConditions().isEmpty() || projects.stream().allMatch(project -> project instanceof RexInputRef)) {
            return null;
        }
        io.duetdb.proto.coprocessor.Projection.Builder projection = io.duetdb.proto.coprocessor.Projection.newBuilder();
        List<FieldType> types = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        java.util.function.IntFunction<String> names = columnNames(access, pruning);
        for (RexNode project : projects) {
            RexNode remapped = pruning.remap(project);
            Expression expression = translate(remapped, scan.shape().types());
            if (expression == null || sqlType(project.getType()) == null) {
                return null;
            }
            projection.addExpressions(expression);
            types.add(expression.getType());
            texts.add(PlanExplainer.describe(remapped, names));
        }
        DagRequest dag = scan.dag().toBuilder().addExecutors(Executor.newBuilder().setProjection(projection)).build();
        Pushed plan = checked(dag, scan.shape(), types, rows -> rows, access);
        return plan == null ? null : plan.withConditions(scan.pushedConditions(), List.of()).withProjections(texts);
    }

    /**
     * The output field of a pushed projection whose rows ascend: the clustered key of a record scan, or the first
     * column of a covering index's scan (NULLs first); -1 when neither is projected as it is; null when the
     * projection does not go to the stores.
     */
    Integer ascendingField(Project project) {
        ScanChain chain = chain(project);
        if (chain == null || planProject(project) == null) {
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
            java.util.BitSet used = new java.util.BitSet(columnCount);
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
            java.util.Arrays.fill(newIndex, -1);
            for (int i = 0; i < columns.length; i++) {
                newIndex[columns[i]] = i;
            }
            return new Pruning(columns, newIndex);
        }

        RexNode remap(RexNode node) {
            return node.accept(new org.apache.calcite.rex.RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return new RexInputRef(newIndex[reference.getIndex()], reference.getType());
                }
            });
        }
    }

    /** A scan of the pruned columns (all when null) with the conditions the stores can evaluate. */
    Pushed planScan(TableAccess access, byte[][] range, RexNode condition, Pruning pruning) {
        return planScan(access, range, null, condition, pruning);
    }

    private Pushed planScan(TableAccess access, byte[][] range, IndexInfo index, RexNode condition, Pruning pruning) {
        ScanShape shape = shape(access, range, index, pruning);
        if (shape == null) {
            return null;
        }
        List<Expression> pushed = new ArrayList<>();
        List<RexNode> kept = new ArrayList<>();
        List<String> pushedTexts = new ArrayList<>();
        java.util.function.IntFunction<String> names = columnNames(access, pruning);
        if (condition != null) {
            for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(compiler.rexBuilder(), null, condition))) {
                Expression expression = translate(conjunct, shape.types());
                if (expression != null && isBooleanCondition(expression, shape.types())) {
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
            Pushed plan = checked(dag.build(), shape, shape.types(), rows -> rows, access);
            return plan == null ? null : plan.withConditions(pushedTexts, keptTexts);
        }
        RowExpression residual = compiler.compile(RexUtil.composeConjunction(compiler.rexBuilder(), kept));
        Pushed plan = checked(dag.build(), shape, shape.types(), rows -> rows.map(batch -> {
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
    private static java.util.function.IntFunction<String> columnNames(TableAccess access, Pruning pruning) {
        List<ColumnInfo> columns = access.table().publicColumns();
        return index -> {
            int column = pruning == null ? index : index < pruning.columns().length ? pruning.columns()[index] : -1;
            return column >= 0 && column < columns.size() ? columns.get(column).name() : "$" + index;
        };
    }

    /** The aggregate's rows computed as partial aggregations in the stores, or null when it cannot go. */
    RowStream aggregate(Aggregate aggregate, java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        return open(planAggregate(aggregate), reported);
    }

    Pushed planAggregate(Aggregate aggregate) {
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
        ScanShape shape = shape(access, range, chain.index(), pruning);
        if (shape == null) {
            return null;
        }
        DagRequest.Builder dag = DagRequest.newBuilder().addExecutors(shape.scan());
        List<String> conditionTexts = new ArrayList<>();
        if (condition != null) {
            Selection.Builder selection = Selection.newBuilder();
            for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(compiler.rexBuilder(), null,
                    pruning.remap(condition)))) {
                Expression expression = translate(conjunct, shape.types());
                if (expression == null || !isBooleanCondition(expression, shape.types())) {
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
            inputs.add(needed ? translate(pruning.remap(node), shape.types()) : null);
        }
        io.duetdb.proto.coprocessor.Aggregation.Builder partial = io.duetdb.proto.coprocessor.Aggregation.newBuilder();
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
        List<int[]> slots = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            int[] callSlots = partialCalls(call, inputs, partial, partialTypes);
            if (callSlots == null) {
                return null;
            }
            slots.add(callSlots);
        }
        boolean streamed = scanOrderGroups(chain, aggregate);
        partial.setStreamed(streamed);
        dag.addExecutors(Executor.newBuilder().setAggregation(partial));
        // Regions answer in key order, so streamed partial groups arrive in the scan's order: the merge streams too.
        Pushed plan = checked(dag.build(), shape, partialTypes, partials -> !streamed
                ? RowStream.of(merge(aggregate, partials, keyCount, slots))
                : VectorizedPlans.enabled(compiler.session()) ? streamMergeOfBatches(aggregate, partials, keyCount, slots)
                : streamMerge(aggregate, partials, keyCount, slots), access);
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
        java.util.Set<String> keys = new java.util.HashSet<>();
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

    /** Adds the partial calls one SQL aggregate call needs; answers their output positions, or null if it cannot go. */
    int[] partialCalls(AggregateCall call, List<Expression> inputs, io.duetdb.proto.coprocessor.Aggregation.Builder partial,
            List<FieldType> partialTypes) {
        if (call.isDistinct() || call.filterArg >= 0 || call.getArgList().size() > 1 || call.isApproximate()) {
            return null;
        }
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        Expression argument = null;
        if (call.getArgList().size() == 1) {
            argument = inputs.get(call.getArgList().get(0));
            if (argument == null) {
                return null;
            }
        }
        boolean approximate = isApproximate(call.getType());
        switch (name) {
            case "COUNT" -> {
                return new int[] {addCall(partial, partialTypes, AggregateFunction.COUNT, argument, ValueTypes.of(ValueType.INT64))};
            }
            case "SUM", "$SUM0" -> {
                FieldType sumType = sumType(argument, approximate);
                return sumType == null ? null : new int[] {addCall(partial, partialTypes, AggregateFunction.SUM, argument, sumType)};
            }
            case "AVG" -> {
                FieldType sumType = sumType(argument, approximate);
                if (sumType == null) {
                    return null;
                }
                return new int[] {addCall(partial, partialTypes, AggregateFunction.SUM, argument, sumType),
                        addCall(partial, partialTypes, AggregateFunction.COUNT, argument, ValueTypes.of(ValueType.INT64))};
            }
            case "MIN", "MAX" -> {
                if (argument == null) {
                    return null;
                }
                return new int[] {addCall(partial, partialTypes, name.equals("MIN") ? AggregateFunction.MIN
                        : AggregateFunction.MAX, argument, argument.getType())};
            }
            default -> {
                return null;
            }
        }
    }

    private static FieldType sumType(Expression argument, boolean approximate) {
        if (argument == null) {
            return null;
        }
        ValueType type = argument.getType().getType();
        if (approximate) {
            return ValueTypes.isNumeric(type) ? ValueTypes.of(ValueType.FLOAT64) : null;
        }
        if (type == ValueType.INT64 || type == ValueType.DECIMAL) {
            return ValueTypes.decimal(PARTIAL_SUM_PRECISION, argument.getType().getScale());
        }
        return null;
    }

    private static int addCall(io.duetdb.proto.coprocessor.Aggregation.Builder partial, List<FieldType> partialTypes,
            AggregateFunction function, Expression argument, FieldType type) {
        io.duetdb.proto.coprocessor.AggregateCall.Builder call = io.duetdb.proto.coprocessor.AggregateCall.newBuilder()
                .setFunction(function).setType(type);
        if (argument != null) {
            call.setArgument(argument);
        }
        partial.addCalls(call);
        partialTypes.add(type);
        return partialTypes.size() - 1;
    }

    /**
     * The final merge of the regions' partial groups, over the Arrow batches they arrive in: the partial columns are
     * aggregated again by the group keys (counts and sums add up, minimums and maximums stay) with the stores' own
     * hash aggregation, and only the merged groups become rows.
     */
    private List<Object[]> merge(Aggregate aggregate, Answers partials, int keyCount, List<int[]> slots) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        List<FieldType> types = partials.types();
        List<String> functions = new ArrayList<>();
        io.duetdb.compute.operator.HashAggregation groups = new io.duetdb.compute.operator.HashAggregation(
                keyColumns(types, keyCount), mergeCalls(calls, slots, types, keyCount, functions));
        long held = 0;
        long nextCheck = MEMORY_CHECK_INTERVAL;
        List<Object[]> merged;
        try (partials; BufferAllocator allocator = new RootAllocator()) {
            while (partials.nextBatches(allocator, batch -> groups.add(batch, allocator))) {
                if (groups.groupCount() >= nextCheck) {
                    // The groups are the merge's state: counted as they grow, given back once it is done.
                    long now = groups.estimatedBytes();
                    memory.take(now - held, "HashAgg(final)");
                    held = now;
                    nextCheck = groups.groupCount() + MEMORY_CHECK_INTERVAL;
                }
            }
            merged = groups.results();
        } finally {
            memory.release(held);
        }
        List<Object[]> rows = new ArrayList<>(merged.size());
        for (Object[] group : merged) {
            rows.add(finished(calls, slots, keyCount, state(group, keyCount, functions, types)));
        }
        return rows;
    }

    private static List<io.duetdb.compute.expression.VectorExpression> keyColumns(List<FieldType> types,
            int keyCount) {
        List<io.duetdb.compute.expression.VectorExpression> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(new io.duetdb.compute.expression.ColumnReference(k, types.get(k)));
        }
        return keys;
    }

    /**
     * The merge of each partial column: counts and sums add up, minimums and maximums stay. Adds each column's
     * partial function to {@code functions}.
     */
    private static List<io.duetdb.compute.operator.PartialAggregationOperator.Call> mergeCalls(
            List<AggregateCall> calls, List<int[]> slots, List<FieldType> types, int keyCount, List<String> functions) {
        List<io.duetdb.compute.operator.PartialAggregationOperator.Call> merges = new ArrayList<>();
        for (int position = keyCount; position < types.size(); position++) {
            String function = partialFunction(calls, slots, position);
            FieldType type = types.get(position);
            var column = new io.duetdb.compute.expression.ColumnReference(position, type);
            functions.add(function);
            merges.add(new io.duetdb.compute.operator.PartialAggregationOperator.Call(switch (function) {
                case "COUNT", "SUM" -> AggregateFunction.SUM;
                case "MIN" -> AggregateFunction.MIN;
                case "MAX" -> AggregateFunction.MAX;
                default -> throw new IllegalStateException("no merge for " + function);
            }, column, function.equals("COUNT") ? ValueTypes.decimal(PARTIAL_SUM_PRECISION, 0) : type));
        }
        return merges;
    }

    /** A merged group's values as the SQL layer holds partial states: SQL values, counts as longs. */
    private static Object[] state(Object[] group, int keyCount, List<String> functions, List<FieldType> types) {
        Object[] state = new Object[group.length];
        for (int i = 0; i < group.length; i++) {
            Object value = group[i];
            state[i] = i >= keyCount && functions.get(i - keyCount).equals("COUNT")
                    ? (value == null ? null : (Object) ((BigDecimal) value).longValueExact())
                    : ComputeValues.toSql(value, types.get(i));
        }
        return state;
    }

    /** The aggregation's row of a group's final states: the group keys, then each call's result. */
    private static Object[] finished(List<AggregateCall> calls, List<int[]> slots, int keyCount, Object[] state) {
        Object[] row = new Object[keyCount + calls.size()];
        System.arraycopy(state, 0, row, 0, keyCount);
        for (int c = 0; c < calls.size(); c++) {
            row[keyCount + c] = result(calls.get(c), state, slots.get(c));
        }
        return row;
    }

    /**
     * The final merge of partial groups that arrive in group order, over their batches: each batch's groups are
     * merged by comparing neighbouring keys' bytes, and only a group cut by a batch boundary is combined as values.
     * One group is held.
     */
    private RowStream streamMergeOfBatches(Aggregate aggregate, Answers partials, int keyCount, List<int[]> slots) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        List<FieldType> types = partials.types();
        List<String> functions = new ArrayList<>();
        var mergeCalls = mergeCalls(calls, slots, types, keyCount, functions);
        BufferAllocator allocator = new RootAllocator();
        io.duetdb.compute.operator.OrderedGroups groups = new io.duetdb.compute.operator.OrderedGroups(
                keyColumns(types, keyCount), mergeCalls, allocator);
        return new RowStream() {
            private Object[] pending;
            private boolean ended;

            @Override
            public List<Object[]> next() {
                List<Object[]> finished = new ArrayList<>();
                while (finished.isEmpty() && !ended) {
                    ended = !partials.nextBatches(allocator, batch -> {
                        List<Object[]> merged = groups.of(batch);
                        for (int g = 0; g < merged.size(); g++) {
                            Object[] state = state(merged.get(g), keyCount, functions, types);
                            // Within a batch neighbouring groups differ; only the first may continue the last one.
                            if (g == 0 && pending != null && new GroupKey(java.util.Arrays.copyOf(pending, keyCount))
                                    .equals(new GroupKey(java.util.Arrays.copyOf(state, keyCount)))) {
                                for (int i = keyCount; i < state.length; i++) {
                                    pending[i] = combine(pending[i], state[i], functions.get(i - keyCount));
                                }
                                continue;
                            }
                            if (pending != null) {
                                finished.add(finished(calls, slots, keyCount, pending));
                            }
                            pending = state;
                        }
                    });
                    if (ended && pending != null) {
                        finished.add(finished(calls, slots, keyCount, pending));
                        pending = null;
                    }
                }
                return finished.isEmpty() ? null : finished;
            }

            @Override
            public void close() {
                try {
                    partials.close();
                } finally {
                    allocator.close();
                }
            }
        };
    }

    /**
     * The final merge of partial groups that arrive in group order (a streamed aggregation's, regions in key
     * order): a group is finished when the next partial row has another key, so only one group is held.
     */
    private RowStream streamMerge(Aggregate aggregate, RowStream partials, int keyCount, List<int[]> slots) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        return new RowStream() {
            private Object[] state;
            private GroupKey stateKey;
            private String[] functions;
            private boolean ended;

            @Override
            public List<Object[]> next() {
                List<Object[]> finished = new ArrayList<>();
                while (finished.isEmpty() && !ended) {
                    List<Object[]> batch = partials.next();
                    compiler.session().checkNotKilled();
                    if (batch == null) {
                        ended = true;
                        if (state != null) {
                            finished.add(finished(calls, slots, keyCount, state));
                            state = null;
                        }
                        break;
                    }
                    for (Object[] partial : batch) {
                        if (functions == null) {
                            functions = new String[partial.length];
                            for (int i = keyCount; i < partial.length; i++) {
                                functions[i] = partialFunction(calls, slots, i);
                            }
                        }
                        GroupKey key = new GroupKey(java.util.Arrays.copyOf(partial, keyCount));
                        if (state == null || !key.equals(stateKey)) {
                            if (state != null) {
                                finished.add(finished(calls, slots, keyCount, state));
                            }
                            state = new Object[partial.length];
                            System.arraycopy(partial, 0, state, 0, keyCount);
                            stateKey = key;
                        }
                        for (int i = keyCount; i < partial.length; i++) {
                            state[i] = combine(state[i], partial[i], functions[i]);
                        }
                    }
                }
                return finished.isEmpty() ? null : finished;
            }

            @Override
            public void close() {
                partials.close();
            }
        };
    }

    private static String partialFunction(List<AggregateCall> calls, List<int[]> slots, int position) {
        for (int c = 0; c < calls.size(); c++) {
            int[] callSlots = slots.get(c);
            for (int s = 0; s < callSlots.length; s++) {
                if (callSlots[s] == position) {
                    String name = calls.get(c).getAggregation().getName().toUpperCase(Locale.ROOT);
                    return name.equals("AVG") ? (s == 0 ? "SUM" : "COUNT") : name.equals("$SUM0") ? "SUM" : name;
                }
            }
        }
        throw new IllegalStateException("no aggregate call owns partial column " + position);
    }

    private static Object combine(Object current, Object value, String function) {
        if (value == null) {
            return current;
        }
        if (current == null) {
            return value;
        }
        return switch (function) {
            case "COUNT" -> (Long) current + (Long) value;
            case "SUM" -> current instanceof Double a ? (Object) (a + (Double) value)
                    : ((BigDecimal) current).add((BigDecimal) value);
            case "MIN" -> Values.compare(value, current) < 0 ? value : current;
            case "MAX" -> Values.compare(value, current) > 0 ? value : current;
            default -> throw new IllegalStateException("no merge for " + function);
        };
    }

    static Object result(AggregateCall call, Object[] state, int[] slots) {
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        Object first = state[slots[0]];
        boolean approximate = isApproximate(call.getType());
        return switch (name) {
            case "COUNT" -> first == null ? 0L : first;
            case "$SUM0" -> first != null ? first : approximate ? (Object) 0.0 : BigDecimal.ZERO;
            case "AVG" -> {
                Long count = (Long) state[slots[1]];
                if (count == null || count == 0 || first == null) {
                    yield null;
                }
                yield approximate ? (Object) ((Double) first / count)
                        : ((BigDecimal) first).divide(BigDecimal.valueOf(count), Math.max(0, call.getType().getScale()),
                                RoundingMode.HALF_UP);
            }
            default -> first;
        };
    }

    private static boolean isApproximate(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case DOUBLE, REAL, FLOAT -> true;
            default -> false;
        };
    }

    /** The scan of the pruned columns (all when null): of the records, or of a covering index's entries. */
    private ScanShape shape(TableAccess access, byte[][] range, IndexInfo index, Pruning pruning) {
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
        return new ScanShape(Executor.newBuilder().setTableScan(scan).build(), types, range[0], range[1], null,
                ReadEngines.of(compiler.session(), access.table()).learnersOnly());
    }

    /** An index scan whose outputs are the scanned columns, each an index column or the clustered handle. */
    private ScanShape indexShape(TableAccess access, byte[][] range, IndexInfo index, List<ColumnInfo> scanned) {
        byte[] indexStart = io.duetdb.common.keys.Keys.indexPrefix(access.table().id(), index.id());
        if (transaction.hasWritesIn(indexStart, io.duetdb.common.keys.Keys.indexEnd(access.table().id(), index.id()))) {
            return null;
        }
        io.duetdb.proto.coprocessor.IndexScan.Builder scan = io.duetdb.proto.coprocessor.IndexScan.newBuilder()
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
                    || position == index.columns().size() && type.getType() != io.duetdb.proto.coprocessor.ValueType.INT64) {
                return null;
            }
            scan.addOutputs(position);
            types.add(type);
        }
        return new ScanShape(Executor.newBuilder().setIndexScan(scan).build(), types, range[0], range[1], index.name(),
                ReadEngines.of(compiler.session(), access.table()).learnersOnly());
    }

    /** The stores' answers as rows, one batch per answer, converted as the consumer pulls them. */
    private Answers run(DagRequest dag, ScanShape shape, List<FieldType> outputTypes,
            java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
        io.duetdb.client.txn.CoprocessorStream answers = java.util.Arrays.equals(shape.start(), shape.end()) ? null
                : transaction.coprocessorStream(dag.toByteArray(), shape.start(), shape.end(), memory.quota(),
                        ScanConcurrency.of(compiler.session()), shape.fromLearners() ? ReplicaRead.LEARNER : ReplicaRead.LEADER);
        return new Answers(answers, outputTypes, reported);
    }

    /**
     * The stores' answers to one plan: as rows (a batch per answer, converted as the consumer pulls them), or as
     * the Arrow batches they arrived in, for an operator that works on columns.
     */
    final class Answers implements RowStream {
        private final io.duetdb.client.txn.CoprocessorStream answers;
        private final List<FieldType> types;
        private final java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported;
        private boolean reportedOnce;

        private Answers(io.duetdb.client.txn.CoprocessorStream answers, List<FieldType> types,
                java.util.function.Consumer<io.duetdb.client.txn.CoprocessorSummary> reported) {
            this.answers = answers;
            this.types = types;
            this.reported = reported;
        }

        /** The answers' column types. */
        List<FieldType> types() {
            return types;
        }

        @Override
        public List<Object[]> next() {
            List<Object[]> rows = new ArrayList<>();
            try (BufferAllocator allocator = new RootAllocator()) {
                return nextBatches(allocator, batch -> ArrowRows.addRows(batch, types, rows)) ? rows : null;
            }
        }

        /**
         * Hands the next answer's batches to {@code each} (valid only during the call, in {@code allocator});
         * false when there are no more answers.
         */
        boolean nextBatches(BufferAllocator allocator, java.util.function.Consumer<VectorSchemaRoot> each) {
            compiler.session().checkNotKilled();
            byte[] answer = answers == null ? null : answers.next();
            if (answer == null) {
                report();
                return false;
            }
            ArrowIpc.read(answer, allocator, each);
            return true;
        }

        private void report() {
            if (!reportedOnce && answers != null) {
                reportedOnce = true;
                reported.accept(answers.summary());
            }
        }

        @Override
        public void close() {
            report();
            if (answers != null) {
                answers.close();
            }
        }
    }

    private static boolean isBooleanCondition(Expression expression, List<FieldType> types) {
        try {
            return VectorExpressions.isBoolean(VectorExpressions.build(expression, types));
        } catch (UnsupportedExpressionException e) {
            return false;
        }
    }

    /** The coprocessor form of an expression over the scan's columns, or null when it has none. */
    Expression translate(RexNode node, List<FieldType> columns) {
        if (node instanceof RexInputRef reference) {
            int index = reference.getIndex();
            return index < columns.size()
                    ? Expression.newBuilder().setType(columns.get(index)).setColumn(index).build() : null;
        }
        if (node instanceof RexLiteral literal) {
            FieldType type = sqlType(literal.getType());
            if (type == null) {
                return null;
            }
            Object value = ComputeValues.toCompute(ExpressionCompiler.literalValue(literal), type);
            if (value == null && !literal.isNull()) {
                return null;
            }
            if (type.getType() == ValueType.FLOAT64 && value instanceof Number number) {
                value = number.doubleValue();
            }
            return Expression.newBuilder().setType(type).setLiteral(Literals.of(value)).build();
        }
        if (!(node instanceof RexCall call)) {
            return null;
        }
        if (RexUtil.isConstant(call) && RexUtil.isDeterministic(call)) {
            // A constant the coprocessor may not know how to compute (date '1998-12-01' - interval '90' day):
            // computed here once, it travels as a literal.
            return constant(call);
        }
        if (call.getKind() == org.apache.calcite.sql.SqlKind.CAST && isWideningStringCast(call)) {
            // CHAR(1) to VARCHAR(20) (Calcite unifying CASE branches) changes no value.
            return translate(call.getOperands().get(0), columns);
        }
        ScalarFunction function = switch (call.getKind()) {
            case EQUALS -> ScalarFunction.EQUAL;
            case NOT_EQUALS -> ScalarFunction.NOT_EQUAL;
            case LESS_THAN -> ScalarFunction.LESS;
            case LESS_THAN_OR_EQUAL -> ScalarFunction.LESS_OR_EQUAL;
            case GREATER_THAN -> ScalarFunction.GREATER;
            case GREATER_THAN_OR_EQUAL -> ScalarFunction.GREATER_OR_EQUAL;
            case AND -> ScalarFunction.AND;
            case OR -> ScalarFunction.OR;
            case NOT -> ScalarFunction.NOT;
            case IS_NULL -> ScalarFunction.IS_NULL;
            case IS_NOT_NULL -> ScalarFunction.IS_NOT_NULL;
            case PLUS -> ScalarFunction.PLUS;
            case MINUS -> ScalarFunction.MINUS;
            case TIMES -> ScalarFunction.MULTIPLY;
            case DIVIDE -> ScalarFunction.DIVIDE;
            case MOD -> ScalarFunction.MOD;
            case MINUS_PREFIX -> ScalarFunction.NEGATE;
            case LIKE -> call.getOperator().getName().toUpperCase(Locale.ROOT).contains("NOT") || call.getOperands().size() != 2
                    ? null : ScalarFunction.LIKE;
            case CASE -> ScalarFunction.CASE;
            case CAST -> ScalarFunction.CAST;
            case EXTRACT -> extractFunction(call);
            case FLOOR -> call.getOperands().size() == 1 ? ScalarFunction.FLOOR : null;
            case CEIL -> call.getOperands().size() == 1 ? ScalarFunction.CEIL : null;
            case OTHER_FUNCTION, OTHER -> switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
                case "SUBSTRING", "SUBSTR" -> ScalarFunction.SUBSTRING;
                case "UPPER" -> ScalarFunction.UPPER;
                case "LOWER" -> ScalarFunction.LOWER;
                case "CHAR_LENGTH", "CHARACTER_LENGTH" -> ScalarFunction.CHAR_LENGTH;
                case "LENGTH", "OCTET_LENGTH" -> ScalarFunction.OCTET_LENGTH;
                case "CONCAT", "||" -> ScalarFunction.CONCAT;
                case "ABS" -> ScalarFunction.ABS;
                case "ASCII" -> ScalarFunction.ASCII;
                default -> null;
            };
            default -> null;
        };
        FieldType type = sqlType(call.getType());
        if (function == null || type == null) {
            return null;
        }
        if (isComparisonOrLogic(function)) {
            type = ValueTypes.of(ValueType.BOOLEAN);
        }
        Call.Builder built = Call.newBuilder().setFunction(function);
        // EXTRACT's first operand is its unit, which the function already names.
        List<RexNode> operands = function == ScalarFunction.EXTRACT_YEAR || function == ScalarFunction.EXTRACT_MONTH
                || function == ScalarFunction.EXTRACT_DAY ? call.getOperands().subList(1, 2) : call.getOperands();
        for (RexNode operand : operands) {
            Expression argument = translate(operand, columns);
            if (argument == null) {
                return null;
            }
            built.addArguments(argument);
        }
        Expression expression = Expression.newBuilder().setType(type).setCall(built).build();
        try {
            VectorExpressions.build(expression, columns);
        } catch (UnsupportedExpressionException e) {
            return null;
        }
        return expression;
    }

    /** A cast from a string type to VARCHAR at least as long: the SQL layer truncates only longer values. */
    private static boolean isWideningStringCast(RexCall call) {
        RelDataType target = call.getType();
        RelDataType source = call.getOperands().get(0).getType();
        if (target.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.VARCHAR
                || source.getSqlTypeName().getFamily() != org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
            return false;
        }
        int targetLength = target.getPrecision();
        int sourceLength = source.getPrecision();
        return targetLength == RelDataType.PRECISION_NOT_SPECIFIED || targetLength >= 65536
                || sourceLength != RelDataType.PRECISION_NOT_SPECIFIED && sourceLength <= targetLength;
    }

    private Expression constant(RexCall call) {
        FieldType type = sqlType(call.getType());
        if (type == null) {
            return null;
        }
        Object value;
        try {
            value = compiler.compile(call).evaluate(new Object[0]);
        } catch (RuntimeException e) {
            // Evaluating it fails (an overflow, a bad cast): the SQL layer reports that when it evaluates it.
            return null;
        }
        Object computed = ComputeValues.toCompute(value, type);
        if (value != null && computed == null) {
            return null;
        }
        if (type.getType() == ValueType.FLOAT64 && computed instanceof Number number) {
            computed = number.doubleValue();
        }
        return Expression.newBuilder().setType(type).setLiteral(Literals.of(computed)).build();
    }

    private static ScalarFunction extractFunction(RexCall call) {
        if (call.getOperands().size() != 2 || !(call.getOperands().get(0) instanceof RexLiteral unit)) {
            return null;
        }
        return switch (String.valueOf(unit.getValue()).toUpperCase(Locale.ROOT)) {
            case "YEAR" -> ScalarFunction.EXTRACT_YEAR;
            case "MONTH" -> ScalarFunction.EXTRACT_MONTH;
            case "DAY" -> ScalarFunction.EXTRACT_DAY;
            default -> null;
        };
    }

    private static boolean isComparisonOrLogic(ScalarFunction function) {
        return switch (function) {
            case PLUS, MINUS, MULTIPLY, DIVIDE, MOD, NEGATE, CASE, CAST, EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY, SUBSTRING,
                    UPPER, LOWER, CHAR_LENGTH, OCTET_LENGTH, ASCII, CONCAT, ABS, FLOOR, CEIL -> false;
            default -> true;
        };
    }

    /** The coprocessor type of a Calcite type, or null when values of it are not evaluated there. */
    static FieldType sqlType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> ValueTypes.of(ValueType.INT64);
            case DECIMAL -> type.getPrecision() > ValueTypes.MAX_DECIMAL_PRECISION ? null
                    : ValueTypes.decimal(type.getPrecision(), Math.max(0, type.getScale()));
            case DOUBLE, FLOAT, REAL -> ValueTypes.of(ValueType.FLOAT64);
            case CHAR, VARCHAR -> ValueTypes.of(ValueType.STRING);
            case BINARY, VARBINARY -> ValueTypes.of(ValueType.BYTES);
            case DATE -> ValueTypes.of(ValueType.DATE);
            case TIMESTAMP -> ValueTypes.of(ValueType.DATETIME);
            case BOOLEAN -> ValueTypes.of(ValueType.BOOLEAN);
            default -> null;
        };
    }
}
