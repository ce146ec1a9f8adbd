package io.duetdb.compute.operator;

import java.math.BigDecimal;
import java.util.Arrays;

import org.apache.arrow.vector.FieldVector;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueOrdering;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.expression.Operand;
import io.duetdb.compute.expression.UnscaledLongs;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * The running partial result of one aggregate call for every group, in arrays indexed by group number. A batch
 * is added at once, each row to its group, so the loop over the rows knows the argument's form.
 */
abstract class Accumulator {
    static Accumulator of(PartialAggregationOperator.Call call) {
        return switch (call.function()) {
            case COUNT -> new Count();
            case SUM -> call.type().getType() == ValueType.FLOAT64 ? new DoubleSum() : new DecimalSum();
            case MIN -> new Extreme(call.type().getType(), -1);
            case MAX -> new Extreme(call.type().getType(), 1);
            default -> throw new UnsupportedExpressionException("aggregate " + call.function());
        };
    }

    /** Makes room for groups numbered below {@code count}. */
    abstract void ensureGroups(int count);

    /** Adds row {@code i} of {@code argument} (null: COUNT(*)) to group {@code groups[i]}, for the first rows. */
    abstract void add(FieldVector argument, int[] groups, int rows);

    /** The group's partial result as a {@link VectorValues} Java value. */
    abstract Object result(int group);

    static int grown(int length, int count) {
        return Math.max(count, length * 2);
    }

    /** COUNT: non-NULL arguments (every row for COUNT(*)). */
    private static final class Count extends Accumulator {
        private long[] counts = new long[16];

        @Override
        void ensureGroups(int count) {
            if (count > counts.length) {
                counts = Arrays.copyOf(counts, grown(counts.length, count));
            }
        }

        @Override
        void add(FieldVector argument, int[] groups, int rows) {
            for (int row = 0; row < rows; row++) {
                if (argument == null || !argument.isNull(row)) {
                    counts[groups[row]]++;
                }
            }
        }

        @Override
        Object result(int group) {
            return counts[group];
        }
    }

    /**
     * SUM of exact numbers: in a long at the argument's scale while it fits; what does not fit (a value or a
     * sum beyond 64 bits) moves to a BigDecimal part. NULL when the group summed nothing.
     */
    private static final class DecimalSum extends Accumulator {
        private long[] sums = new long[16];
        private boolean[] seen = new boolean[16];
        private BigDecimal[] overflow = new BigDecimal[16];
        private int scale = Operand.NO_SCALE;

        @Override
        void ensureGroups(int count) {
            if (count > sums.length) {
                int length = grown(sums.length, count);
                sums = Arrays.copyOf(sums, length);
                seen = Arrays.copyOf(seen, length);
                overflow = Arrays.copyOf(overflow, length);
            }
        }

        @Override
        void add(FieldVector argument, int[] groups, int rows) {
            Operand values = Operand.of(argument);
            int valueScale = values.scale();
            if (valueScale != Operand.NO_SCALE) {
                scale = valueScale;
            }
            for (int row = 0; row < rows; row++) {
                if (values.isNull(row)) {
                    continue;
                }
                int group = groups[row];
                seen[group] = true;
                long value = valueScale == Operand.NO_SCALE ? Operand.NOT_A_LONG : values.unscaled(row);
                long sum = value == Operand.NOT_A_LONG ? Operand.NOT_A_LONG : UnscaledLongs.add(sums[group], value);
                if (sum != Operand.NOT_A_LONG) {
                    sums[group] = sum;
                } else {
                    BigDecimal addend = values.getDecimal(row);
                    overflow[group] = overflow[group] == null ? addend : overflow[group].add(addend);
                }
            }
        }

        @Override
        Object result(int group) {
            if (!seen[group]) {
                return null;
            }
            if (scale == Operand.NO_SCALE) {
                return overflow[group];
            }
            BigDecimal sum = BigDecimal.valueOf(sums[group], scale);
            return overflow[group] == null ? sum : sum.add(overflow[group]);
        }
    }

    /** SUM as a double, added in row order. NULL when the group summed nothing. */
    private static final class DoubleSum extends Accumulator {
        private double[] sums = new double[16];
        private boolean[] seen = new boolean[16];

        @Override
        void ensureGroups(int count) {
            if (count > sums.length) {
                int length = grown(sums.length, count);
                sums = Arrays.copyOf(sums, length);
                seen = Arrays.copyOf(seen, length);
            }
        }

        @Override
        void add(FieldVector argument, int[] groups, int rows) {
            Operand values = Operand.of(argument);
            for (int row = 0; row < rows; row++) {
                if (!values.isNull(row)) {
                    int group = groups[row];
                    seen[group] = true;
                    sums[group] += values.getDouble(row);
                }
            }
        }

        @Override
        Object result(int group) {
            return seen[group] ? sums[group] : null;
        }
    }

    /** MIN (direction -1) or MAX (1) in the SQL layer's order of the type. */
    private static final class Extreme extends Accumulator {
        private final ValueType type;
        private final int direction;
        private Object[] values = new Object[16];

        Extreme(ValueType type, int direction) {
            this.type = type;
            this.direction = direction;
        }

        @Override
        void ensureGroups(int count) {
            if (count > values.length) {
                values = Arrays.copyOf(values, grown(values.length, count));
            }
        }

        @Override
        void add(FieldVector argument, int[] groups, int rows) {
            for (int row = 0; row < rows; row++) {
                if (argument.isNull(row)) {
                    continue;
                }
                Object value = VectorValues.get(argument, row);
                int group = groups[row];
                Object current = values[group];
                if (current == null || Integer.signum(ValueOrdering.compare(value, current, type)) == direction) {
                    values[group] = value;
                }
            }
        }

        @Override
        Object result(int group) {
            return values[group];
        }
    }
}
