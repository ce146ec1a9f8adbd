package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Window functions over materialized rows. Frames of ROWS or RANGE between UNBOUNDED PRECEDING, n PRECEDING,
 * CURRENT ROW, n FOLLOWING and UNBOUNDED FOLLOWING (RANGE offsets over one numeric ORDER BY key); the rankings
 * ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST and NTILE; LAG and LEAD; FIRST_VALUE, LAST_VALUE and
 * NTH_VALUE of the frame; and the aggregates the executor has over the frame. Output rows are the input's, in
 * input order, with one column per window call.
 */
final class WindowOperator {
    private WindowOperator() {
    }

    static List<Object[]> apply(Window window, List<Object[]> input, SessionFunctions session) {
        int width = window.getInput().getRowType().getFieldCount();
        List<RexLiteral> constants = window.constants;
        int calls = window.groups.stream().mapToInt(group -> group.aggCalls.size()).sum();
        int resultStart = width + constants.size();
        Object[][] rows = new Object[input.size()][];
        for (int i = 0; i < rows.length; i++) {
            Object[] row = Arrays.copyOf(input.get(i), resultStart + calls);
            for (int c = 0; c < constants.size(); c++) {
                row[width + c] = ExpressionCompiler.literalValue(constants.get(c));
            }
            rows[i] = row;
        }
        int slot = resultStart;
        for (Window.Group group : window.groups) {
            List<AggregateCall> groupCalls = group.getAggregateCalls(window);
            Integer[] order = new Integer[rows.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            RelDataType inputType = window.getInput().getRowType();
            Comparator<Object[]> partition = keysComparator(group.keys.asList(), inputType);
            Comparator<Object[]> ordering = PlanExecutor.comparator(group.orderKeys.getFieldCollations(), inputType);
            Arrays.sort(order, (a, b) -> {
                int result = partition.compare(rows[a], rows[b]);
                return result != 0 ? result : ordering.compare(rows[a], rows[b]);
            });
            Frame frame = Frame.of(group, window.getInput().getRowType(), rows.length == 0 ? null : rows[0]);
            int start = 0;
            while (start < order.length) {
                session.checkNotKilled();
                int end = start + 1;
                while (end < order.length && partition.compare(rows[order[start]], rows[order[end]]) == 0) {
                    end++;
                }
                Partition part = new Partition(rows, order, start, end, ordering, frame);
                for (int c = 0; c < groupCalls.size(); c++) {
                    fill(groupCalls.get(c), part, slot + c);
                }
                start = end;
            }
            slot += groupCalls.size();
        }
        List<Object[]> output = new ArrayList<>(rows.length);
        for (Object[] row : rows) {
            Object[] out = Arrays.copyOf(row, width + calls);
            System.arraycopy(row, resultStart, out, width, calls);
            output.add(out);
        }
        return output;
    }

    private static void fill(AggregateCall call, Partition part, int slot) {
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        int start = part.start;
        int end = part.end;
        int size = end - start;
        switch (name) {
            case "ROW_NUMBER" -> {
                for (int i = start; i < end; i++) {
                    part.set(i, slot, (long) (i - start + 1));
                }
            }
            case "RANK", "DENSE_RANK", "PERCENT_RANK" -> {
                long rank = 0;
                long dense = 0;
                for (int i = start; i < end; i++) {
                    if (i == start || !part.peers(i - 1, i)) {
                        rank = i - start + 1;
                        dense++;
                    }
                    part.set(i, slot, switch (name) {
                        case "RANK" -> rank;
                        case "DENSE_RANK" -> dense;
                        default -> size == 1 ? 0.0 : (double) (rank - 1) / (size - 1);
                    });
                }
            }
            case "CUME_DIST" -> {
                for (int i = start; i < end; i++) {
                    part.set(i, slot, (double) (part.lastPeer(i) + 1 - start) / size);
                }
            }
            case "NTILE" -> {
                long buckets = positiveInteger(part.value(start, call.getArgList().get(0)), "ntile");
                // MySQL's buckets: size / n rows each, the first size % n of them one more.
                long small = size / buckets;
                long larger = size % buckets;
                for (int i = start; i < end; i++) {
                    long position = i - start;
                    long bucket = position < larger * (small + 1) ? position / (small + 1)
                            : larger + (position - larger * (small + 1)) / Math.max(1, small);
                    part.set(i, slot, bucket + 1);
                }
            }
            case "LAG", "LEAD" -> {
                List<Integer> arguments = call.getArgList();
                for (int i = start; i < end; i++) {
                    long offset = arguments.size() > 1 ? nonNegativeInteger(part.value(i, arguments.get(1)), name) : 1;
                    long target = name.equals("LAG") ? i - offset : i + offset;
                    part.set(i, slot, target >= start && target < end ? part.value((int) target, arguments.get(0))
                            : arguments.size() > 2 ? part.value(i, arguments.get(2)) : null);
                }
            }
            case "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE" -> {
                List<Integer> arguments = call.getArgList();
                for (int i = start; i < end; i++) {
                    int low = part.frameStart(i);
                    int high = part.frameEnd(i);
                    int target = switch (name) {
                        case "FIRST_VALUE" -> low;
                        case "LAST_VALUE" -> high - 1;
                        default -> {
                            long nth = positiveInteger(part.value(i, arguments.get(1)), "nth_value");
                            yield nth > high - low ? -1 : (int) (low + nth - 1);
                        }
                    };
                    part.set(i, slot, low < high && target >= low && target < high ? part.value(target, arguments.get(0))
                            : null);
                }
            }
            default -> aggregate(call, part, slot);
        }
    }

    /**
     * An aggregate over each row's frame. A frame from the partition's start only grows as the rows go forward, and
     * one to the partition's end only as they go back, so those are accumulated once; a frame bounded on both sides
     * is accumulated afresh per row (rows with the same frame share the result).
     */
    private static void aggregate(AggregateCall call, Partition part, int slot) {
        int start = part.start;
        int end = part.end;
        if (part.frame.lower.kind == BoundKind.UNBOUNDED_PRECEDING) {
            Accumulator accumulator = Accumulator.of(call);
            int added = start;
            for (int i = start; i < end; i++) {
                int high = part.frameEnd(i);
                for (; added < high; added++) {
                    accumulator.add(part.row(added));
                }
                part.set(i, slot, accumulator.result());
            }
        } else if (part.frame.upper.kind == BoundKind.UNBOUNDED_FOLLOWING) {
            Accumulator accumulator = Accumulator.of(call);
            int added = end;
            for (int i = end - 1; i >= start; i--) {
                int low = part.frameStart(i);
                for (; added > low; added--) {
                    accumulator.add(part.row(added - 1));
                }
                part.set(i, slot, accumulator.result());
            }
        } else {
            int previousLow = -1;
            int previousHigh = -1;
            Object previous = null;
            for (int i = start; i < end; i++) {
                int low = part.frameStart(i);
                int high = part.frameEnd(i);
                if (low != previousLow || high != previousHigh) {
                    Accumulator accumulator = Accumulator.of(call);
                    for (int j = low; j < high; j++) {
                        accumulator.add(part.row(j));
                    }
                    previous = accumulator.result();
                    previousLow = low;
                    previousHigh = high;
                }
                part.set(i, slot, previous);
            }
        }
    }

    private static long positiveInteger(Object value, String function) {
        long number = integer(value, function);
        if (number <= 0) {
            throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to " + function);
        }
        return number;
    }

    private static long nonNegativeInteger(Object value, String function) {
        long number = integer(value, function.toLowerCase(Locale.ROOT));
        if (number < 0) {
            throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to " + function.toLowerCase(Locale.ROOT));
        }
        return number;
    }

    private static long integer(Object value, String function) {
        if (value == null) {
            throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to " + function);
        }
        BigDecimal decimal = Values.toDecimal(value);
        try {
            return decimal.longValueExact();
        } catch (ArithmeticException e) {
            throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to " + function);
        }
    }

    private static Comparator<Object[]> keysComparator(List<Integer> keys, RelDataType inputType) {
        List<RelFieldCollation> collations = new ArrayList<>();
        for (int key : keys) {
            collations.add(new RelFieldCollation(key));
        }
        return PlanExecutor.comparator(collations, inputType);
    }

    private enum BoundKind {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /** One end of a frame; {@code offset} is a number of rows (ROWS) or a distance between order keys (RANGE). */
    private record Bound(BoundKind kind, BigDecimal offset) {
    }

    /**
     * A window group's frame: by rows, or by range (peers share a frame; offsets measured on the one ORDER BY key,
     * {@code orderKey}, ascending or not).
     */
    private record Frame(boolean rows, Bound lower, Bound upper, int orderKey, boolean descending) {
        static Frame of(Window.Group group, org.apache.calcite.rel.type.RelDataType inputType, Object[] sample) {
            Bound lower = bound(group.lowerBound, sample);
            Bound upper = bound(group.upperBound, sample);
            List<RelFieldCollation> collations = group.orderKeys.getFieldCollations();
            boolean offsets = lower.offset() != null || upper.offset() != null;
            if (!group.isRows && offsets && (collations.size() != 1 || !org.apache.calcite.sql.type.SqlTypeUtil.isNumeric(
                    inputType.getFieldList().get(collations.get(0).getFieldIndex()).getType()))) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET,
                        "a RANGE frame with an offset over other than one numeric ORDER BY key is not supported yet");
            }
            // Without ORDER BY every row is a peer of every other: the RANGE frame is the whole partition.
            boolean rows = group.isRows;
            if (!rows && collations.isEmpty()) {
                lower = new Bound(BoundKind.UNBOUNDED_PRECEDING, null);
                upper = new Bound(BoundKind.UNBOUNDED_FOLLOWING, null);
            }
            int orderKey = collations.size() == 1 ? collations.get(0).getFieldIndex() : -1;
            boolean descending = collations.size() == 1 && collations.get(0).getDirection().isDescending();
            return new Frame(rows, lower, upper, orderKey, descending);
        }

        private static Bound bound(RexWindowBound bound, Object[] sample) {
            if (bound.isUnboundedPreceding()) {
                return new Bound(BoundKind.UNBOUNDED_PRECEDING, null);
            }
            if (bound.isUnboundedFollowing()) {
                return new Bound(BoundKind.UNBOUNDED_FOLLOWING, null);
            }
            if (bound.isCurrentRow()) {
                return new Bound(BoundKind.CURRENT_ROW, null);
            }
            RexNode offset = bound.getOffset();
            if (!org.apache.calcite.sql.type.SqlTypeUtil.isNumeric(offset.getType())) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "window frame offset " + offset
                        + " is not supported yet");
            }
            Object value = offset instanceof RexLiteral literal ? ExpressionCompiler.literalValue(literal)
                    : offset instanceof RexInputRef reference && sample != null ? sample[reference.getIndex()] : null;
            if (value == null && sample != null) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "window frame offset " + offset
                        + " is not supported yet");
            }
            BigDecimal distance = value == null ? BigDecimal.ZERO : Values.toDecimal(value);
            if (distance.signum() < 0) {
                throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Window frame offsets must not be negative");
            }
            return new Bound(bound.isPreceding() ? BoundKind.PRECEDING : BoundKind.FOLLOWING, distance);
        }
    }

    /** One partition's rows in window order: positions {@code start} to {@code end} of {@code order}. */
    private static final class Partition {
        private final Object[][] rows;
        private final Integer[] order;
        private final int start;
        private final int end;
        private final Comparator<Object[]> ordering;
        private final Frame frame;

        /** For each position (from {@code start}), the first and the one after the last position of its peers. */
        private final int[] peerStart;
        private final int[] peerEnd;

        Partition(Object[][] rows, Integer[] order, int start, int end, Comparator<Object[]> ordering, Frame frame) {
            this.rows = rows;
            this.order = order;
            this.start = start;
            this.end = end;
            this.ordering = ordering;
            this.frame = frame;
            this.peerStart = new int[end - start];
            this.peerEnd = new int[end - start];
            int groupStart = start;
            for (int position = start; position < end; position++) {
                if (position > start && ordering.compare(row(position - 1), row(position)) != 0) {
                    java.util.Arrays.fill(peerEnd, groupStart - start, position - start, position);
                    groupStart = position;
                }
                peerStart[position - start] = groupStart;
            }
            java.util.Arrays.fill(peerEnd, groupStart - start, end - start, end);
        }

        Object[] row(int position) {
            return rows[order[position]];
        }

        Object value(int position, int column) {
            return rows[order[position]][column];
        }

        void set(int position, int slot, Object value) {
            rows[order[position]][slot] = value;
        }

        boolean peers(int a, int b) {
            return peerStart[a - start] == peerStart[b - start];
        }

        int firstPeer(int position) {
            return peerStart[position - start];
        }

        int lastPeer(int position) {
            return peerEnd[position - start] - 1;
        }

        /** The first position of the row's frame. */
        int frameStart(int position) {
            return bound(frame.lower, position, true);
        }

        /** The position after the row's frame (at most the start, for an empty frame). */
        int frameEnd(int position) {
            return Math.max(frameStart(position), bound(frame.upper, position, false));
        }

        /** Where a frame bound falls for the row: its first position (lower) or the one after its last (upper). */
        private int bound(Bound bound, int position, boolean lower) {
            switch (bound.kind()) {
                case UNBOUNDED_PRECEDING -> {
                    return start;
                }
                case UNBOUNDED_FOLLOWING -> {
                    return end;
                }
                case CURRENT_ROW -> {
                    if (frame.rows()) {
                        return lower ? position : position + 1;
                    }
                    return lower ? firstPeer(position) : lastPeer(position) + 1;
                }
                default -> {
                    boolean preceding = bound.kind() == BoundKind.PRECEDING;
                    if (frame.rows()) {
                        long rows = bound.offset().longValue();
                        long target = preceding ? position - rows : position + rows;
                        long edge = lower ? target : target + 1;
                        return (int) Math.max(start, Math.min(end, edge));
                    }
                    return rangeBound(bound.offset(), preceding, position, lower);
                }
            }
        }

        /**
         * A RANGE offset: the rows whose key is within the distance of the row's key, before it or after it in window
         * order. A row with a NULL key has its NULL peers as its frame; NULL keys are outside other rows' frames.
         */
        private int rangeBound(BigDecimal distance, boolean preceding, int position, boolean lower) {
            Object key = value(position, frame.orderKey());
            if (key == null) {
                return lower ? firstPeer(position) : lastPeer(position) + 1;
            }
            BigDecimal here = Values.toDecimal(key);
            // Along window order, keys grow (ascending) or shrink (descending): "before" means smaller or larger.
            BigDecimal step = preceding ^ frame.descending() ? distance.negate() : distance;
            BigDecimal limit = here.add(step);
            // Keys are in window order, so both tests hold for a prefix of the partition: found by bisection.
            return lower ? firstWhere(other -> !beforeLimit(other, limit))
                    : firstWhere(other -> beyondLimit(other, limit));
        }

        /** The first position from which the test holds, given that it holds from some position to the end. */
        private int firstWhere(java.util.function.IntPredicate test) {
            int low = start;
            int high = end;
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (test.test(middle)) {
                    high = middle;
                } else {
                    low = middle + 1;
                }
            }
            return low;
        }

        /** Whether the row comes before the limit in window order (NULL keys come first ascending, last descending). */
        private boolean beforeLimit(int position, BigDecimal limit) {
            Object key = value(position, frame.orderKey());
            if (key == null) {
                return !frame.descending();
            }
            int compared = Values.toDecimal(key).compareTo(limit);
            return frame.descending() ? compared > 0 : compared < 0;
        }

        /** Whether the row comes after the limit in window order. */
        private boolean beyondLimit(int position, BigDecimal limit) {
            Object key = value(position, frame.orderKey());
            if (key == null) {
                return frame.descending();
            }
            int compared = Values.toDecimal(key).compareTo(limit);
            return frame.descending() ? compared < 0 : compared > 0;
        }
    }
}
