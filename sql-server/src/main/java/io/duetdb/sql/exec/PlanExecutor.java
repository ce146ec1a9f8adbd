package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import io.duetdb.client.txn.CoprocessorSummary;
import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;
import io.duetdb.sql.prepare.DuetTable;
import io.duetdb.sql.prepare.MySqlCollations;

/**
 * Runs a logical plan over a transaction as a pull pipeline of row batches: scans (in the stores' coprocessors when
 * they can), filters, projections and a hash join's probe side stream; only blocking operators hold rows, and what
 * they hold counts against the statement's memory quota.
 */
public final class PlanExecutor {
    private static final int MEMORY_CHECK_INTERVAL = 16_384;
    /** Operators read by several others are kept when their estimated rows are at most this many. */
    private static final double SHARED_MAX_ESTIMATED_ROWS = 1_000_000;
    /** Bytes of a hash table entry or an accumulator, beyond the values they hold. */
    private static final long GROUP_OVERHEAD = 64;
    /** Largest LIMIT (plus offset) kept in a bounded heap as the input streams by; above it the input is sorted. */
    private static final long TOP_N_MAX_ROWS = 100_000;
    private static final Set<JoinRelType> SUPPORTED_JOINS = Set.of(JoinRelType.INNER,
            JoinRelType.LEFT, JoinRelType.RIGHT, JoinRelType.FULL, JoinRelType.SEMI, JoinRelType.ANTI);

    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    private final boolean locking;
    /** A locking read that passes by rows other transactions hold (FOR UPDATE SKIP LOCKED). */
    private boolean skipLocked;
    private final SessionFunctions session;
    private final Map<Long, TableAccess> accessCache = new HashMap<>();
    private final MemoryTracker memory;
    private Map<RelNode, OperatorStatistics> statistics;
    /** Operators several others read in the plan being executed, by node. */
    private Map<RelNode, SharedResult> shared;
    private final RecursiveUnion recursion = new RecursiveUnion();
    /** Plans the stores' part of reads; null when nothing goes to the coprocessors (locking reads, push-down off). */
    private final CoprocessorPlanner coprocessorPlanner;
    /** The physical plan being executed, decided when execution starts. */
    private PhysicalPlan plan;
    private final CoprocessorReader coprocessorReader;
    /** Null when every operator takes rows (push-down or vectorized execution switched off). */
    private final VectorizedPlans vectorized;
    /** Joins whose inner side was read by handle lookups (for EXPLAIN ANALYZE). */
    private final Map<Join, HandleLookup> lookupJoins = new java.util.IdentityHashMap<>();
    /** Joins that ran as merge joins, for EXPLAIN ANALYZE. */
    private final Set<Join> mergeJoins = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Scans under a locking ORDER BY ... LIMIT that may stop after the rows it keeps, when they come in its order. */
    private final Map<TableScan, OrderedLimit> orderedLimits = new java.util.IdentityHashMap<>();
    /** The most bytes each blocking operator held (for EXPLAIN ANALYZE). */
    private final Map<RelNode, Long> heldBytes = new java.util.IdentityHashMap<>();
    private final Map<RelNode, CoprocessorSummary> coprocessorSummaries = new java.util.IdentityHashMap<>();

    public PlanExecutor(Transaction transaction, ExpressionCompiler compiler, boolean locking) {
        this.transaction = transaction;
        this.compiler = compiler;
        this.locking = locking;
        this.session = compiler.session();
        this.memory = new MemoryTracker(memoryQuota(session));
        this.coprocessorPlanner = transaction != null && !locking && CoprocessorPlanner.enabled(session)
                ? new CoprocessorPlanner(transaction, compiler, memory) : null;
        this.coprocessorReader = transaction == null ? null : new CoprocessorReader(transaction, session, memory);
        this.vectorized = coprocessorPlanner != null && VectorizedPlans.enabled(session)
                ? new VectorizedPlans(coprocessorReader, compiler, memory, new VectorizedContext()) : null;
    }

    /** Makes this locking plan pass by the rows other transactions hold instead of waiting for them. */
    public PlanExecutor skippingLocked() {
        if (!locking) {
            throw new IllegalStateException("only a locking read skips locked rows");
        }
        this.skipLocked = true;
        return this;
    }

    /** What the vectorized part of a plan asks of this executor. */
    private final class VectorizedContext implements VectorizedPlans.Context {
        @Override
        public boolean shared(RelNode node) {
            return shared != null && shared.containsKey(node);
        }

        @Override
        public int[] mergeKeys(Join join) {
            return plan.join(join).mergeKeys();
        }

        @Override
        public long lookupOuterRows(Join join) {
            return plan.join(join).lookupOuterRows();
        }

        @Override
        public CoprocessorPlanner.StoreRead storeRead(RelNode node) {
            return plan.storeRead(node);
        }

        @Override
        public MppRead mppRead(RelNode node) {
            return plan.mppRead(node);
        }

        @Override
        public List<Object[]> lookUp(Join join, List<Object[]> outerRows) {
            return PlanExecutor.this.lookUp(join, outerRows);
        }

        @Override
        public java.util.function.Consumer<CoprocessorSummary> reportTo(RelNode node) {
            return PlanExecutor.this.reportTo(node);
        }

        @Override
        public RowStream rows(RelNode node) {
            return stream(node);
        }

        @Override
        public boolean recording() {
            return statistics != null;
        }

        @Override
        public void record(RelNode node, long rows, long nanos, long bytes) {
            noteHeld(node, bytes);
            statistics.put(node, new OperatorStatistics(rows, nanos, heldBytes.getOrDefault(node, 0L)));
        }
    }

    /** Whether the node ran over Arrow batches rather than rows. */
    public boolean ranVectorized(RelNode node) {
        return vectorized != null && vectorized.ranVectorized(node);
    }

    /** What one operator did, for EXPLAIN ANALYZE: rows out, time including its inputs', estimated bytes held. */
    public record OperatorStatistics(long rows, long nanos, long bytes) {
    }

    /** Runs the same operators, recording each one's statistics. */
    public PlanExecutor recordingStatistics() {
        this.statistics = new java.util.IdentityHashMap<>();
        return this;
    }

    /** Whether {@code join}'s inner side was read by lookups of the outer side's keys. */
    public boolean readByLookup(Join join) {
        return lookupJoins.containsKey(join);
    }

    /** The secondary index a join's inner rows were read through, or null (clustered-key lookups, or none). */
    public IndexInfo lookupIndex(Join join) {
        HandleLookup lookup = lookupJoins.get(join);
        return lookup == null ? null : lookup.index();
    }

    public Map<RelNode, OperatorStatistics> statistics() {
        return statistics == null ? Map.of() : statistics;
    }

    /** Every row of the plan, counted against the statement's memory quota as the result it holds. */
    public List<Object[]> execute(RelNode node) {
        plan = new PhysicalPlanner(transaction, compiler, locking, coprocessorPlanner).plan(node);
        shared = sharedOperators(node);
        List<Object[]> rows = collect(stream(node), node.getRelTypeName());
        memory.consume(rows, node.getRelTypeName());
        return rows;
    }

    /** The operator's rows as it produces them; nothing runs until the first batch is asked for. */
    private RowStream stream(RelNode node) {
        SharedResult result = shared == null ? null : shared.get(node);
        return result != null ? result.reader() : new OperatorStream(node);
    }

    /**
     * Operators that several others read (decorrelated subqueries repeat the outer query's operators as one shared
     * node) and whose estimated rows are few enough to keep: their rows are computed once and kept for the others.
     * Larger ones are computed again for each reader.
     */
    private Map<RelNode, SharedResult> sharedOperators(RelNode root) {
        Map<RelNode, Integer> readers = new java.util.IdentityHashMap<>();
        java.util.ArrayDeque<RelNode> pending = new java.util.ArrayDeque<>(List.of(root));
        Set<RelNode> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        while (!pending.isEmpty()) {
            RelNode node = pending.poll();
            if (!seen.add(node)) {
                continue;
            }
            for (RelNode input : node.getInputs()) {
                readers.merge(input, 1, Integer::sum);
                pending.add(input);
            }
        }
        Map<RelNode, SharedResult> shared = new java.util.IdentityHashMap<>();
        if (seen.stream().anyMatch(RepeatUnion.class::isInstance)) {
            // A recursive CTE runs its iterative part once per step: no operator's rows may be kept across steps.
            return shared;
        }
        for (Map.Entry<RelNode, Integer> entry : readers.entrySet()) {
            RelNode node = entry.getKey();
            if (entry.getValue() > 1 && !(node instanceof TableScan)) {
                Double rows = node.getCluster().getMetadataQuery().getRowCount(node);
                if (rows != null && rows <= SHARED_MAX_ESTIMATED_ROWS) {
                    shared.put(node, new SharedResult(node, entry.getValue()));
                }
            }
        }
        return shared;
    }

    /**
     * The rows of an operator that several others read, computed once as the first reader pulls them and kept for
     * the others, however far behind they are (readers of one join's two sides pull in turn).
     */
    private final class SharedResult {
        private final RelNode node;
        private final int readers;
        private final List<List<Object[]>> batches = new ArrayList<>();
        private RowStream source;
        private boolean ended;
        private long bytes;
        private int closed;

        SharedResult(RelNode node, int readers) {
            this.node = node;
            this.readers = readers;
        }

        RowStream reader() {
            return new RowStream() {
                private int position;
                private boolean done;

                @Override
                public List<Object[]> next() {
                    return done ? null : batch(position++);
                }

                @Override
                public void close() {
                    if (!done) {
                        done = true;
                        readerClosed();
                    }
                }
            };
        }

        private List<Object[]> batch(int index) {
            while (index >= batches.size() && !ended) {
                if (source == null) {
                    source = new OperatorStream(node);
                }
                List<Object[]> batch = source.next();
                if (batch == null) {
                    ended = true;
                    source.close();
                } else {
                    batches.add(batch);
                    long batchBytes = MemoryTracker.estimate(batch);
                    bytes += batchBytes;
                    memory.take(batchBytes, "Shared(" + node.getRelTypeName() + ")");
                }
            }
            return index < batches.size() ? batches.get(index) : null;
        }

        private void readerClosed() {
            if (++closed >= readers) {
                if (source != null) {
                    source.close();
                }
                batches.clear();
                memory.release(bytes);
                bytes = 0;
            }
        }
    }

    /** Every row of a stream, checked against the quota as they arrive (not yet counted as held: the caller does that). */
    private List<Object[]> collect(RowStream input, String operator) {
        List<Object[]> rows = new ArrayList<>();
        long nextCheck = MEMORY_CHECK_INTERVAL;
        try (input) {
            for (List<Object[]> batch = input.next(); batch != null; batch = input.next()) {
                rows.addAll(batch);
                if (rows.size() >= nextCheck) {
                    memory.checkGrowing(rows, operator);
                    nextCheck = rows.size() + MEMORY_CHECK_INTERVAL;
                }
            }
        }
        return rows;
    }

    /**
     * Opens an operator on its first batch and, for EXPLAIN ANALYZE, counts its rows and the time spent producing
     * them (its inputs' included).
     */
    private final class OperatorStream implements RowStream {
        private final RelNode node;
        private RowStream opened;
        private boolean closed;
        private long rows;
        private long nanos;

        OperatorStream(RelNode node) {
            this.node = node;
        }

        @Override
        public List<Object[]> next() {
            if (closed) {
                return null;
            }
            long started = statistics == null ? 0 : System.nanoTime();
            if (opened == null) {
                opened = open(node);
            }
            List<Object[]> batch = opened.next();
            if (statistics != null) {
                nanos += System.nanoTime() - started;
                if (batch != null) {
                    rows += batch.size();
                }
                record();
            }
            return batch;
        }

        private void record() {
            statistics.put(node, new OperatorStatistics(rows, nanos, heldBytes.getOrDefault(node, 0L)));
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                // A stream closed unopened did not run (a lookup join read its rows instead): it records nothing.
                if (opened != null) {
                    opened.close();
                    if (statistics != null) {
                        record();
                    }
                }
            }
        }
    }

    /** Where the stores' report of a coprocessor read for {@code node} goes: added up per node, for EXPLAIN ANALYZE. */
    private java.util.function.Consumer<CoprocessorSummary> reportTo(RelNode node) {
        if (statistics == null) {
            return summary -> { };
        }
        return summary -> coprocessorSummaries.merge(node, summary, CoprocessorSummary::plus);
    }

    /** What the stores reported of the coprocessor reads made for {@code node}, or null when it made none. */
    public CoprocessorSummary coprocessorSummary(RelNode node) {
        return coprocessorSummaries.get(node);
    }

    /** Notes the most bytes a blocking operator held, for EXPLAIN ANALYZE. */
    private void noteHeld(RelNode node, long bytes) {
        if (statistics != null) {
            heldBytes.merge(node, bytes, Math::max);
        }
    }

    private RowStream open(RelNode node) {
        MppRead mpp = plan.mppRead(node);
        if (mpp != null) {
            return coprocessorReader.openMpp(mpp, reportTo(node));
        }
        if (node instanceof TableScan scan) {
            return scan(node, scan, null);
        }
        if (node instanceof Filter filter) {
            if (filter.getInput() instanceof TableScan scan) {
                return scan(node, scan, filter.getCondition());
            }
            RowStream batches = vectorized == null ? null : vectorized.rows(filter);
            if (batches != null) {
                return batches;
            }
            RowExpression condition = compiler.compile(filter.getCondition());
            return stream(filter.getInput()).map(batch -> {
                session.checkNotKilled();
                List<Object[]> rows = new ArrayList<>();
                for (Object[] row : batch) {
                    if (Boolean.TRUE.equals(io.duetdb.sql.exec.Values.truth(condition.evaluate(row)))) {
                        rows.add(row);
                    }
                }
                return rows;
            });
        }
        if (node instanceof Project project) {
            RowStream pushed = storeRows(project);
            if (pushed != null) {
                return pushed;
            }
            RowStream batches = vectorized == null ? null : vectorized.rows(project);
            if (batches != null) {
                return batches;
            }
            Projection projection = Projection.of(project.getProjects(), project.getInput().getRowType().getFieldCount(),
                    compiler);
            return stream(project.getInput()).map(batch -> {
                session.checkNotKilled();
                return projection.apply(batch);
            });
        }
        if (node instanceof Sort sort) {
            return sort(sort);
        }
        if (node instanceof Aggregate aggregate) {
            RowStream pushed = storeRows(aggregate);
            if (pushed != null) {
                return pushed;
            }
            List<Object[]> rows = vectorized == null ? null : vectorized.aggregate(aggregate);
            return RowStream.of(rows != null ? rows : aggregate(aggregate));
        }
        if (node instanceof Join join) {
            RowStream batches = vectorized == null ? null : vectorized.rows(join);
            return batches != null ? batches : join(join);
        }
        if (node instanceof Values values) {
            List<Object[]> rows = new ArrayList<>();
            for (List<RexLiteral> tuple : values.getTuples()) {
                Object[] row = new Object[tuple.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = ExpressionCompiler.literalValue(tuple.get(i));
                }
                rows.add(row);
            }
            return RowStream.of(rows);
        }
        if (node instanceof org.apache.calcite.rel.core.Window window) {
            RowStream batches = vectorized == null ? null : vectorized.rows(window);
            if (batches != null) {
                return batches;
            }
            return holding(window, window.getInput(), rows -> WindowOperator.apply(window, rows, session));
        }
        if (node instanceof Union union) {
            RowStream batches = vectorized == null ? null : vectorized.rows(union);
            if (batches != null) {
                return batches;
            }
            if (!union.all) {
                List<Object[]> rows = new ArrayList<>();
                for (RelNode input : union.getInputs()) {
                    rows.addAll(collect(stream(input), "Union"));
                    memory.checkGrowing(rows, "Union");
                }
                return RowStream.of(distinct(rows));
            }
            return new ConcatenatedStream(union.getInputs());
        }
        if (node instanceof RepeatUnion repeat) {
            return RowStream.of(recursion.run(repeat, input -> collect(stream(input), "RecursiveUnion"),
                    Long.parseLong(String.valueOf(session.systemVariable("", "cte_max_recursion_depth"))),
                    session::checkNotKilled));
        }
        if (node instanceof Spool spool) {
            return stream(spool.getInput());
        }
        if (node instanceof Minus || node instanceof Intersect) {
            SetOp setOperation = (SetOp) node;
            String operator = node instanceof Minus ? "Except" : "Intersect";
            List<Object[]> first = collect(stream(setOperation.getInput(0)), operator);
            List<List<Object[]>> others = new ArrayList<>();
            for (RelNode input : setOperation.getInputs().subList(1, setOperation.getInputs().size())) {
                others.add(collect(stream(input), operator));
            }
            UnaryOperator<Object[]> keyOf = SetOperations.keysOf(setOperation.getRowType());
            return RowStream.of(node instanceof Minus ? SetOperations.except(first, others, setOperation.all, keyOf)
                    : SetOperations.intersect(first, others, setOperation.all, keyOf));
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "this query needs an operator DuetDB lacks yet: "
                + node.getRelTypeName());
    }

    /** UNION ALL: each input's rows in turn. */
    private final class ConcatenatedStream implements RowStream {
        private final java.util.Iterator<RelNode> inputs;
        private RowStream current;

        ConcatenatedStream(List<RelNode> inputs) {
            this.inputs = inputs.iterator();
        }

        @Override
        public List<Object[]> next() {
            while (true) {
                if (current == null) {
                    if (!inputs.hasNext()) {
                        return null;
                    }
                    current = stream(inputs.next());
                }
                List<Object[]> batch = current.next();
                if (batch != null) {
                    return batch;
                }
                current.close();
                current = null;
            }
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
            }
        }
    }

    /** An operator that needs all of its input at once: the input is held (and counted) while it works. */
    private List<Object[]> holdingInput(RelNode node, RelNode input,
            java.util.function.UnaryOperator<List<Object[]>> work) {
        List<Object[]> rows = collect(stream(input), node.getRelTypeName());
        long bytes = memory.consume(rows, node.getRelTypeName());
        noteHeld(node, bytes);
        try {
            return work.apply(rows);
        } finally {
            memory.release(bytes);
        }
    }

    private RowStream holding(RelNode node, RelNode input, java.util.function.UnaryOperator<List<Object[]>> work) {
        return RowStream.of(holdingInput(node, input, work));
    }

    private static long memoryQuota(SessionFunctions session) {
        Object value = session.systemVariable("", "tidb_mem_quota_query");
        return value == null ? 0 : io.duetdb.sql.exec.Values.toLong(value);
    }

    /** The node's rows as the stores compute them, when the physical plan gives it to them; else null. */
    private RowStream storeRows(RelNode node) {
        CoprocessorPlanner.StoreRead read = plan.storeRead(node);
        return read == null ? null : coprocessorReader.open(read.rows(), reportTo(node));
    }

    /** The physical plan this executor ran (null before it ran one). */
    PhysicalPlan physicalPlan() {
        return plan;
    }

    /** Rows the server holds (information_schema, a recursive CTE's working table) that meet the condition. */
    private List<Object[]> filtered(List<Object[]> rows, RexNode condition) {
        if (condition == null) {
            return rows;
        }
        RowExpression filter = compiler.compile(condition);
        List<Object[]> kept = new ArrayList<>();
        for (Object[] row : rows) {
            if (Boolean.TRUE.equals(io.duetdb.sql.exec.Values.truth(filter.evaluate(row)))) {
                kept.add(row);
            }
        }
        return kept;
    }

    private TableAccess access(DuetTable table) {
        return accessCache.computeIfAbsent(table.table().id(), id -> new TableAccess(table.table()));
    }

    private RowStream scan(RelNode node, TableScan scan, RexNode condition) {
        List<Object[]> working = recursion.workingRows(scan.getTable());
        if (working != null) {
            return RowStream.of(filtered(working, condition));
        }
        io.duetdb.sql.prepare.InformationSchemaTable view =
                scan.getTable().unwrap(io.duetdb.sql.prepare.InformationSchemaTable.class);
        if (view != null) {
            return RowStream.of(filtered(view.rows(session), condition));
        }
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "cannot read table " + scan.getTable().getQualifiedName());
        }
        RowStream pushed = storeRows(node);
        if (pushed != null) {
            return pushed;
        }
        TableAccess access = access(table);
        TableReader reader = plan.operator(node).tableReader();
        if (skipLocked) {
            reader.skipLocked();
        }
        OrderedLimit limit = orderedLimits.get(scan);
        List<TableReader.HandleRow> read = limit != null && reader.ascendsBy(limit.columns())
                ? reader.readFirst(limit.rows()) : reader.read();
        List<Object[]> rows = new ArrayList<>();
        for (TableReader.HandleRow row : read) {
            rows.add(access.publicValues(row.row()));
        }
        // The condition may have called SLEEP, which a kill cuts short without failing.
        session.checkNotKilled();
        return RowStream.of(rows);
    }

    private RowStream sort(Sort sort) {
        SortWindow window = SortWindow.of(sort, compiler);
        long offset = window.offset();
        long fetch = window.fetch();
        if (locking && window.limited()) {
            OrderedLimit.of(sort, window.kept()).ifPresent(limit -> orderedLimits.put(limit.scan(), limit));
        }
        RowStream stored = storeRows(sort);
        List<Object[]> pushed = stored == null ? null : RowStream.drain(stored);
        if (pushed == null && vectorized != null) {
            RowStream batches = vectorized.rows(sort);
            if (batches != null) {
                return batches;
            }
        }
        List<RelFieldCollation> collations = sort.getCollation().getFieldCollations();
        List<Object[]> rows;
        if (pushed != null) {
            rows = new ArrayList<>(pushed);
            rows.sort(comparator(collations));
        } else if (!window.limited() || window.kept() > TOP_N_MAX_ROWS) {
            rows = holdingInput(sort, sort.getInput(), input -> {
                List<Object[]> sorted = new ArrayList<>(input);
                sorted.sort(comparator(collations));
                return sorted;
            });
        } else {
            rows = topN(sort.getInput(), collations, (int) window.kept());
        }
        if (offset >= rows.size()) {
            return RowStream.of(List.of());
        }
        int end = (int) Math.min(rows.size(), offset + Math.min(fetch, Integer.MAX_VALUE));
        return RowStream.of(rows.subList((int) offset, end));
    }

    /** The first {@code count} rows of the input in the given order, keeping no more than that many at a time. */
    private List<Object[]> topN(RelNode input, List<RelFieldCollation> collations, int count) {
        Comparator<Object[]> order = comparator(collations);
        java.util.PriorityQueue<Object[]> kept = new java.util.PriorityQueue<>(Math.max(1, count), order.reversed());
        try (RowStream rows = stream(input)) {
            for (List<Object[]> batch = rows.next(); batch != null && count > 0; batch = rows.next()) {
                session.checkNotKilled();
                for (Object[] row : batch) {
                    if (kept.size() < count) {
                        kept.add(row);
                    } else if (order.compare(row, kept.peek()) < 0) {
                        kept.poll();
                        kept.add(row);
                    }
                }
                // Without an order, the first rows are as good as any: the rest is never read.
                if (collations.isEmpty() && kept.size() >= count) {
                    break;
                }
            }
        }
        List<Object[]> sorted = new ArrayList<>(kept);
        sorted.sort(order);
        return sorted;
    }

    static Comparator<Object[]> comparator(List<RelFieldCollation> collations) {
        return comparator(collations, null);
    }

    /**
     * Rows in the order of {@code collations}; text fields of {@code rowType} (when given) under a collation other than
     * the binary one compare by it.
     */
    static Comparator<Object[]> comparator(List<RelFieldCollation> collations, RelDataType rowType) {
        // Arrays rather than the collation list: a sort compares n log n times, each walking the keys.
        int[] fields = new int[collations.size()];
        boolean[] descending = new boolean[collations.size()];
        Collation[] textCollations = new Collation[collations.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = collations.get(i).getFieldIndex();
            descending[i] = collations.get(i).getDirection().isDescending();
            if (rowType != null && fields[i] < rowType.getFieldCount()) {
                RelDataType type = rowType.getFieldList().get(fields[i]).getType();
                textCollations[i] = MySqlCollations.collated(type) ? MySqlCollations.of(type) : null;
            }
        }
        return (a, b) -> {
            for (int key = 0; key < fields.length; key++) {
                int index = fields[key];
                Object x = a[index];
                Object y = b[index];
                int result;
                if (x == null || y == null) {
                    // MySQL: NULLs first ascending, last descending.
                    result = x == y ? 0 : x == null ? -1 : 1;
                } else if (textCollations[key] != null) {
                    result = textCollations[key].compare(io.duetdb.sql.exec.Values.toText(x),
                            io.duetdb.sql.exec.Values.toText(y));
                } else {
                    result = io.duetdb.sql.exec.Values.compare(x, y);
                }
                if (descending[key]) {
                    result = -result;
                }
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    private static List<Object[]> distinct(List<Object[]> rows) {
        Map<GroupKey, Object[]> seen = new LinkedHashMap<>();
        for (Object[] row : rows) {
            seen.putIfAbsent(new GroupKey(row), row);
        }
        return new ArrayList<>(seen.values());
    }

    private List<Object[]> aggregate(Aggregate aggregate) {
        int[] groupFields = aggregate.getGroupSet().toArray();
        List<AggregateCall> calls = aggregate.getAggCallList();
        Map<GroupKey, Accumulator[]> groups = new LinkedHashMap<>();
        long held = 0;
        try (RowStream input = stream(aggregate.getInput())) {
            for (List<Object[]> batch = input.next(); batch != null; batch = input.next()) {
                session.checkNotKilled();
                for (Object[] row : batch) {
                    Object[] keyValues = new Object[groupFields.length];
                    for (int i = 0; i < groupFields.length; i++) {
                        keyValues[i] = row[groupFields[i]];
                    }
                    GroupKey key = new GroupKey(keyValues);
                    Accumulator[] accumulators = groups.get(key);
                    if (accumulators == null) {
                        accumulators = newAccumulators(calls, aggregate.getInput().getRowType());
                        groups.put(key, accumulators);
                        if (groups.size() % MEMORY_CHECK_INTERVAL == 0) {
                            long now = groupBytes(keyValues, calls.size(), groups.size());
                            memory.take(now - held, "HashAgg");
                            held = now;
                            noteHeld(aggregate, held);
                        }
                    }
                    for (Accumulator accumulator : accumulators) {
                        accumulator.add(row);
                    }
                }
            }
            if (statistics != null && !groups.isEmpty()) {
                noteHeld(aggregate, groupBytes(groups.keySet().iterator().next().values(), calls.size(), groups.size()));
            }
        } finally {
            memory.release(held);
        }
        if (groups.isEmpty() && groupFields.length == 0) {
            groups.put(new GroupKey(new Object[0]), newAccumulators(calls, aggregate.getInput().getRowType()));
        }
        List<Object[]> rows = new ArrayList<>(groups.size());
        for (Map.Entry<GroupKey, Accumulator[]> group : groups.entrySet()) {
            Object[] keyValues = group.getKey().values();
            Object[] row = Arrays.copyOf(keyValues, keyValues.length + calls.size());
            for (int i = 0; i < calls.size(); i++) {
                row[keyValues.length + i] = group.getValue()[i].result();
            }
            rows.add(row);
        }
        return rows;
    }

    /** Groups' estimated bytes: each holds a key like {@code key} and one accumulator per call. */
    private static long groupBytes(Object[] key, int calls, int groups) {
        return (MemoryTracker.estimateRow(key) + GROUP_OVERHEAD * (1 + calls)) * groups;
    }

    private static Accumulator[] newAccumulators(List<AggregateCall> calls, RelDataType inputType) {
        Accumulator[] accumulators = new Accumulator[calls.size()];
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i] = Accumulator.of(calls.get(i), inputType);
        }
        return accumulators;
    }

    /** Whether the join ran as a merge join. */
    public boolean mergedJoin(Join join) {
        return mergeJoins.contains(join) || vectorized != null && vectorized.mergedJoin(join);
    }

    /** The join's inner rows read by lookups of the outer rows' keys, or null when reading them whole is cheaper. */
    private List<Object[]> lookUp(Join join, List<Object[]> outerRows) {
        HandleLookup lookup = plan.join(join).lookup();
        List<List<Object>> keyValues = lookup.keyValues(outerRows, compiler);
        if (!lookup.worthIt(keyValues.size())) {
            return null;
        }
        long started = System.nanoTime();
        List<Object[]> rows = lookup.read(transaction, keyValues, compiler);
        session.checkNotKilled();
        lookupJoins.put(join, lookup);
        if (statistics != null) {
            statistics.put(join.getRight(), new OperatorStatistics(rows.size(), System.nanoTime() - started,
                    MemoryTracker.estimate(rows)));
        }
        return rows;
    }

    private RowStream join(Join join) {
        if (!SUPPORTED_JOINS.contains(join.getJoinType())) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "this query needs a " + join.getJoinType()
                    + " join, which DuetDB lacks yet");
        }
        return new JoinStream(join);
    }

    /**
     * A join whose inputs stream in: both are read, the one with fewer rows so far first, until one ends. That one
     * (the smaller) becomes the hash join's build side and the other streams through as the probe side, so only the
     * smaller input is ever held whole. A small left side may instead have its matching right rows read by lookups
     * ({@link HandleLookup}); a join without equalities holds both inputs for its nested loop.
     */
    private final class JoinStream implements RowStream {
        private final Join join;
        private final int leftWidth;
        private final int rightWidth;
        private final JoinKeys keys;
        private final RowStream left;
        private final RowStream right;
        private HashJoin hashJoin;
        private RowStream probe;
        private List<Object[]> probeBuffer;
        private long bufferBytes;
        private long buildBytes;
        private List<Object[]> done;
        private boolean finished;
        private MergeJoin merged;

        JoinStream(Join join) {
            this.join = join;
            this.leftWidth = join.getLeft().getRowType().getFieldCount();
            this.rightWidth = join.getRight().getRowType().getFieldCount();
            this.keys = JoinKeys.of(join, compiler.rexBuilder());
            this.left = stream(join.getLeft());
            this.right = stream(join.getRight());
        }

        @Override
        public List<Object[]> next() {
            if (finished) {
                return null;
            }
            if (hashJoin == null && done == null && merged == null) {
                start();
            }
            if (merged != null) {
                List<Object[]> rows = merged.next();
                if (rows == null) {
                    finished = true;
                    close();
                }
                return rows;
            }
            if (done != null) {
                finished = true;
                return done;
            }
            List<Object[]> batch;
            if (probeBuffer != null) {
                batch = probeBuffer;
                probeBuffer = null;
            } else {
                batch = probe.next();
            }
            if (batch == null) {
                finished = true;
                List<Object[]> rest = hashJoin.finish();
                close();
                return rest;
            }
            List<Object[]> rows = hashJoin.probe(batch);
            if (bufferBytes > 0) {
                memory.release(bufferBytes);
                bufferBytes = 0;
            }
            return rows;
        }

        private void start() {
            List<Object[]> leftRows = new ArrayList<>();
            List<Object[]> rightRows = new ArrayList<>();
            boolean leftDone = false;
            boolean rightDone = false;
            long maxOuterRows = plan.join(join).lookupOuterRows();
            if (maxOuterRows >= 0) {
                while (!leftDone && leftRows.size() <= maxOuterRows) {
                    leftDone = pull(left, leftRows);
                }
                List<Object[]> looked = leftDone && leftRows.size() <= maxOuterRows ? lookUp(join, leftRows) : null;
                if (looked != null) {
                    right.close();
                    rightRows = looked;
                    rightDone = true;
                }
            }
            int[] merge = rightDone ? null : plan.join(join).mergeKeys();
            if (merge != null) {
                // Both inputs ascend by the key: walk them together, holding only the right rows of one key.
                mergeJoins.add(join);
                RowStream leftRest = leftDone ? RowStream.empty() : left;
                List<Object[]> leftRead = leftRows;
                RowStream leftInput = new RowStream() {
                    private boolean readFirst;

                    @Override
                    public List<Object[]> next() {
                        if (!readFirst) {
                            readFirst = true;
                            if (!leftRead.isEmpty()) {
                                return leftRead;
                            }
                        }
                        return leftRest.next();
                    }

                    @Override
                    public void close() {
                        leftRest.close();
                    }
                };
                merged = new MergeJoin(join.getJoinType(), merge[0], merge[1], rightWidth,
                        compiler.compile(join.getCondition()), leftInput, right, session);
                return;
            }
            if (keys == null) {
                leftRows.addAll(leftDone ? List.of() : collect(left, "NestedLoopJoin"));
                rightRows.addAll(rightDone ? List.of() : collect(right, "NestedLoopJoin"));
                long bytes = memory.consume(leftRows, "NestedLoopJoin") + memory.consume(rightRows, "NestedLoopJoin");
                noteHeld(join, bytes);
                try {
                    done = nestedLoopJoin(join, leftRows, rightRows, leftWidth, rightWidth);
                } finally {
                    memory.release(bytes);
                    close();
                }
                return;
            }
            long nextCheck = MEMORY_CHECK_INTERVAL;
            while (!leftDone && !rightDone) {
                // Read the input that has given fewer rows: the first to end is the smaller (within a batch).
                if (leftRows.size() < rightRows.size()) {
                    leftDone = pull(left, leftRows);
                } else {
                    rightDone = pull(right, rightRows);
                }
                if (leftRows.size() + rightRows.size() >= nextCheck) {
                    memory.checkExtra(MemoryTracker.estimate(leftRows) + MemoryTracker.estimate(rightRows), "HashJoin");
                    nextCheck = leftRows.size() + rightRows.size() + MEMORY_CHECK_INTERVAL;
                }
            }
            boolean buildLeft = leftDone && (!rightDone || leftRows.size() <= rightRows.size());
            List<Object[]> build = buildLeft ? leftRows : rightRows;
            probeBuffer = buildLeft ? rightRows : leftRows;
            probe = buildLeft ? right : left;
            if (buildLeft ? rightDone : leftDone) {
                probe.close();
                probe = RowStream.empty();
            }
            buildBytes = memory.consume(build, "HashJoin(build)");
            bufferBytes = memory.consume(probeBuffer, "HashJoin(probe)");
            noteHeld(join, buildBytes);
            hashJoin = new HashJoin(join.getJoinType(), keys, compiler, leftWidth, rightWidth, memory);
            hashJoin.build(build, buildLeft);
        }

        /** Adds the input's next batch to {@code rows}; whether the input has ended. */
        private boolean pull(RowStream input, List<Object[]> rows) {
            List<Object[]> batch = input.next();
            if (batch == null) {
                return true;
            }
            rows.addAll(batch);
            return false;
        }

        @Override
        public void close() {
            left.close();
            right.close();
            memory.release(buildBytes + bufferBytes);
            buildBytes = 0;
            bufferBytes = 0;
        }
    }

    /** Joins without an equality between the inputs: every pair is tested. */
    private List<Object[]> nestedLoopJoin(Join join, List<Object[]> left, List<Object[]> right, int leftWidth,
            int rightWidth) {
        RowExpression condition = compiler.compile(join.getCondition());
        JoinRelType type = join.getJoinType();
        List<Object[]> rows = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        long pairs = 0;
        for (Object[] leftRow : left) {
            boolean matched = false;
            for (int r = 0; r < right.size(); r++) {
                if ((r & 1023) == 0) {
                    session.checkNotKilled();
                }
                if ((++pairs & 16383) == 0) {
                    // Without equalities the output can grow to the product of the inputs: check it as it grows.
                    memory.checkGrowing(rows, "NestedLoopJoin");
                }
                Object[] combined = Arrays.copyOf(leftRow, leftWidth + rightWidth);
                System.arraycopy(right.get(r), 0, combined, leftWidth, rightWidth);
                if (Boolean.TRUE.equals(io.duetdb.sql.exec.Values.truth(condition.evaluate(combined)))) {
                    matched = true;
                    rightMatched[r] = true;
                    if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
                        break;
                    }
                    rows.add(combined);
                }
            }
            if (type == JoinRelType.SEMI && matched) {
                rows.add(leftRow);
            } else if (type == JoinRelType.ANTI && !matched) {
                rows.add(leftRow);
            } else if (!matched && (type == JoinRelType.LEFT || type == JoinRelType.FULL)) {
                rows.add(Arrays.copyOf(leftRow, leftWidth + rightWidth));
            }
        }
        if (type == JoinRelType.RIGHT || type == JoinRelType.FULL) {
            for (int r = 0; r < right.size(); r++) {
                if (!rightMatched[r]) {
                    Object[] combined = new Object[leftWidth + rightWidth];
                    System.arraycopy(right.get(r), 0, combined, leftWidth, rightWidth);
                    rows.add(combined);
                }
            }
        }
        return rows;
    }
}
