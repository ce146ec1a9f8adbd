package io.duetdb.compute.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.ColumnReference;
import io.duetdb.proto.coprocessor.AggregateFunction;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/** Window functions over batches against a direct computation over each row's partition. */
class WindowOperatorTest {
    private static final FieldType INT64 = ValueTypes.of(ValueType.INT64);
    private static final FieldType STRING = ValueTypes.of(ValueType.STRING);
    private static final FieldType SUM_TYPE = ValueTypes.decimal(38, 0);
    /** A partition key, an order key with ties, an argument, the row number. */
    private static final List<FieldType> TYPES = List.of(STRING, INT64, INT64, INT64);

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(3);

    @AfterEach
    void close() {
        allocator.close();
    }

    private List<Object[]> rows(int count) {
        String[] partitions = {"a", "b", "c", "é"};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {random.nextInt(9) == 0 ? null : partitions[random.nextInt(partitions.length)],
                random.nextInt(7) == 0 ? null : (long) random.nextInt(20),
                random.nextInt(5) == 0 ? null : (long) random.nextInt(1_000) - 500, (long) i});
        }
        return rows;
    }

    private static List<WindowOperator.Function> functions() {
        List<WindowOperator.Function> functions = new ArrayList<>();
        for (WindowOperator.Ranking ranking : WindowOperator.Ranking.values()) {
            functions.add(new WindowOperator.Function(ranking, null));
        }
        ColumnReference argument = new ColumnReference(2, INT64);
        functions.add(aggregate(AggregateFunction.COUNT, null, INT64));
        functions.add(aggregate(AggregateFunction.COUNT, argument, INT64));
        functions.add(aggregate(AggregateFunction.SUM, argument, SUM_TYPE));
        functions.add(aggregate(AggregateFunction.MIN, argument, INT64));
        functions.add(aggregate(AggregateFunction.MAX, argument, INT64));
        return functions;
    }

    private static WindowOperator.Function aggregate(AggregateFunction function, ColumnReference argument,
            FieldType type) {
        return new WindowOperator.Function(null, new PartialAggregationOperator.Call(function, argument, type));
    }

    @Test
    void everyFunctionOverEveryFrameMatchesADirectComputation() {
        List<Object[]> rows = rows(3_000);
        for (WindowOperator.Frame frame : WindowOperator.Frame.values()) {
            for (boolean descending : new boolean[] {false, true}) {
                WindowOperator.Group group = new WindowOperator.Group(List.of(0),
                        List.of(new SortOperator.Key(1, descending)), frame, functions());
                // A second group over the whole input, unordered: one partition.
                WindowOperator.Group whole = new WindowOperator.Group(List.of(), List.of(), WindowOperator.Frame.PARTITION,
                        List.of(aggregate(AggregateFunction.SUM, new ColumnReference(2, INT64), SUM_TYPE)));
                List<Object[]> actual = new ArrayList<>();
                AtomicLong held = new AtomicLong();
                try (WindowOperator window = new WindowOperator(RowListOperator.of(TYPES, rows, 500, allocator),
                        List.of(group, whole), allocator, 700, held::addAndGet)) {
                    for (VectorSchemaRoot batch = window.next(); batch != null; batch = window.next()) {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            actual.add(Batches.row(batch, row));
                        }
                    }
                }
                assertThat(held).hasValue(0);
                assertThat(actual).hasSize(rows.size());
                BigDecimal total = rows.stream().map(row -> (Long) row[2]).filter(Objects::nonNull)
                        .map(BigDecimal::valueOf).reduce(BigDecimal.ZERO, BigDecimal::add);
                for (int i = 0; i < rows.size(); i++) {
                    Object[] row = actual.get(i);
                    assertThat(Arrays.asList(row).subList(0, 4)).isEqualTo(Arrays.asList(rows.get(i)));
                    List<Object> expected = new ArrayList<>(expected(rows, i, frame, descending));
                    expected.add(total);
                    assertThat(Arrays.asList(row).subList(4, row.length)).as("row %d, %s, descending %s", i, frame,
                            descending).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void noInputGivesNoRows() {
        WindowOperator.Group group = new WindowOperator.Group(List.of(0), List.of(new SortOperator.Key(1, false)),
                WindowOperator.Frame.RUNNING_RANGE, functions());
        try (WindowOperator window = new WindowOperator(RowListOperator.of(TYPES, List.of(), 500, allocator),
                List.of(group), allocator, 700, bytes -> { })) {
            assertThat(window.next()).isNull();
            assertThat(window.outputTypes()).hasSize(TYPES.size() + functions().size());
        }
    }

    /** The functions' values for row {@code index}: over its partition, sorted stably by the order key. */
    private static List<Object> expected(List<Object[]> rows, int index, WindowOperator.Frame frame, boolean descending) {
        Object[] current = rows.get(index);
        Comparator<Long> keyOrder = Comparator.nullsFirst(Comparator.<Long>naturalOrder());
        Comparator<Object[]> order = (a, b) -> keyOrder.compare((Long) a[1], (Long) b[1]);
        if (descending) {
            order = order.reversed();
        }
        List<Object[]> partition = new ArrayList<>(rows.stream().filter(row -> Objects.equals(row[0], current[0]))
                .toList());
        partition.sort(order);
        int position = partition.indexOf(current);
        Comparator<Object[]> finalOrder = order;
        List<Object[]> frameRows = switch (frame) {
            case PARTITION -> partition;
            case RUNNING_ROWS -> partition.subList(0, position + 1);
            case RUNNING_RANGE -> partition.stream().filter(row -> finalOrder.compare(row, current) <= 0).toList();
        };
        long rank = 1 + partition.stream().filter(row -> finalOrder.compare(row, current) < 0).count();
        long denseRank = 1 + partition.stream().filter(row -> finalOrder.compare(row, current) < 0)
                .map(row -> Objects.toString(row[1])).distinct().count();
        List<Long> arguments = frameRows.stream().map(row -> (Long) row[2]).filter(Objects::nonNull).toList();
        List<Object> values = new ArrayList<>();
        values.add((long) position + 1);
        values.add(rank);
        values.add(denseRank);
        values.add((long) frameRows.size());
        values.add((long) arguments.size());
        values.add(arguments.isEmpty() ? null
                : arguments.stream().map(BigDecimal::valueOf).reduce(BigDecimal.ZERO, BigDecimal::add));
        values.add(arguments.stream().min(Long::compare).orElse(null));
        values.add(arguments.stream().max(Long::compare).orElse(null));
        return values;
    }
}
