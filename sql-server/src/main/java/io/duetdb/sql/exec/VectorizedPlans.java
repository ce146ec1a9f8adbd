package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.CoprocessorSummary;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.compute.operator.AppendedBatch;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.DistinctOperator;
import io.duetdb.compute.operator.HashAggregation;
import io.duetdb.compute.operator.HashJoinOperator;
import io.duetdb.compute.operator.MergeJoinOperator;
import io.duetdb.compute.operator.PartialAggregationOperator;
import io.duetdb.compute.operator.ProjectionOperator;
import io.duetdb.compute.operator.SelectionOperator;
import io.duetdb.compute.operator.SortOperator;
import io.duetdb.compute.operator.WindowOperator;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.sql.prepare.MySqlCollations;

/**
 * The part of a plan that runs over Arrow batches rather than rows: from the stores' answers (scans whose whole
 * condition they evaluate) through filters, projections and hash joins, up to a hash aggregation or to the first
 * operator that takes rows. Expressions are the coprocessor's, translated as for push-down and evaluated by the
 * evaluator shared with the stores, so they mean the same in both places; an operator whose expressions do not
 * all translate, or whose input does not run on batches, runs on rows. Batches become rows once, at the top.
 */
final class VectorizedPlans {
    static final String SWITCH_VARIABLE = "duet_vectorized_execution";
    private static final Logger LOG = LoggerFactory.getLogger(VectorizedPlans.class);
    private static final int MEMORY_CHECK_GROUPS = 16_384;
    private static final int SORT_BATCH_ROWS = 4_096;
    private static final Set<JoinRelType> JOINS = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.RIGHT,
            JoinRelType.FULL, JoinRelType.SEMI, JoinRelType.ANTI);

    /** What the plan executor decides and records for the operators it runs. */
    interface Context {
        /** Whether several operators read the node's rows: they are computed once and kept as rows. */
        boolean shared(RelNode node);

        /**
         * The left and right fields of the join's whole-number equality by which both inputs ascend, so it may run
         * as a merge join; null when their order does not allow one.
         */
        int[] mergeKeys(Join join);

        /** The most outer rows whose keys the join's inner rows may be looked up by, or -1 when lookups do not apply. */
        long lookupOuterRows(Join join);

        /** The stores' read the physical plan computes the node by, or null when the SQL layer computes it. */
        CoprocessorPlanner.StoreRead storeRead(RelNode node);

        /** The MPP read the physical plan computes the node by, or null. */
        MppRead mppRead(RelNode node);

        /** The join's inner rows read by lookups of the outer rows' keys, or null when reading them whole is cheaper. */
        List<Object[]> lookUp(Join join, List<Object[]> outerRows);

        Consumer<CoprocessorSummary> reportTo(RelNode node);

        /** The node's rows as the executor computes them. */
        RowStream rows(RelNode node);

        /** Whether operators' statistics are recorded (EXPLAIN ANALYZE). */
        boolean recording();

        /** What an operator did so far: rows out, time including its inputs', bytes held. */
        void record(RelNode node, long rows, long nanos, long bytes);
    }

    private final CoprocessorReader coprocessorReader;
    private final ExpressionTranslator translator;
    private final ExpressionCompiler compiler;
    private final MemoryTracker memory;
    private final Context context;
    private final Set<RelNode> ran = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private final Set<Join> mergeJoins = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** The most bytes each join and sort held, for EXPLAIN ANALYZE. */
    private final java.util.Map<RelNode, Long> heldBytes = new java.util.IdentityHashMap<>();

    VectorizedPlans(CoprocessorReader coprocessorReader, ExpressionCompiler compiler, MemoryTracker memory,
            Context context) {
        this.coprocessorReader = requireNonNull(coprocessorReader, "coprocessorReader is null");
        this.translator = new ExpressionTranslator(compiler);
        this.compiler = requireNonNull(compiler, "compiler is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.context = requireNonNull(context, "context is null");
    }

    static boolean enabled(SessionFunctions session) {
        return session.switchedOn(SWITCH_VARIABLE);
    }

    /** Whether the node ran on batches (for EXPLAIN ANALYZE). */
    boolean ranVectorized(RelNode node) {
        return ran.contains(node);
    }

    /** Whether the join ran as a merge join on batches. */
    boolean mergedJoin(Join join) {
        return mergeJoins.contains(join);
    }

    /** The node's rows computed over batches, or null when it does not run on them. */
    RowStream rows(RelNode node) {
        BufferAllocator allocator = new RootAllocator();
        BatchOperator operator;
        try {
            operator = open(node, allocator);
        } catch (RuntimeException e) {
            close(allocator);
            throw e;
        }
        if (operator == null) {
            close(allocator);
            return null;
        }
        List<FieldType> types = operator.outputTypes();
        return new RowStream() {
            @Override
            public List<Object[]> next() {
                VectorSchemaRoot batch = operator.next();
                if (batch == null) {
                    return null;
                }
                List<Object[]> rows = new ArrayList<>(batch.getRowCount());
                ArrowRows.addRows(batch, types, rows);
                return rows;
            }

            @Override
            public void close() {
                try {
                    operator.close();
                } finally {
                    VectorizedPlans.close(allocator);
                }
            }
        };
    }

    /**
     * The rows of an aggregation (group-by keys, then each call's result) computed over its input's batches, or
     * null when the input does not run on batches or a call is one the batch aggregation lacks (DISTINCT).
     */
    List<Object[]> aggregate(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return null;
        }
        BufferAllocator allocator = new RootAllocator();
        try {
            BatchOperator input = open(aggregate.getInput(), allocator);
            if (input == null) {
                return null;
            }
            try (input) {
                return aggregate(aggregate, input, allocator);
            }
        } finally {
            close(allocator);
        }
    }

    private List<Object[]> aggregate(Aggregate aggregate, BatchOperator input, BufferAllocator allocator) {
        int[] groupFields = aggregate.getGroupSet().toArray();
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (calls.stream().noneMatch(AggregateCall::isDistinct)) {
            return aggregate(aggregate, groupFields, calls, input, allocator);
        }
        // COUNT(DISTINCT x), SUM(DISTINCT x), MIN(x), MAX(x): the distinct (keys, x) first, then the calls over them.
        Integer argument = distinctArgument(calls);
        if (argument == null) {
            return null;
        }
        List<FieldType> types = input.outputTypes();
        List<VectorExpression> keys = new ArrayList<>();
        List<FieldType> keyTypes = new ArrayList<>();
        int[] distinctFields = java.util.Arrays.copyOf(groupFields, groupFields.length + 1);
        distinctFields[groupFields.length] = argument;
        for (int field : distinctFields) {
            if (!groupable(types.get(field))) {
                return null;
            }
            keys.add(new ColumnReference(field, types.get(field)));
            keyTypes.add(types.get(field));
        }
        List<Object[]> distinct = groups(aggregate, new HashAggregation(keys, List.of()), input, allocator);
        int[] stageKeys = java.util.stream.IntStream.range(0, groupFields.length).toArray();
        List<AggregateCall> stageCalls = calls.stream()
                .map(call -> call.withDistinct(false).withArgList(List.of(groupFields.length))).toList();
        VectorSchemaRoot batch = io.duetdb.compute.operator.Batches.ofRows(keyTypes, distinct, allocator);
        try (BatchOperator values = new BatchOperator() {
            private boolean given;

            @Override
            public List<FieldType> outputTypes() {
                return keyTypes;
            }

            @Override
            public VectorSchemaRoot next() {
                boolean first = !given;
                given = true;
                return first && batch.getRowCount() > 0 ? batch : null;
            }

            @Override
            public void close() {
                batch.close();
            }
        }) {
            return aggregate(aggregate, stageKeys, stageCalls, values, allocator);
        }
    }

    /** The one argument of calls that are DISTINCT, or MIN or MAX, of the same column; null when they are not. */
    private static Integer distinctArgument(List<AggregateCall> calls) {
        Integer argument = null;
        for (AggregateCall call : calls) {
            String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
            boolean distinctInsensitive = name.equals("MIN") || name.equals("MAX");
            if (call.getArgList().size() != 1 || call.filterArg >= 0 || !call.isDistinct() && !distinctInsensitive
                    || argument != null && !argument.equals(call.getArgList().get(0))) {
                return null;
            }
            argument = call.getArgList().get(0);
        }
        return argument;
    }

    /** Whether equal values of the type have equal bytes: floating point ones do not (0.0 and -0.0). */
    private static boolean groupable(FieldType type) {
        return type.getType() != ValueType.FLOAT32 && type.getType() != ValueType.FLOAT64;
    }

    private List<Object[]> aggregate(Aggregate aggregate, int[] groupFields, List<AggregateCall> aggregateCalls,
            BatchOperator input, BufferAllocator allocator) {
        List<FieldType> types = input.outputTypes();
        List<Expression> columns = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            columns.add(Expression.newBuilder().setType(types.get(i)).setColumn(i).build());
        }
        List<VectorExpression> keys = new ArrayList<>();
        List<FieldType> keyTypes = new ArrayList<>();
        for (int key : groupFields) {
            FieldType type = types.get(key);
            if (!groupable(type)) {
                return null;
            }
            keys.add(new ColumnReference(key, type));
            keyTypes.add(type);
        }
        io.duetdb.proto.coprocessor.Aggregation.Builder partial = io.duetdb.proto.coprocessor.Aggregation.newBuilder();
        List<FieldType> stateTypes = new ArrayList<>(keyTypes);
        List<int[]> slots = new ArrayList<>();
        for (AggregateCall call : aggregateCalls) {
            int[] callSlots = PartialAggregates.addCalls(call, columns, partial, stateTypes);
            if (callSlots == null) {
                return null;
            }
            slots.add(callSlots);
        }
        List<PartialAggregationOperator.Call> calls = new ArrayList<>();
        for (io.duetdb.proto.coprocessor.AggregateCall call : partial.getCallsList()) {
            VectorExpression argument = call.hasArgument() ? VectorExpressions.build(call.getArgument(), types) : null;
            calls.add(new PartialAggregationOperator.Call(call.getFunction(), argument, call.getType()));
        }
        long started = System.nanoTime();
        HashAggregation groups = new HashAggregation(keys, calls);
        List<Object[]> states = groups(aggregate, groups, input, allocator);
        List<Object[]> rows = new ArrayList<>(states.size());
        int keyCount = keys.size();
        for (Object[] state : states) {
            for (int i = 0; i < state.length; i++) {
                state[i] = ComputeValues.toSql(state[i], stateTypes.get(i));
            }
            Object[] row = new Object[keyCount + aggregateCalls.size()];
            System.arraycopy(state, 0, row, 0, keyCount);
            for (int c = 0; c < aggregateCalls.size(); c++) {
                row[keyCount + c] = PartialAggregates.result(aggregateCalls.get(c), state, slots.get(c));
            }
            rows.add(row);
        }
        if (context.recording()) {
            context.record(aggregate, rows.size(), System.nanoTime() - started, groups.estimatedBytes());
        }
        return rows;
    }

    /** Every batch of the input added to the groups, which count against the quota while they grow; their results. */
    private List<Object[]> groups(Aggregate aggregate, HashAggregation groups, BatchOperator input,
            BufferAllocator allocator) {
        ran.add(aggregate);
        long held = 0;
        long nextCheck = MEMORY_CHECK_GROUPS;
        try {
            for (VectorSchemaRoot batch = input.next(); batch != null; batch = input.next()) {
                compiler.session().checkNotKilled();
                groups.add(batch, allocator);
                if (groups.groupCount() >= nextCheck) {
                    long now = groups.estimatedBytes();
                    memory.take(now - held, "HashAgg");
                    held = now;
                    nextCheck = groups.groupCount() + MEMORY_CHECK_GROUPS;
                }
            }
            return groups.results();
        } finally {
            memory.release(held);
        }
    }

    /** The node's batches, or null when it or an input does not run on them; nothing is read until they are asked for. */
    private BatchOperator open(RelNode node, BufferAllocator allocator) {
        if (context.shared(node)) {
            return null;
        }
        if (node instanceof Aggregate) {
            // Few rows out of many: computed as rows, then turned into a batch for the operators above.
            return RowBatches.of(node, context, allocator);
        }
        if (overAggregate(node)) {
            // Filters and projections of an aggregation's rows stay on rows: turning every group into a batch
            // costs more than they do (a HAVING keeps few). A join above takes what they leave (adapted).
            return null;
        }
        BatchOperator operator;
        try {
            operator = build(node, allocator);
        } catch (UnsupportedExpressionException e) {
            LOG.debug("{} runs on rows: {}", node.getRelTypeName(), e.getMessage());
            return null;
        }
        return operator == null ? null : new Recorded(node, operator);
    }

    /**
     * The node's rows as batches for a join over them: when they hold only values read from tables or aggregated,
     * or else from an aggregation's rows through the filters and projections above it; null otherwise.
     */
    private BatchOperator adapted(RelNode node, BufferAllocator allocator) {
        if (valuesOnlyMoved(node)) {
            return RowBatches.of(node, context, allocator);
        }
        return overAggregate(node) ? chainOverAggregate(node, allocator) : null;
    }

    /** A chain of filters and projections over an aggregation, on batches from the aggregation's rows up. */
    private BatchOperator chainOverAggregate(RelNode node, BufferAllocator allocator) {
        if (context.shared(node)) {
            return null;
        }
        if (node instanceof Aggregate) {
            return RowBatches.of(node, context, allocator);
        }
        BatchOperator input = chainOverAggregate(node.getInput(0), allocator);
        if (input == null) {
            return null;
        }
        BatchOperator operator;
        try {
            operator = node instanceof Filter filter ? selection(input, filter.getCondition(), allocator)
                    : projection(input, ((Project) node).getProjects(), allocator);
        } catch (UnsupportedExpressionException e) {
            LOG.debug("{} runs on rows: {}", node.getRelTypeName(), e.getMessage());
            input.close();
            return null;
        }
        return operator == null ? null : new Recorded(node, operator);
    }

    /** Whether the node is a chain of filters and projections over an aggregation. */
    private static boolean overAggregate(RelNode node) {
        RelNode current = node;
        while (current instanceof Filter || current instanceof Project) {
            current = current.getInput(0);
        }
        return current != node && current instanceof Aggregate;
    }

    /**
     * Whether every value of the node's rows was read from a table (of a column whose type travels to the stores)
     * or computed by an aggregation, and only moved since: by filters, joins, sorts, unions and projections of
     * columns. Rows computed otherwise may carry values of another form than their column type (a scale).
     */
    private static boolean valuesOnlyMoved(RelNode node) {
        if (node instanceof Aggregate) {
            return true;
        }
        if (node instanceof TableScan scan) {
            io.duetdb.sql.prepare.DuetTable table = scan.getTable().unwrap(io.duetdb.sql.prepare.DuetTable.class);
            return table != null && table.table().publicColumns().stream()
                    .allMatch(column -> ComputeValues.columnType(column) != null);
        }
        if (node instanceof Project project
                && !project.getProjects().stream().allMatch(expression -> expression instanceof RexInputRef)) {
            return false;
        }
        if (!(node instanceof Project || node instanceof Filter || node instanceof Join
                || node instanceof Sort || node instanceof Union)) {
            return false;
        }
        return node.getInputs().stream().allMatch(VectorizedPlans::valuesOnlyMoved);
    }

    private BatchOperator build(RelNode node, BufferAllocator allocator) {
        MppRead mpp = context.mppRead(node);
        if (mpp != null) {
            return mpp.finishedOnLearners() ? coprocessorReader.openMppBatches(mpp, context.reportTo(node), allocator) : null;
        }
        CoprocessorPlanner.StoreRead read = context.storeRead(node);
        if (read != null) {
            CoprocessorPlanner.BatchScan scan = read.batches();
            if (scan == null) {
                // The SQL layer finishes the stores' rows (a condition they cannot evaluate): on rows.
                return null;
            }
            BatchOperator answers = coprocessorReader.openBatches(scan.task(), context.reportTo(node), allocator);
            return scan.projects() == null ? answers : projection(answers, scan.projects(), allocator);
        }
        if (node instanceof TableScan || node instanceof Filter filter && filter.getInput() instanceof TableScan) {
            return null;
        }
        if (node instanceof Filter filter) {
            BatchOperator input = open(filter.getInput(), allocator);
            return input == null ? null : selection(input, filter.getCondition(), allocator);
        }
        if (node instanceof Project project) {
            BatchOperator input = open(project.getInput(), allocator);
            return input == null ? null : projection(input, project.getProjects(), allocator);
        }
        if (node instanceof Join join) {
            return join(join, allocator);
        }
        if (node instanceof Union union) {
            BatchOperator all = concatenation(union, allocator);
            if (all == null || union.all) {
                return all;
            }
            if (!all.outputTypes().stream().allMatch(VectorizedPlans::groupable)) {
                all.close();
                return null;
            }
            Held held = new Held(union, "Union");
            return new DistinctOperator(all, allocator, held::change);
        }
        if (node instanceof Sort sort) {
            return sort(sort, allocator);
        }
        if (node instanceof Window window) {
            return window(window, allocator);
        }
        return null;
    }

    /** Whether a window partitions or orders by text under a collation other than the binary one. */
    private static boolean collatedKeys(Window window) {
        List<RelDataTypeField> fields = window.getInput().getRowType().getFieldList();
        for (Window.Group group : window.groups) {
            for (int key : group.keys) {
                if (MySqlCollations.collated(fields.get(key).getType())) {
                    return true;
                }
            }
            for (RelFieldCollation order : group.orderKeys.getFieldCollations()) {
                if (MySqlCollations.collated(fields.get(order.getFieldIndex()).getType())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Window functions of the common frames over an input on batches: rankings, and aggregates as partial states
     * that are finished as the final merge finishes them. Other frames, DISTINCT calls and arguments that are
     * constants run on rows.
     */
    private BatchOperator window(Window window, BufferAllocator allocator) {
        if (collatedKeys(window)) {
            // The batch operator compares text as bytes; the row operator compares it by its collation.
            return null;
        }
        int width = window.getInput().getRowType().getFieldCount();
        BatchOperator input = open(window.getInput(), allocator);
        if (input == null) {
            return null;
        }
        List<FieldType> types = input.outputTypes();
        List<Expression> columns = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            columns.add(Expression.newBuilder().setType(types.get(i)).setColumn(i).build());
        }
        List<WindowOperator.Group> groups = new ArrayList<>();
        List<FinishedCalls.Column> outputs = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            outputs.add(FinishedCalls.Column.taken(i, types.get(i)));
        }
        io.duetdb.proto.coprocessor.Aggregation.Builder partial = io.duetdb.proto.coprocessor.Aggregation.newBuilder();
        List<FieldType> stateTypes = new ArrayList<>();
        List<Integer> statePositions = new ArrayList<>();
        List<FieldType> windowTypes = new ArrayList<>(types);
        for (Window.Group group : window.groups) {
            WindowOperator.Frame frame = frame(group);
            if (frame == null) {
                input.close();
                return null;
            }
            List<WindowOperator.Function> functions = new ArrayList<>();
            for (AggregateCall call : group.getAggregateCalls(window)) {
                String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
                if (name.equals("ROW_NUMBER") || name.equals("RANK") || name.equals("DENSE_RANK")) {
                    functions.add(new WindowOperator.Function(WindowOperator.Ranking.valueOf(name), null));
                    windowTypes.add(ValueTypes.of(ValueType.INT64));
                    outputs.add(FinishedCalls.Column.taken(windowTypes.size() - 1, ValueTypes.of(ValueType.INT64)));
                    continue;
                }
                int added = partial.getCallsCount();
                int[] slots = call.getArgList().stream().allMatch(argument -> argument < width)
                        ? PartialAggregates.addCalls(call, columns, partial, stateTypes) : null;
                if (slots == null) {
                    input.close();
                    return null;
                }
                for (int c = added; c < partial.getCallsCount(); c++) {
                    io.duetdb.proto.coprocessor.AggregateCall state = partial.getCalls(c);
                    VectorExpression argument = state.hasArgument() ? VectorExpressions.build(state.getArgument(), types)
                            : null;
                    functions.add(new WindowOperator.Function(null,
                            new PartialAggregationOperator.Call(state.getFunction(), argument, state.getType())));
                    windowTypes.add(state.getType());
                    statePositions.add(windowTypes.size() - 1);
                }
                int[] positions = java.util.Arrays.stream(slots).map(statePositions::get).toArray();
                String finished = name.equals("AVG") || name.equals("$SUM0") ? name : null;
                FieldType type = finished == null ? windowTypes.get(positions[0]) : ExpressionTranslator.fieldType(call.getType());
                if (type == null) {
                    input.close();
                    return null;
                }
                outputs.add(finished == null ? FinishedCalls.Column.taken(positions[0], type)
                        : new FinishedCalls.Column(positions, call, type));
            }
            List<SortOperator.Key> order = new ArrayList<>();
            for (RelFieldCollation collation : group.orderKeys.getFieldCollations()) {
                order.add(new SortOperator.Key(collation.getFieldIndex(), collation.getDirection().isDescending()));
            }
            groups.add(new WindowOperator.Group(group.keys.asList(), order, frame, functions));
        }
        Held held = new Held(window, "Window");
        return new FinishedCalls(new WindowOperator(input, groups, allocator, SORT_BATCH_ROWS, held::change), outputs,
                allocator);
    }

    /** The frame of a window group when it is a common one: the whole partition, or from its start to the row. */
    private static WindowOperator.Frame frame(Window.Group group) {
        if (group.orderKeys.getFieldCollations().isEmpty()
                || group.lowerBound.isUnboundedPreceding() && group.upperBound.isUnboundedFollowing()) {
            return WindowOperator.Frame.PARTITION;
        }
        if (group.lowerBound.isUnboundedPreceding() && group.upperBound.isCurrentRow()) {
            return group.isRows ? WindowOperator.Frame.RUNNING_ROWS : WindowOperator.Frame.RUNNING_RANGE;
        }
        return null;
    }

    /**
     * A sort or top N of an input on batches. Not of an aggregation's rows: turning them into batches costs what
     * sorting them does.
     */
    private BatchOperator sort(Sort sort, BufferAllocator allocator) {
        if (sort.getInput() instanceof Aggregate || overAggregate(sort.getInput())) {
            return null;
        }
        List<SortOperator.Key> keys = new ArrayList<>();
        for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
            keys.add(new SortOperator.Key(collation.getFieldIndex(), collation.getDirection().isDescending()));
        }
        BatchOperator input = open(sort.getInput(), allocator);
        if (input == null) {
            return null;
        }
        SortWindow window = SortWindow.of(sort, compiler);
        Held held = new Held(sort, "Sort");
        return new SortOperator(input, keys, window.offset(), window.fetch(), allocator, SORT_BATCH_ROWS, held::change);
    }

    private BatchOperator selection(BatchOperator input, RexNode condition, BufferAllocator allocator) {
        List<VectorExpression> conditions = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(SearchExpansion.expand(compiler.rexBuilder(), condition))) {
            VectorExpression translated = expression(conjunct, input.outputTypes());
            if (translated == null || !VectorExpressions.isBoolean(translated)) {
                input.close();
                return null;
            }
            conditions.add(translated);
        }
        return new SelectionOperator(input, conditions, allocator);
    }

    /** Each input's batches in turn (UNION ALL), when all of them run on batches of the same types. */
    private BatchOperator concatenation(Union union, BufferAllocator allocator) {
        List<BatchOperator> inputs = new ArrayList<>();
        for (RelNode input : union.getInputs()) {
            BatchOperator opened = open(input, allocator);
            if (opened == null || !inputs.isEmpty() && !opened.outputTypes().equals(inputs.get(0).outputTypes())) {
                if (opened != null) {
                    opened.close();
                }
                inputs.forEach(BatchOperator::close);
                return null;
            }
            inputs.add(opened);
        }
        return new BatchOperator() {
            private int current;

            @Override
            public List<FieldType> outputTypes() {
                return inputs.get(0).outputTypes();
            }

            @Override
            public VectorSchemaRoot next() {
                for (; current < inputs.size(); current++) {
                    VectorSchemaRoot batch = inputs.get(current).next();
                    if (batch != null) {
                        return batch;
                    }
                    // Done with: its buffers go back now rather than at the end of the statement.
                    inputs.get(current).close();
                }
                return null;
            }

            @Override
            public void close() {
                for (int i = current; i < inputs.size(); i++) {
                    inputs.get(i).close();
                }
            }
        };
    }

    private BatchOperator projection(BatchOperator input, List<RexNode> projects, BufferAllocator allocator) {
        List<VectorExpression> expressions = new ArrayList<>();
        for (RexNode project : projects) {
            VectorExpression expression = expression(project, input.outputTypes());
            if (expression == null) {
                input.close();
                return null;
            }
            expressions.add(expression);
        }
        return new ProjectionOperator(input, expressions, allocator);
    }

    /**
     * A join over batches: a merge join when both inputs ascend by a whole-number key, else a hash join (a nested
     * loop without equalities). When the inner rows may be read by lookups of the outer keys, the outer side is read
     * first and the join is chosen once it is known whether they were.
     */
    private BatchOperator join(Join join, BufferAllocator allocator) {
        if (!JOINS.contains(join.getJoinType())) {
            return null;
        }
        int[] merge = context.mergeKeys(join);
        BatchOperator left = open(join.getLeft(), allocator);
        BatchOperator right = open(join.getRight(), allocator);
        long outerLimit = context.lookupOuterRows(join);
        if (merge == null && outerLimit < 0) {
            // One side on batches is enough: the other's rows become batches when they hold only values read (or
            // aggregated), which their column types hold exactly.
            if (left != null && right == null) {
                right = adapted(join.getRight(), allocator);
            } else if (left == null && right != null) {
                left = adapted(join.getLeft(), allocator);
            }
        }
        if (left == null || right == null) {
            // The row join merges the inputs, or reads the outer side and decides on lookups itself.
            closeAll(left, right);
            return null;
        }
        JoinFactory hash = merge == null || outerLimit >= 0 ? hashJoin(join, left.outputTypes(), right.outputTypes(),
                allocator) : null;
        JoinFactory merged = merge == null ? null
                : mergeJoin(join, merge[0], merge[1], left.outputTypes(), right.outputTypes(), allocator);
        if (merge == null ? hash == null : merged == null || outerLimit >= 0 && hash == null) {
            closeAll(left, right);
            return null;
        }
        if (outerLimit < 0) {
            return (merged != null ? merged : hash).over(left, right);
        }
        LookupChoice choice = new LookupChoice(join, left, right, outerLimit, allocator);
        return merged == null ? hash.over(choice.outer(), choice.inner()) : new ChosenJoin(choice, hash, merged);
    }

    /** A join operator over given inputs, its expressions already translated. */
    private interface JoinFactory {
        BatchOperator over(BatchOperator left, BatchOperator right);
    }

    /** A hash join (a nested loop without equalities), or null when its keys or condition do not translate. */
    private JoinFactory hashJoin(Join join, List<FieldType> leftTypes, List<FieldType> rightTypes,
            BufferAllocator allocator) {
        JoinKeys keys = JoinKeys.of(join, compiler.rexBuilder());
        List<RexNode> leftKeys = keys == null ? List.of() : keys.leftKeys();
        List<RexNode> rightKeys = keys == null ? List.of() : keys.rightKeys();
        List<HashJoinOperator.Key> hashKeys = new ArrayList<>();
        for (int i = 0; i < leftKeys.size(); i++) {
            VectorExpression leftKey = expression(leftKeys.get(i), leftTypes);
            VectorExpression rightKey = expression(rightKeys.get(i), rightTypes);
            if (leftKey == null || rightKey == null || !HashJoinOperator.sameBytes(leftKey.type(), rightKey.type())) {
                return null;
            }
            hashKeys.add(new HashJoinOperator.Key(leftKey, rightKey, keys.nullSafe().get(i)));
        }
        SideConditions sides = sideConditions(join, keys == null ? join.getCondition() : keys.remaining(), leftTypes,
                rightTypes);
        if (sides == null) {
            return null;
        }
        HashJoinOperator.Kind kind = HashJoinOperator.Kind.valueOf(join.getJoinType().name());
        return (left, right) -> {
            Held held = new Held(join, hashKeys.isEmpty() ? "NestedLoopJoin" : "HashJoin");
            return new HashJoinOperator(sides.left(left, allocator), sides.right(right, allocator), kind,
                    hashKeys, sides.condition(), sides.conditionColumns(), allocator, held::change);
        };
    }

    /** A merge join by the given fields, or null when its keys are not whole numbers or its condition does not translate. */
    private JoinFactory mergeJoin(Join join, int leftField, int rightField, List<FieldType> leftTypes,
            List<FieldType> rightTypes, BufferAllocator allocator) {
        if (leftTypes.get(leftField).getType() != ValueType.INT64 || rightTypes.get(rightField).getType() != ValueType.INT64) {
            return null;
        }
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        List<RexNode> others = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
            if (!isEquality(conjunct, leftField, leftWidth + rightField)) {
                others.add(conjunct);
            }
        }
        SideConditions sides = sideConditions(join, RexUtil.composeConjunction(compiler.rexBuilder(), others), leftTypes,
                rightTypes);
        if (sides == null) {
            return null;
        }
        MergeJoinOperator.Kind kind = MergeJoinOperator.Kind.valueOf(join.getJoinType().name());
        return (left, right) -> {
            Held held = new Held(join, "MergeJoin");
            mergeJoins.add(join);
            return new MergeJoinOperator(sides.left(left, allocator), sides.right(right, allocator), kind,
                    leftField, rightField, sides.condition(), sides.conditionColumns(), allocator, held::change);
        };
    }

    /** Whether the conjunct is exactly {@code $first = $second} (either way round). */
    private static boolean isEquality(RexNode conjunct, int first, int second) {
        if (!(conjunct instanceof org.apache.calcite.rex.RexCall call)
                || call.getKind() != org.apache.calcite.sql.SqlKind.EQUALS
                || !(call.getOperands().get(0) instanceof RexInputRef a)
                || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return false;
        }
        return a.getIndex() == first && b.getIndex() == second || a.getIndex() == second && b.getIndex() == first;
    }

    /**
     * A join condition taken apart: conjuncts of one side that decide alone whether its rows can match, which filter
     * that side's input first where the join type allows (fewer candidate pairs to gather and test), and the rest
     * over the pairs (null when nothing is left), with the pair columns it reads.
     */
    private record SideConditions(List<VectorExpression> leftFilters, List<VectorExpression> rightFilters,
            VectorExpression condition, java.util.BitSet conditionColumns) {
        BatchOperator left(BatchOperator input, BufferAllocator allocator) {
            return leftFilters.isEmpty() ? input : new SelectionOperator(input, leftFilters, allocator);
        }

        BatchOperator right(BatchOperator input, BufferAllocator allocator) {
            return rightFilters.isEmpty() ? input : new SelectionOperator(input, rightFilters, allocator);
        }
    }

    /** The condition taken apart over inputs of the given types, or null when a part does not translate. */
    private SideConditions sideConditions(Join join, RexNode condition, List<FieldType> leftTypes,
            List<FieldType> rightTypes) {
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        JoinRelType type = join.getJoinType();
        boolean leftFilters = type == JoinRelType.INNER || type == JoinRelType.SEMI || type == JoinRelType.RIGHT;
        boolean rightFilters = type == JoinRelType.INNER || type == JoinRelType.SEMI || type == JoinRelType.ANTI
                || type == JoinRelType.LEFT;
        List<VectorExpression> leftConditions = new ArrayList<>();
        List<VectorExpression> rightConditions = new ArrayList<>();
        List<RexNode> kept = new ArrayList<>();
        RexNode expanded = condition.isAlwaysTrue() ? condition
                : SearchExpansion.expand(compiler.rexBuilder(), condition);
        for (RexNode conjunct : condition.isAlwaysTrue() ? List.<RexNode>of() : RelOptUtil.conjunctions(expanded)) {
            org.apache.calcite.util.ImmutableBitSet fields = RelOptUtil.InputFinder.bits(conjunct);
            if (!fields.isEmpty() && leftFilters && fields.nextSetBit(leftWidth) < 0) {
                VectorExpression filter = expression(conjunct, leftTypes);
                if (filter != null && VectorExpressions.isBoolean(filter)) {
                    leftConditions.add(filter);
                    continue;
                }
            } else if (!fields.isEmpty() && rightFilters && fields.nth(0) >= leftWidth) {
                VectorExpression filter = expression(RexUtil.shift(conjunct, -leftWidth), rightTypes);
                if (filter != null && VectorExpressions.isBoolean(filter)) {
                    rightConditions.add(filter);
                    continue;
                }
            }
            kept.add(conjunct);
        }
        RexNode rest = RexUtil.composeConjunction(compiler.rexBuilder(), kept);
        VectorExpression remaining = null;
        if (!rest.isAlwaysTrue()) {
            List<FieldType> pairTypes = new ArrayList<>(leftTypes);
            pairTypes.addAll(rightTypes);
            remaining = expression(rest, pairTypes);
            if (remaining == null || !VectorExpressions.isBoolean(remaining)) {
                return null;
            }
        }
        return new SideConditions(leftConditions, rightConditions, remaining,
                RelOptUtil.InputFinder.bits(rest).toBitSet());
    }

    /**
     * A join whose inner rows may be read by lookups and whose inputs may be merged: once the outer side was read up
     * to the lookup limit, a hash join over the looked-up rows, or else a merge join of the inputs.
     */
    private final class ChosenJoin implements BatchOperator {
        private final LookupChoice choice;
        private final JoinFactory hash;
        private final JoinFactory merged;
        private final BatchOperator outer;
        private final BatchOperator inner;
        private BatchOperator chosen;

        ChosenJoin(LookupChoice choice, JoinFactory hash, JoinFactory merged) {
            this.choice = choice;
            this.hash = hash;
            this.merged = merged;
            this.outer = choice.outer();
            this.inner = choice.inner();
        }

        @Override
        public List<FieldType> outputTypes() {
            return choice.join.getJoinType() == JoinRelType.SEMI || choice.join.getJoinType() == JoinRelType.ANTI
                    ? outer.outputTypes() : concatenated(outer.outputTypes(), inner.outputTypes());
        }

        @Override
        public VectorSchemaRoot next() {
            if (chosen == null) {
                chosen = (choice.lookedUp() ? hash : merged).over(outer, inner);
            }
            return chosen.next();
        }

        @Override
        public void close() {
            if (chosen != null) {
                chosen.close();
            } else {
                closeAll(outer, inner);
            }
        }
    }

    private static List<FieldType> concatenated(List<FieldType> first, List<FieldType> second) {
        List<FieldType> types = new ArrayList<>(first);
        types.addAll(second);
        return types;
    }

    private static void closeAll(BatchOperator... operators) {
        for (BatchOperator operator : operators) {
            if (operator != null) {
                operator.close();
            }
        }
    }

    /**
     * A join's inputs when its inner rows may be read by lookups: before the inner side gives anything, the outer
     * side is read up to the lookup limit. When it ended within the limit and lookups of its keys are worth it, the
     * inner side is the looked-up rows and its input is never read; otherwise the inner input is read whole. The
     * outer side then gives what it held, then the rest.
     */
    private final class LookupChoice {
        private final Join join;
        private final BatchOperator outerInput;
        private final BatchOperator innerInput;
        private final long limit;
        private final BufferAllocator allocator;
        private VectorSchemaRoot held;
        private boolean outerEnded;
        private BatchOperator inner;

        LookupChoice(Join join, BatchOperator outerInput, BatchOperator innerInput, long limit, BufferAllocator allocator) {
            this.join = join;
            this.outerInput = outerInput;
            this.innerInput = innerInput;
            this.limit = limit;
            this.allocator = allocator;
        }

        /** Whether the inner rows are the looked-up ones (reading the outer side up to the limit to know). */
        boolean lookedUp() {
            decide();
            return inner != innerInput;
        }

        private void decide() {
            if (inner != null) {
                return;
            }
            try (AppendedBatch rows = new AppendedBatch(outerInput.outputTypes(), allocator)) {
                while (rows.rows() <= limit) {
                    VectorSchemaRoot batch = outerInput.next();
                    if (batch == null) {
                        outerEnded = true;
                        break;
                    }
                    rows.append(batch);
                }
                held = rows.take();
            }
            List<Object[]> looked = null;
            if (outerEnded) {
                List<Object[]> outerRows = new ArrayList<>(held.getRowCount());
                ArrowRows.addRows(held, outerInput.outputTypes(), outerRows);
                looked = context.lookUp(join, outerRows);
            }
            if (looked != null) {
                innerInput.close();
                inner = RowBatches.of(join.getRight(), innerInput.outputTypes(), looked, allocator);
            } else {
                inner = innerInput;
            }
        }

        BatchOperator outer() {
            return new BatchOperator() {
                private boolean heldGiven;

                @Override
                public List<FieldType> outputTypes() {
                    return outerInput.outputTypes();
                }

                @Override
                public VectorSchemaRoot next() {
                    decide();
                    if (!heldGiven) {
                        heldGiven = true;
                        if (held.getRowCount() > 0) {
                            return held;
                        }
                    }
                    releaseHeld();
                    return outerEnded ? null : outerInput.next();
                }

                @Override
                public void close() {
                    releaseHeld();
                    outerInput.close();
                }
            };
        }

        BatchOperator inner() {
            return new BatchOperator() {
                @Override
                public List<FieldType> outputTypes() {
                    return innerInput.outputTypes();
                }

                @Override
                public VectorSchemaRoot next() {
                    decide();
                    return inner.next();
                }

                @Override
                public void close() {
                    (inner != null ? inner : innerInput).close();
                }
            };
        }

        private void releaseHeld() {
            if (held != null) {
                held.close();
                held = null;
            }
        }
    }

    /** The evaluator of an expression over columns of the given types, or null when it does not translate. */
    private VectorExpression expression(RexNode node, List<FieldType> types) {
        Expression expression = translator.translate(node, types);
        return expression == null ? null : VectorExpressions.build(expression, types);
    }

    private static void close(BufferAllocator allocator) {
        try {
            allocator.close();
        } catch (IllegalStateException e) {
            // Buffers still allocated: a bug to fix, but the statement's result is already complete.
            LOG.warn("vectorized operators left Arrow buffers allocated: {}", e.getMessage());
        }
    }

    /** The bytes an operator holds, taken from the statement's quota as they grow and given back as they go. */
    private final class Held {
        private final RelNode node;
        private final String operator;
        private long bytes;
        private long most;

        Held(RelNode node, String operator) {
            this.node = node;
            this.operator = operator;
        }

        void change(long delta) {
            if (delta > 0) {
                memory.take(delta, operator);
            } else {
                memory.release(-delta);
            }
            bytes += delta;
            most = Math.max(most, bytes);
            if (context.recording()) {
                heldBytes.merge(node, most, Math::max);
            }
        }
    }

    /** An operator's batches, checked against a kill and counted for EXPLAIN ANALYZE as they go by. */
    private final class Recorded implements BatchOperator {
        private final RelNode node;
        private final BatchOperator operator;
        private long rows;
        private long nanos;

        Recorded(RelNode node, BatchOperator operator) {
            this.node = node;
            this.operator = operator;
        }

        @Override
        public List<FieldType> outputTypes() {
            return operator.outputTypes();
        }

        @Override
        public VectorSchemaRoot next() {
            compiler.session().checkNotKilled();
            ran.add(node);
            if (!context.recording()) {
                return operator.next();
            }
            long started = System.nanoTime();
            VectorSchemaRoot batch = operator.next();
            nanos += System.nanoTime() - started;
            if (batch != null) {
                rows += batch.getRowCount();
            }
            context.record(node, rows, nanos, heldBytes.getOrDefault(node, 0L));
            return batch;
        }

        @Override
        public void close() {
            operator.close();
        }
    }
}
