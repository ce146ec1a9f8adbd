package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.compute.operator.PartialAggregationOperator;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.Aggregation;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;
import io.duetdb.sql.prepare.MySqlCollations;

/**
 * SQL aggregate calls split in two phases: the partial calls that run where the rows are (the stores' coprocessors,
 * or the SQL server's batch operators) and how their states merge and finish. COUNT and SUM become partial counts
 * and sums that add up, AVG a sum and a count, MIN and MAX stay themselves; a call's {@code slots} are the positions
 * of its partial states among the partial columns (after the group keys).
 */
final class PartialAggregates {
    static final int PARTIAL_SUM_PRECISION = ValueTypes.MAX_DECIMAL_PRECISION;

    private PartialAggregates() {
    }

    /** Adds the partial calls of every SQL aggregate call; answers each call's output positions, or null if one cannot go. */
    static List<int[]> addAllCalls(List<AggregateCall> calls, List<Expression> inputs, Aggregation.Builder partial,
            List<FieldType> partialTypes) {
        List<int[]> slots = new ArrayList<>();
        for (AggregateCall call : calls) {
            int[] callSlots = addCalls(call, inputs, partial, partialTypes);
            if (callSlots == null) {
                return null;
            }
            slots.add(callSlots);
        }
        return slots;
    }

    /** How partial results of {@code function} merge: counts and sums add up, minimums and maximums stay. */
    static AggregateFunction mergeFunction(String function) {
        return switch (function) {
            case "COUNT", "SUM" -> AggregateFunction.SUM;
            case "MIN" -> AggregateFunction.MIN;
            case "MAX" -> AggregateFunction.MAX;
            default -> throw new IllegalStateException("no merge for " + function);
        };
    }

    /** The type a merge of partial {@code function} results has: a wide DECIMAL for counts, else the partial's. */
    static FieldType mergedType(String function, FieldType partialType) {
        return function.equals("COUNT") ? ValueTypes.decimal(PARTIAL_SUM_PRECISION, 0) : partialType;
    }

    /** Adds the partial calls one SQL aggregate call needs; answers their output positions, or null if it cannot go. */
    static int[] addCalls(AggregateCall call, List<Expression> inputs, Aggregation.Builder partial,
            List<FieldType> partialTypes) {
        if (call.isDistinct() || call.filterArg >= 0 || call.getArgList().size() > 1 || call.isApproximate()
                || MySqlCollations.collated(call.getType())) {
            // The stores compare text as bytes: MIN and MAX of text under another collation run here.
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

    private static int addCall(Aggregation.Builder partial, List<FieldType> partialTypes,
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

    static List<VectorExpression> keyColumns(List<FieldType> types,
            int keyCount) {
        List<VectorExpression> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(new ColumnReference(k, types.get(k)));
        }
        return keys;
    }

    /**
     * The merge of each partial column: counts and sums add up, minimums and maximums stay. Adds each column's
     * partial function to {@code functions}.
     */
    static List<PartialAggregationOperator.Call> mergeCalls(
            List<AggregateCall> calls, List<int[]> slots, List<FieldType> types, int keyCount, List<String> functions) {
        List<PartialAggregationOperator.Call> merges = new ArrayList<>();
        for (int position = keyCount; position < types.size(); position++) {
            String function = partialFunction(calls, slots, position);
            FieldType type = types.get(position);
            var column = new ColumnReference(position, type);
            functions.add(function);
            merges.add(new PartialAggregationOperator.Call(mergeFunction(function), column, mergedType(function, type)));
        }
        return merges;
    }

    /** A merged group's values as the SQL layer holds partial states: SQL values, counts as longs. */
    static Object[] state(Object[] group, int keyCount, List<String> functions, List<FieldType> types) {
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
    static Object[] finished(List<AggregateCall> calls, List<int[]> slots, int keyCount, Object[] state) {
        Object[] row = new Object[keyCount + calls.size()];
        System.arraycopy(state, 0, row, 0, keyCount);
        for (int c = 0; c < calls.size(); c++) {
            row[keyCount + c] = result(calls.get(c), state, slots.get(c));
        }
        return row;
    }

    static String partialFunction(List<AggregateCall> calls, List<int[]> slots, int position) {
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

    static Object combine(Object current, Object value, String function) {
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
}
