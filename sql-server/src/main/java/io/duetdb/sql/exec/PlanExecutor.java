package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import io.duetdb.client.txn.Transaction;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.prepare.DuetTable;

/**
 * Runs a logical plan over a transaction, operator by operator, materializing each operator's rows. Enough for
 * OLTP statements; the vectorized executor with coprocessor push-down replaces it for analytics.
 */
public final class PlanExecutor {
    private static final Set<JoinRelType> SUPPORTED_JOINS = Set.of(JoinRelType.INNER,
            JoinRelType.LEFT, JoinRelType.RIGHT, JoinRelType.FULL, JoinRelType.SEMI, JoinRelType.ANTI);

    private final Transaction transaction;
    private final ExpressionCompiler compiler;
    private final boolean locking;
    private final SessionFunctions session;
    private final Map<Long, TableAccess> accessCache = new HashMap<>();
    private final MemoryTracker memory;
    private Map<RelNode, OperatorStatistics> statistics;
    /** Null when this plan reads everything itself (locking reads, or push-down switched off). */
    private final CoprocessorPushDown pushDown;
    /** Joins whose inner side was read by handle lookups (for EXPLAIN ANALYZE). */
    private final Set<Join> lookupJoins = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    public PlanExecutor(Transaction transaction, ExpressionCompiler compiler, boolean locking) {
        this.transaction = transaction;
        this.compiler = compiler;
        this.locking = locking;
        this.session = compiler.session();
        this.memory = new MemoryTracker(memoryQuota(session));
        this.pushDown = transaction != null && !locking && CoprocessorPushDown.enabled(session)
                ? new CoprocessorPushDown(transaction, compiler, memoryQuota(session)) : null;
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
        return lookupJoins.contains(join);
    }

    public Map<RelNode, OperatorStatistics> statistics() {
        return statistics == null ? Map.of() : statistics;
    }

    public List<Object[]> execute(RelNode node) {
        long started = System.nanoTime();
        long before = memory.used();
        List<Object[]> rows = executeOperator(node);
        // The inputs' rows are no longer held once this operator is done (a sort's sublist is its own output).
        memory.release(memory.used() - before);
        long bytes = memory.consume(rows, node.getRelTypeName());
        if (statistics != null) {
            statistics.put(node, new OperatorStatistics(rows.size(), System.nanoTime() - started, bytes));
        }
        return rows;
    }

    private List<Object[]> executeOperator(RelNode node) {
        if (node instanceof TableScan scan) {
            return scan(scan, null);
        }
        if (node instanceof Filter filter) {
            if (filter.getInput() instanceof TableScan scan) {
                return scan(scan, filter.getCondition());
            }
            RowExpression condition = compiler.compile(filter.getCondition());
            List<Object[]> rows = new ArrayList<>();
            for (Object[] row : execute(filter.getInput())) {
                session.checkNotKilled();
                if (Boolean.TRUE.equals(io.duetdb.sql.exec.Values.truth(condition.evaluate(row)))) {
                    rows.add(row);
                }
            }
            return rows;
        }
        if (node instanceof Project project) {
            List<Object[]> pushed = pushDown == null ? null : pushDown.project(project);
            if (pushed != null) {
                session.checkNotKilled();
                return pushed;
            }
            List<RowExpression> expressions = new ArrayList<>();
            for (RexNode expression : project.getProjects()) {
                expressions.add(compiler.compile(expression));
            }
            List<Object[]> input = execute(project.getInput());
            List<Object[]> rows = new ArrayList<>(input.size());
            for (Object[] row : input) {
                session.checkNotKilled();
                Object[] output = new Object[expressions.size()];
                for (int i = 0; i < output.length; i++) {
                    output[i] = expressions.get(i).evaluate(row);
                }
                rows.add(output);
            }
            return rows;
        }
        if (node instanceof Sort sort) {
            return sort(sort);
        }
        if (node instanceof Aggregate aggregate) {
            List<Object[]> pushed = pushDown == null ? null : pushDown.aggregate(aggregate);
            return pushed != null ? pushed : aggregate(aggregate);
        }
        if (node instanceof Join join) {
            return join(join);
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
            return rows;
        }
        if (node instanceof org.apache.calcite.rel.core.Window window) {
            return WindowOperator.apply(window, execute(window.getInput()), session);
        }
        if (node instanceof Union union) {
            List<Object[]> rows = new ArrayList<>();
            for (RelNode input : union.getInputs()) {
                rows.addAll(execute(input));
            }
            return union.all ? rows : distinct(rows);
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "this query needs an operator DuetDB lacks yet: "
                + node.getRelTypeName());
    }

    private static long memoryQuota(SessionFunctions session) {
        Object value = session.systemVariable("", "tidb_mem_quota_query");
        return value == null ? 0 : io.duetdb.sql.exec.Values.toLong(value);
    }

    private TableAccess access(DuetTable table) {
        return accessCache.computeIfAbsent(table.table().id(), id -> new TableAccess(table.table()));
    }

    private List<Object[]> scan(TableScan scan, RexNode condition) {
        io.duetdb.sql.prepare.InformationSchemaTable view =
                scan.getTable().unwrap(io.duetdb.sql.prepare.InformationSchemaTable.class);
        if (view != null) {
            RowExpression filter = condition == null ? null : compiler.compile(condition);
            List<Object[]> rows = new ArrayList<>();
            for (Object[] row : view.rows()) {
                if (filter == null || Boolean.TRUE.equals(io.duetdb.sql.exec.Values.truth(filter.evaluate(row)))) {
                    rows.add(row);
                }
            }
            return rows;
        }
        DuetTable table = scan.getTable().unwrap(DuetTable.class);
        if (table == null) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "cannot read table " + scan.getTable().getQualifiedName());
        }
        TableAccess access = access(table);
        TableReader reader = TableReader.create(transaction, access, condition, compiler, locking,
                AccessPathEstimator.of(table, transaction, session));
        byte[][] range = pushDown == null ? null : reader.recordRange();
        if (range != null) {
            List<Object[]> pushed = pushDown.scan(access, range, condition);
            if (pushed != null) {
                session.checkNotKilled();
                return pushed;
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (TableReader.HandleRow row : reader.read()) {
            rows.add(access.publicValues(row.row()));
        }
        // The condition may have called SLEEP, which a kill cuts short without failing.
        session.checkNotKilled();
        return rows;
    }

    private List<Object[]> sort(Sort sort) {
        int offset = sort.offset == null ? 0 : (int) io.duetdb.sql.exec.Values.toLong(compiler.compile(sort.offset)
                .evaluate(new Object[0]));
        long fetch = sort.fetch == null ? Long.MAX_VALUE : io.duetdb.sql.exec.Values.toLong(compiler.compile(sort.fetch)
                .evaluate(new Object[0]));
        List<Object[]> pushed = pushDown == null || fetch == Long.MAX_VALUE ? null
                : pushDown.topN(sort.getInput(), sort.getCollation().getFieldCollations(), offset + fetch);
        List<Object[]> rows = new ArrayList<>(pushed != null ? pushed : execute(sort.getInput()));
        if (!sort.getCollation().getFieldCollations().isEmpty()) {
            rows.sort(comparator(sort.getCollation().getFieldCollations()));
        }
        if (offset >= rows.size()) {
            return List.of();
        }
        int end = (int) Math.min(rows.size(), offset + Math.min(fetch, Integer.MAX_VALUE));
        return rows.subList(offset, end);
    }

    static Comparator<Object[]> comparator(List<RelFieldCollation> collations) {
        return (a, b) -> {
            for (RelFieldCollation collation : collations) {
                int index = collation.getFieldIndex();
                Object x = a[index];
                Object y = b[index];
                int result;
                if (x == null || y == null) {
                    // MySQL: NULLs first ascending, last descending.
                    result = x == y ? 0 : x == null ? -1 : 1;
                } else {
                    result = io.duetdb.sql.exec.Values.compare(x, y);
                }
                if (collation.getDirection().isDescending()) {
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
        List<Object[]> input = execute(aggregate.getInput());
        int[] groupFields = aggregate.getGroupSet().toArray();
        List<AggregateCall> calls = aggregate.getAggCallList();
        Map<GroupKey, Accumulator[]> groups = new LinkedHashMap<>();
        for (Object[] row : input) {
            session.checkNotKilled();
            Object[] keyValues = new Object[groupFields.length];
            for (int i = 0; i < groupFields.length; i++) {
                keyValues[i] = row[groupFields[i]];
            }
            Accumulator[] accumulators = groups.computeIfAbsent(new GroupKey(keyValues), key -> newAccumulators(calls));
            for (Accumulator accumulator : accumulators) {
                accumulator.add(row);
            }
        }
        if (groups.isEmpty() && groupFields.length == 0) {
            groups.put(new GroupKey(new Object[0]), newAccumulators(calls));
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

    private static Accumulator[] newAccumulators(List<AggregateCall> calls) {
        Accumulator[] accumulators = new Accumulator[calls.size()];
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i] = Accumulator.of(calls.get(i));
        }
        return accumulators;
    }

    private List<Object[]> join(Join join) {
        if (!SUPPORTED_JOINS.contains(join.getJoinType())) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "this query needs a " + join.getJoinType()
                    + " join, which DuetDB lacks yet");
        }
        List<Object[]> left = execute(join.getLeft());
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        int rightWidth = join.getRight().getRowType().getFieldCount();
        JoinKeys keys = JoinKeys.of(join, compiler.rexBuilder());
        long maxOuterRows = HandleLookup.maxOuterRows(session);
        HandleLookup lookup = keys == null || transaction == null || locking || maxOuterRows <= 0
                || left.size() > maxOuterRows ? null : HandleLookup.of(join, keys);
        List<Object[]> right;
        if (lookup != null) {
            long started = System.nanoTime();
            right = lookup.read(transaction, left, compiler);
            session.checkNotKilled();
            long bytes = memory.consume(right, "IndexLookUp");
            lookupJoins.add(join);
            if (statistics != null) {
                statistics.put(join.getRight(), new OperatorStatistics(right.size(), System.nanoTime() - started, bytes));
            }
        } else {
            right = execute(join.getRight());
        }
        if (keys != null) {
            return new HashJoin(join.getJoinType(), keys, compiler, leftWidth, rightWidth, memory).join(left, right);
        }
        return nestedLoopJoin(join, left, right, leftWidth, rightWidth);
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
