package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexLiteral;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Window functions over materialized rows, for the common frames: the whole partition (no ORDER BY, or UNBOUNDED
 * PRECEDING to UNBOUNDED FOLLOWING) and the running frame (UNBOUNDED PRECEDING to CURRENT ROW, where RANGE lets
 * rows with equal order keys share a value and ROWS does not). ROW_NUMBER, RANK, DENSE_RANK and the aggregates
 * the executor has. Output rows are the input's, in input order, with one column per window call.
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
            Comparator<Object[]> partition = keysComparator(group.keys.asList());
            Comparator<Object[]> ordering = PlanExecutor.comparator(group.orderKeys.getFieldCollations());
            Arrays.sort(order, (a, b) -> {
                int result = partition.compare(rows[a], rows[b]);
                return result != 0 ? result : ordering.compare(rows[a], rows[b]);
            });
            boolean whole = group.orderKeys.getFieldCollations().isEmpty()
                    || group.lowerBound.isUnboundedPreceding() && group.upperBound.isUnboundedFollowing();
            boolean running = group.lowerBound.isUnboundedPreceding() && group.upperBound.isCurrentRow();
            int start = 0;
            while (start < order.length) {
                session.checkNotKilled();
                int end = start + 1;
                while (end < order.length && partition.compare(rows[order[start]], rows[order[end]]) == 0) {
                    end++;
                }
                for (int c = 0; c < groupCalls.size(); c++) {
                    fill(groupCalls.get(c), rows, order, start, end, slot + c, ordering, whole, running, group.isRows);
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

    private static void fill(AggregateCall call, Object[][] rows, Integer[] order, int start, int end, int slot,
            Comparator<Object[]> ordering, boolean whole, boolean running, boolean byRows) {
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        switch (name) {
            case "ROW_NUMBER" -> {
                for (int i = start; i < end; i++) {
                    rows[order[i]][slot] = (long) (i - start + 1);
                }
            }
            case "RANK", "DENSE_RANK" -> {
                long rank = 0;
                long dense = 0;
                for (int i = start; i < end; i++) {
                    if (i == start || ordering.compare(rows[order[i - 1]], rows[order[i]]) != 0) {
                        rank = i - start + 1;
                        dense++;
                    }
                    rows[order[i]][slot] = name.equals("RANK") ? rank : dense;
                }
            }
            default -> {
                if (whole) {
                    Accumulator accumulator = Accumulator.of(call);
                    for (int i = start; i < end; i++) {
                        accumulator.add(rows[order[i]]);
                    }
                    Object result = accumulator.result();
                    for (int i = start; i < end; i++) {
                        rows[order[i]][slot] = result;
                    }
                } else if (running) {
                    Accumulator accumulator = Accumulator.of(call);
                    int i = start;
                    while (i < end) {
                        int peersEnd = i + 1;
                        if (!byRows) {
                            while (peersEnd < end && ordering.compare(rows[order[i]], rows[order[peersEnd]]) == 0) {
                                peersEnd++;
                            }
                        }
                        for (int j = i; j < peersEnd; j++) {
                            accumulator.add(rows[order[j]]);
                        }
                        Object result = accumulator.result();
                        for (int j = i; j < peersEnd; j++) {
                            rows[order[j]][slot] = result;
                        }
                        i = peersEnd;
                    }
                } else {
                    throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "window frames other than the whole partition"
                            + " or UNBOUNDED PRECEDING to CURRENT ROW are not supported yet");
                }
            }
        }
    }

    private static Comparator<Object[]> keysComparator(List<Integer> keys) {
        List<RelFieldCollation> collations = new ArrayList<>();
        for (int key : keys) {
            collations.add(new RelFieldCollation(key));
        }
        return PlanExecutor.comparator(collations);
    }
}
