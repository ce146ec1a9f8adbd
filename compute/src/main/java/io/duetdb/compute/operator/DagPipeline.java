package io.duetdb.compute.operator;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.IndexScan;
import io.duetdb.proto.coprocessor.OrderBy;
import io.duetdb.proto.coprocessor.TableScan;

/**
 * Turns a DAG request into a chain of operators over a scan the caller supplies (rows decoded from the row
 * store, or the column learner's own columns). Everything is checked as it is built: an invalid plan throws
 * {@link UnsupportedExpressionException} before any data is read.
 */
public final class DagPipeline {
    public static final int DEFAULT_BATCH_ROWS = 1024;
    public static final int MAX_BATCH_ROWS = 65_536;

    private DagPipeline() {
    }

    /** The output types of the scan an executor list starts with, for checking a plan without data. */
    public static List<FieldType> scanTypes(TableScan scan) {
        return scan.getColumnsList().stream().map(column -> column.getType()).toList();
    }

    public static int batchRows(DagRequest request) {
        int rows = request.getBatchRows() == 0 ? DEFAULT_BATCH_ROWS : request.getBatchRows();
        if (rows > MAX_BATCH_ROWS) {
            throw new UnsupportedExpressionException("batch_rows " + rows + " exceeds " + MAX_BATCH_ROWS);
        }
        return rows;
    }

    /**
     * The output types of an index scan: each output is a key column, or the handle (INT64) past them; checked.
     */
    public static List<FieldType> scanTypes(IndexScan scan) {
        List<FieldType> types = new ArrayList<>(scan.getOutputsCount());
        for (int output : scan.getOutputsList()) {
            if (output < 0 || output > scan.getKeyTypesCount()) {
                throw new UnsupportedExpressionException("index scan output " + output + " is neither one of its "
                        + scan.getKeyTypesCount() + " key columns nor the handle");
            }
            types.add(output == scan.getKeyTypesCount()
                    ? FieldType.newBuilder().setType(io.duetdb.proto.coprocessor.ValueType.INT64).build()
                    : scan.getKeyTypes(output));
        }
        if (types.isEmpty()) {
            throw new UnsupportedExpressionException("an index scan must output a column");
        }
        return types;
    }

    /** The scan a DAG starts with supplies its batches: the caller builds it from the first executor. */
    public interface ScanSource {
        BatchOperator tableScan(TableScan scan);

        BatchOperator indexScan(IndexScan scan);
    }

    public static BatchOperator build(DagRequest request, ScanSource scans, BufferAllocator allocator) {
        return build(request, scans, allocator, null);
    }

    /** The pipeline, counting each executor's output rows and time into {@code statistics} when it is not null. */
    public static BatchOperator build(DagRequest request, ScanSource scans, BufferAllocator allocator,
            ExecutorStatistics statistics) {
        List<Executor> executors = request.getExecutorsList();
        if (statistics != null && statistics.executors() != executors.size()) {
            throw new IllegalArgumentException("statistics for " + statistics.executors() + " executors, the plan has "
                    + executors.size());
        }
        List<FieldType> types = firstScanTypes(executors);
        int batchRows = batchRows(request);
        checkScanOnce(executors);
        Executor first = executors.get(0);
        BatchOperator operator = first.getKindCase() == Executor.KindCase.TABLE_SCAN ? scans.tableScan(first.getTableScan())
                : scans.indexScan(first.getIndexScan());
        try {
            if (!operator.outputTypes().equals(types)) {
                throw new UnsupportedExpressionException("the scan's output types " + operator.outputTypes()
                        + " differ from the plan's " + types);
            }
            if (statistics != null) {
                operator = statistics.counting(operator, 0);
            }
            for (int i = 1; i < executors.size(); i++) {
                operator = next(operator, executors.get(i), allocator, batchRows);
                if (statistics != null) {
                    operator = statistics.counting(operator, i);
                }
            }
            return operator;
        } catch (RuntimeException e) {
            operator.close();
            throw e;
        }
    }

    /** Checks a plan without running it: what {@link #build} would accept. */
    public static void check(DagRequest request) {
        List<Executor> executors = request.getExecutorsList();
        List<FieldType> types = firstScanTypes(executors);
        batchRows(request);
        checkScanOnce(executors);
        for (Executor executor : executors.subList(1, executors.size())) {
            types = outputTypes(executor, types);
        }
    }

    private static List<FieldType> firstScanTypes(List<Executor> executors) {
        if (executors.isEmpty()) {
            throw new UnsupportedExpressionException("a DAG must start with a table or index scan");
        }
        return switch (executors.get(0).getKindCase()) {
            case TABLE_SCAN -> scanTypes(executors.get(0).getTableScan());
            case INDEX_SCAN -> scanTypes(executors.get(0).getIndexScan());
            default -> throw new UnsupportedExpressionException("a DAG must start with a table or index scan");
        };
    }

    private static void checkScanOnce(List<Executor> executors) {
        for (Executor executor : executors.subList(1, executors.size())) {
            if (executor.getKindCase() == Executor.KindCase.TABLE_SCAN || executor.getKindCase() == Executor.KindCase.INDEX_SCAN
                    || executor.getKindCase() == Executor.KindCase.KIND_NOT_SET) {
                throw new UnsupportedExpressionException("only the first executor of a DAG may be a scan");
            }
        }
    }

    private static List<FieldType> outputTypes(Executor executor, List<FieldType> input) {
        return switch (executor.getKindCase()) {
            case SELECTION -> {
                for (Expression condition : executor.getSelection().getConditionsList()) {
                    if (!VectorExpressions.isBoolean(VectorExpressions.build(condition, input))) {
                        throw new UnsupportedExpressionException("a selection condition must be BOOLEAN");
                    }
                }
                yield input;
            }
            case PROJECTION -> expressions(executor.getProjection().getExpressionsList(), input).stream()
                    .map(VectorExpression::type).toList();
            case AGGREGATION -> {
                if (executor.getAggregation().getStreamed() && executor.getAggregation().getGroupByCount() == 0) {
                    throw new UnsupportedExpressionException("a stream aggregation needs group-by keys");
                }
                List<FieldType> types = new ArrayList<>();
                expressions(executor.getAggregation().getGroupByList(), input).forEach(e -> types.add(e.type()));
                for (PartialAggregationOperator.Call call : calls(executor.getAggregation().getCallsList(), input)) {
                    types.add(call.type());
                }
                yield types;
            }
            case TOP_N -> {
                sortKeys(executor.getTopN().getOrderByList(), input);
                yield input;
            }
            case LIMIT -> input;
            default -> throw new UnsupportedExpressionException("executor " + executor.getKindCase() + " is not supported");
        };
    }

    private static BatchOperator next(BatchOperator input, Executor executor, BufferAllocator allocator, int batchRows) {
        List<FieldType> types = input.outputTypes();
        return switch (executor.getKindCase()) {
            case SELECTION -> new SelectionOperator(input, expressions(executor.getSelection().getConditionsList(), types),
                    allocator);
            case PROJECTION -> new ProjectionOperator(input,
                    expressions(executor.getProjection().getExpressionsList(), types), allocator);
            case AGGREGATION -> executor.getAggregation().getStreamed()
                    ? new StreamAggregationOperator(input, expressions(executor.getAggregation().getGroupByList(), types),
                            calls(executor.getAggregation().getCallsList(), types), allocator)
                    : new PartialAggregationOperator(input, expressions(executor.getAggregation().getGroupByList(), types),
                            calls(executor.getAggregation().getCallsList(), types), allocator, batchRows);
            case TOP_N -> new TopNOperator(input, sortKeys(executor.getTopN().getOrderByList(), types),
                    executor.getTopN().getLimit(), allocator, batchRows);
            case LIMIT -> new LimitOperator(input, executor.getLimit().getLimit());
            default -> throw new UnsupportedExpressionException("executor " + executor.getKindCase() + " is not supported");
        };
    }

    private static List<VectorExpression> expressions(List<Expression> expressions, List<FieldType> input) {
        List<VectorExpression> built = new ArrayList<>(expressions.size());
        for (Expression expression : expressions) {
            built.add(VectorExpressions.build(expression, input));
        }
        return built;
    }

    private static List<PartialAggregationOperator.Call> calls(List<AggregateCall> calls, List<FieldType> input) {
        List<PartialAggregationOperator.Call> built = new ArrayList<>(calls.size());
        for (AggregateCall call : calls) {
            VectorExpression argument = call.hasArgument() ? VectorExpressions.build(call.getArgument(), input) : null;
            built.add(new PartialAggregationOperator.Call(call.getFunction(), argument, call.getType()));
        }
        return built;
    }

    private static List<TopNOperator.SortKey> sortKeys(List<OrderBy> orderBy, List<FieldType> input) {
        if (orderBy.isEmpty()) {
            throw new UnsupportedExpressionException("TopN without an order");
        }
        List<TopNOperator.SortKey> keys = new ArrayList<>(orderBy.size());
        for (OrderBy order : orderBy) {
            keys.add(new TopNOperator.SortKey(VectorExpressions.build(order.getExpression(), input), order.getDescending()));
        }
        return keys;
    }
}
