package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * An aggregation Spark pushed into a scan, evaluated partially by every region's coprocessor: GROUP BY columns, and
 * COUNT(*), COUNT(column), SUM, MIN and MAX of columns (no DISTINCT). The scan then outputs the groups' columns and
 * one partial result per call, which Spark merges (COUNTs summed, SUMs summed, extremes of extremes). Partial SUMs
 * are DECIMAL(38, scale) for exact numbers and DOUBLE for approximate ones; Spark casts the merged sum back to the
 * type it expects.
 */
record PushedAggregate(List<ColumnInfo> groupBy, List<Call> calls, StructType outputSchema) {
    private static final int SUM_PRECISION = 38;

    /** One aggregate call: its function, its argument column (null for COUNT(*)) and its partial result's type. */
    record Call(AggregateFunction function, ColumnInfo argument, FieldType type) {
        Call {
            requireNonNull(function, "function is null");
            requireNonNull(type, "type is null");
        }
    }

    PushedAggregate {
        groupBy = List.copyOf(groupBy);
        calls = List.copyOf(calls);
        requireNonNull(outputSchema, "outputSchema is null");
    }

    /** The aggregation as the coprocessor can evaluate it, or empty when part of it cannot be. */
    static Optional<PushedAggregate> of(Aggregation aggregation, List<ColumnInfo> columns) {
        List<ColumnInfo> groupBy = new ArrayList<>();
        List<StructField> fields = new ArrayList<>();
        for (Expression expression : aggregation.groupByExpressions()) {
            ColumnInfo column = column(expression, columns);
            if (column == null) {
                return Optional.empty();
            }
            groupBy.add(column);
            fields.add(new StructField("group_" + fields.size(), SparkTypes.dataType(column.type()), true,
                    Metadata.empty()));
        }
        List<Call> calls = new ArrayList<>();
        for (AggregateFunc function : aggregation.aggregateExpressions()) {
            Call call = call(function, columns);
            if (call == null) {
                return Optional.empty();
            }
            calls.add(call);
            fields.add(new StructField("partial_" + calls.size(), sparkType(call), true,
                    Metadata.empty()));
        }
        return Optional.of(new PushedAggregate(groupBy, calls, new StructType(fields.toArray(StructField[]::new))));
    }

    private static Call call(AggregateFunc function, List<ColumnInfo> columns) {
        if (function instanceof CountStar) {
            return new Call(AggregateFunction.COUNT, null, ValueTypes.of(ValueType.INT64));
        }
        if (function instanceof Count count && !count.isDistinct()) {
            ColumnInfo column = column(count.column(), columns);
            return column == null ? null : new Call(AggregateFunction.COUNT, column, ValueTypes.of(ValueType.INT64));
        }
        if (function instanceof Sum sum && !sum.isDistinct()) {
            ColumnInfo column = column(sum.column(), columns);
            if (column == null) {
                return null;
            }
            ValueType type = StoredValues.columnType(column.type()).getType();
            if (type == ValueType.FLOAT32 || type == ValueType.FLOAT64) {
                return new Call(AggregateFunction.SUM, column, ValueTypes.of(ValueType.FLOAT64));
            }
            if (type == ValueType.INT64 || type == ValueType.DECIMAL) {
                return new Call(AggregateFunction.SUM, column, ValueTypes.decimal(SUM_PRECISION, column.type().scale()));
            }
            return null;
        }
        if (function instanceof Min min) {
            ColumnInfo column = column(min.column(), columns);
            return column == null ? null : new Call(AggregateFunction.MIN, column, SparkTypes.scanType(column));
        }
        if (function instanceof Max max) {
            ColumnInfo column = column(max.column(), columns);
            return column == null ? null : new Call(AggregateFunction.MAX, column, SparkTypes.scanType(column));
        }
        return null;
    }

    private static DataType sparkType(Call call) {
        return switch (call.function()) {
            case COUNT -> DataTypes.LongType;
            case SUM -> call.type().getType() == ValueType.FLOAT64 ? DataTypes.DoubleType
                    : DataTypes.createDecimalType(SUM_PRECISION, call.type().getScale());
            default -> SparkTypes.dataType(call.argument().type());
        };
    }

    /** The column an expression names, when the coprocessor holds its values in the column's own type. */
    private static ColumnInfo column(Expression expression, List<ColumnInfo> columns) {
        if (!(expression instanceof NamedReference reference) || reference.fieldNames().length != 1) {
            return null;
        }
        for (ColumnInfo column : columns) {
            if (column.name().toLowerCase(Locale.ROOT).equals(reference.fieldNames()[0].toLowerCase(Locale.ROOT))) {
                return StoredValues.columnType(column.type()) == null ? null : column;
            }
        }
        return null;
    }

    /** The columns the scan must read: the groups', then the calls' arguments. */
    List<ColumnInfo> inputs() {
        List<ColumnInfo> inputs = new ArrayList<>(groupBy);
        for (Call call : calls) {
            if (call.argument() != null && !inputs.contains(call.argument())) {
                inputs.add(call.argument());
            }
        }
        return inputs;
    }

    String describe() {
        List<String> parts = new ArrayList<>();
        for (Call call : calls) {
            parts.add(call.function() + "(" + (call.argument() == null ? "*" : call.argument().name()) + ")");
        }
        return parts + (groupBy.isEmpty() ? "" : " GROUP BY " + groupBy.stream().map(ColumnInfo::name).toList());
    }
}
