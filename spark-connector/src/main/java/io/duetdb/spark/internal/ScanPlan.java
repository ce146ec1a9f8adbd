package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.connector.expressions.filter.Predicate;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.compute.Literals;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.Limit;
import io.duetdb.proto.coprocessor.Projection;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.Selection;
import io.duetdb.proto.coprocessor.TableScan;

/**
 * The coprocessor plan of a scan, the same for every region: the table scan of the columns it needs, the pushed
 * predicates as a selection, a projection to the columns Spark asked for when filters needed more, and the pushed
 * limit. {@code outputs} is how many of the scanned columns Spark reads (zero for COUNT(*)).
 */
record ScanPlan(byte[] plan, List<String> columns, List<FieldType> outputTypes, int outputs, List<String> filters,
        int limit, boolean aggregated) {
    ScanPlan {
        requireNonNull(plan, "plan is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        outputTypes = List.copyOf(requireNonNull(outputTypes, "outputTypes is null"));
        filters = List.copyOf(requireNonNull(filters, "filters is null"));
    }

    static ScanPlan of(TableInfo table, List<ColumnInfo> scanned, int outputs, List<Predicate> predicates, int limit) {
        return of(table, scanned, outputs, predicates, limit, null);
    }

    /** With {@code aggregate}, the scan outputs its groups and partial results (and {@code outputs} is ignored). */
    static ScanPlan of(TableInfo table, List<ColumnInfo> scanned, int outputs, List<Predicate> predicates, int limit,
            PushedAggregate aggregate) {
        TableScan.Builder scan = TableScan.newBuilder().setTableId(table.id());
        List<FieldType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ColumnInfo column : scanned) {
            FieldType type = SparkTypes.scanType(column);
            ScanColumn.Builder scanColumn = ScanColumn.newBuilder().setColumnId(column.id()).setType(type);
            Object origin = column.originDefault();
            if (origin != null) {
                scanColumn.setDefaultValue(Literals.of(StoredValues.toCompute(origin, type)));
            }
            scan.addColumns(scanColumn);
            types.add(type);
            names.add(column.name());
        }
        DagRequest.Builder request = DagRequest.newBuilder().addExecutors(Executor.newBuilder().setTableScan(scan));
        List<String> filters = new ArrayList<>();
        if (!predicates.isEmpty()) {
            PredicateTranslator translator = new PredicateTranslator(DuetScanBuilder.scanColumns(scanned));
            Selection.Builder selection = Selection.newBuilder();
            for (Predicate predicate : predicates) {
                selection.addConditions(translator.translate(predicate).orElseThrow(
                        () -> new IllegalStateException("a pushed predicate no longer translates: " + predicate)));
                filters.add(predicate.toString());
            }
            request.addExecutors(Executor.newBuilder().setSelection(selection));
        }
        if (aggregate != null) {
            Aggregation.Builder aggregation = Aggregation.newBuilder();
            List<FieldType> aggregateTypes = new ArrayList<>();
            for (ColumnInfo column : aggregate.groupBy()) {
                int position = scanned.indexOf(column);
                aggregation.addGroupBy(Expression.newBuilder().setType(types.get(position)).setColumn(position));
                aggregateTypes.add(types.get(position));
            }
            for (PushedAggregate.Call call : aggregate.calls()) {
                AggregateCall.Builder built = AggregateCall.newBuilder().setFunction(call.function()).setType(call.type());
                if (call.argument() != null) {
                    int position = scanned.indexOf(call.argument());
                    built.setArgument(Expression.newBuilder().setType(types.get(position)).setColumn(position));
                }
                aggregation.addCalls(built);
                aggregateTypes.add(call.type());
            }
            request.addExecutors(Executor.newBuilder().setAggregation(aggregation));
            DagRequest built = request.build();
            DagPipeline.check(built);
            int width = aggregateTypes.size();
            List<String> described = List.of(aggregate.describe());
            return new ScanPlan(built.toByteArray(), described, aggregateTypes, width, filters, -1, true);
        }
        int kept = Math.max(outputs, 1);
        if (kept < scanned.size()) {
            Projection.Builder projection = Projection.newBuilder();
            for (int i = 0; i < kept; i++) {
                projection.addExpressions(Expression.newBuilder().setType(types.get(i)).setColumn(i));
            }
            request.addExecutors(Executor.newBuilder().setProjection(projection));
        }
        if (limit >= 0) {
            request.addExecutors(Executor.newBuilder().setLimit(Limit.newBuilder().setLimit(limit)));
        }
        DagRequest built = request.build();
        DagPipeline.check(built);
        return new ScanPlan(built.toByteArray(), names.subList(0, outputs), types.subList(0, kept), outputs, filters,
                limit, false);
    }
}
