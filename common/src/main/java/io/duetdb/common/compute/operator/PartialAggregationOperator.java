package io.duetdb.common.compute.operator;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.common.compute.UnsupportedExpressionException;
import io.duetdb.common.compute.ValueOrdering;
import io.duetdb.common.compute.ValueTypes;
import io.duetdb.common.compute.VectorValues;
import io.duetdb.common.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * A hash aggregation that outputs partial results for the SQL layer to merge: per group, the group-by values,
 * then per call a COUNT, a SUM (NULL when it summed nothing) or a MIN / MAX. Without group-by it outputs one row
 * even for an empty input, as SQL's global aggregates do.
 */
public final class PartialAggregationOperator implements BatchOperator {
    /** One aggregate call: its function, its argument (null for COUNT(*)) and its partial result's type. */
    public record Call(AggregateFunction function, VectorExpression argument, FieldType type) {
        public Call {
            requireNonNull(function, "function is null");
            requireNonNull(type, "type is null");
            if (argument == null && function != AggregateFunction.COUNT) {
                throw new UnsupportedExpressionException(function + " without an argument");
            }
            switch (function) {
                case COUNT -> expect(type.getType() == ValueType.INT64, "COUNT gives INT64");
                case SUM -> expect(type.getType() == ValueType.DECIMAL && ValueTypes.isNumeric(argument.type().getType())
                        && argument.type().getType() != ValueType.FLOAT32 && argument.type().getType() != ValueType.FLOAT64
                        || type.getType() == ValueType.FLOAT64 && ValueTypes.isNumeric(argument.type().getType()),
                        "SUM gives DECIMAL for exact numbers and FLOAT64 for any number");
                case MIN, MAX -> expect(type.getType() == argument.type().getType(), function + " keeps its argument's type");
                default -> throw new UnsupportedExpressionException("aggregate " + function + " is not supported");
            }
        }

        private static void expect(boolean condition, String rule) {
            if (!condition) {
                throw new UnsupportedExpressionException("invalid aggregate call: " + rule);
            }
        }
    }

    private final BatchOperator input;
    private final List<VectorExpression> groupBy;
    private final List<Call> calls;
    private final BufferAllocator allocator;
    private final int batchRows;
    private final List<FieldType> types = new ArrayList<>();
    private List<Object[]> results;
    private int emitted;
    private VectorSchemaRoot output;

    public PartialAggregationOperator(BatchOperator input, List<VectorExpression> groupBy, List<Call> calls,
            BufferAllocator allocator, int batchRows) {
        this.input = requireNonNull(input, "input is null");
        this.groupBy = List.copyOf(groupBy);
        this.calls = List.copyOf(calls);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchRows = batchRows;
        this.groupBy.forEach(expression -> types.add(expression.type()));
        this.calls.forEach(call -> types.add(call.type()));
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        if (results == null) {
            results = aggregate();
        }
        if (output != null) {
            output.close();
            output = null;
        }
        if (emitted >= results.size()) {
            return null;
        }
        int end = Math.min(results.size(), emitted + batchRows);
        output = Batches.ofRows(types, results.subList(emitted, end), allocator);
        emitted = end;
        return output;
    }

    private List<Object[]> aggregate() {
        Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
        int keyCount = groupBy.size();
        VectorSchemaRoot batch;
        while ((batch = input.next()) != null) {
            int rows = batch.getRowCount();
            List<FieldVector> keys = new ArrayList<>(keyCount);
            List<FieldVector> arguments = new ArrayList<>(calls.size());
            try {
                for (VectorExpression expression : groupBy) {
                    keys.add(expression.evaluate(batch, allocator));
                }
                for (Call call : calls) {
                    arguments.add(call.argument() == null ? null : call.argument().evaluate(batch, allocator));
                }
                for (int row = 0; row < rows; row++) {
                    Object[] keyValues = new Object[keyCount];
                    List<Object> hashKey = new ArrayList<>(keyCount);
                    for (int k = 0; k < keyCount; k++) {
                        keyValues[k] = VectorValues.get(keys.get(k), row);
                        hashKey.add(keyValues[k] instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : keyValues[k]);
                    }
                    Object[] state = groups.computeIfAbsent(hashKey, key -> newState(keyValues));
                    for (int c = 0; c < calls.size(); c++) {
                        FieldVector argument = arguments.get(c);
                        accumulate(calls.get(c), state, keyCount + c, argument == null ? Boolean.TRUE
                                : VectorValues.get(argument, row));
                    }
                }
            } finally {
                keys.forEach(FieldVector::close);
                arguments.stream().filter(java.util.Objects::nonNull).forEach(FieldVector::close);
            }
        }
        if (groups.isEmpty() && keyCount == 0) {
            groups.put(List.of(), newState(new Object[0]));
        }
        return new ArrayList<>(groups.values());
    }

    private Object[] newState(Object[] keyValues) {
        Object[] state = Arrays.copyOf(keyValues, keyValues.length + calls.size());
        for (int c = 0; c < calls.size(); c++) {
            if (calls.get(c).function() == AggregateFunction.COUNT) {
                state[keyValues.length + c] = 0L;
            }
        }
        return state;
    }

    private static void accumulate(Call call, Object[] state, int slot, Object value) {
        if (value == null) {
            return;
        }
        Object current = state[slot];
        switch (call.function()) {
            case COUNT -> state[slot] = (Long) current + 1;
            case SUM -> {
                if (call.type().getType() == ValueType.FLOAT64) {
                    state[slot] = (current == null ? 0.0 : (Double) current) + ((Number) value).doubleValue();
                } else {
                    BigDecimal addend = value instanceof BigDecimal decimal ? decimal
                            : value instanceof Boolean bool ? (bool ? BigDecimal.ONE : BigDecimal.ZERO)
                            : call.argument().type().getType() == ValueType.UINT64
                                    ? new BigDecimal(Long.toUnsignedString((Long) value))
                                    : BigDecimal.valueOf((Long) value);
                    state[slot] = current == null ? addend : ((BigDecimal) current).add(addend);
                }
            }
            case MIN -> {
                if (current == null || ValueOrdering.compare(value, current, call.type().getType()) < 0) {
                    state[slot] = value;
                }
            }
            case MAX -> {
                if (current == null || ValueOrdering.compare(value, current, call.type().getType()) > 0) {
                    state[slot] = value;
                }
            }
            default -> throw new UnsupportedExpressionException("aggregate " + call.function());
        }
    }

    @Override
    public void close() {
        if (output != null) {
            output.close();
        }
        input.close();
    }
}
