package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.ValueOrdering;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Window functions over the whole input, for the common frames: the whole partition, and the running frame from
 * the partition's first row to the current row (with its peers, rows of equal order keys, under RANGE; alone under
 * ROWS). Functions are the rankings and the partial aggregates (COUNT, SUM, MIN, MAX; an AVG is a SUM and a COUNT
 * that the caller divides). The input is appended into one batch; each group of functions sorts a permutation of
 * its rows by partition and order keys and finds where partitions and peers change by comparing neighbours. The
 * output is the input's rows, in input order, with one column per function after the input's columns.
 */
public final class WindowOperator implements BatchOperator {
    public enum Frame {
        PARTITION,
        RUNNING_RANGE,
        RUNNING_ROWS
    }

    public enum Ranking {
        ROW_NUMBER,
        RANK,
        DENSE_RANK
    }

    /** A ranking or a partial aggregate: exactly one of them. */
    public record Function(Ranking ranking, PartialAggregationOperator.Call aggregate) {
        public Function {
            if ((ranking == null) == (aggregate == null)) {
                throw new IllegalArgumentException("a window function is a ranking or an aggregate");
            }
        }

        FieldType type() {
            return ranking != null ? ValueTypes.of(ValueType.INT64) : aggregate.type();
        }
    }

    /** Functions over the same window: partitioned by columns, ordered by keys, over a frame. */
    public record Group(List<Integer> partition, List<SortOperator.Key> order, Frame frame, List<Function> functions) {
        public Group {
            partition = List.copyOf(partition);
            order = List.copyOf(order);
            requireNonNull(frame, "frame is null");
            functions = List.copyOf(functions);
        }
    }

    private final BatchOperator input;
    private final List<Group> groups;
    private final BufferAllocator allocator;
    private final List<FieldType> types;
    private final HeldRows held;

    public WindowOperator(BatchOperator input, List<Group> groups, BufferAllocator allocator, int batchRows,
            LongConsumer memory) {
        this.input = requireNonNull(input, "input is null");
        this.groups = List.copyOf(groups);
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<FieldType> outputTypes = new ArrayList<>(input.outputTypes());
        for (Group group : this.groups) {
            group.functions().forEach(function -> outputTypes.add(function.type()));
        }
        this.types = List.copyOf(outputTypes);
        this.held = new HeldRows(types, allocator, batchRows, memory);
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        if (!held.givingOut()) {
            compute();
        }
        return held.next();
    }

    private void compute() {
        VectorSchemaRoot rows;
        try (AppendedBatch appended = new AppendedBatch(input.outputTypes(), allocator)) {
            for (VectorSchemaRoot batch = input.next(); batch != null; batch = input.next()) {
                appended.append(batch);
                held.count(appended.bytes());
            }
            rows = appended.take();
        }
        List<FieldVector> vectors = new ArrayList<>(rows.getFieldVectors());
        // The input's vectors move to the result; only the root that held them is closed.
        try {
            for (Group group : groups) {
                vectors.addAll(compute(rows, group));
                held.count(vectors.stream().mapToLong(FieldVector::getBufferSize).sum());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot computed = new VectorSchemaRoot(vectors);
        computed.setRowCount(rows.getRowCount());
        held.giveOut(computed, null, 0, computed.getRowCount());
    }

    private List<FieldVector> compute(VectorSchemaRoot rows, Group group) {
        int count = rows.getRowCount();
        List<SortOperator.Key> partitionKeys = new ArrayList<>();
        group.partition().forEach(column -> partitionKeys.add(new SortOperator.Key(column, false)));
        List<SortOperator.Key> keys = new ArrayList<>(partitionKeys);
        keys.addAll(group.order());
        int[] order = RowOrder.sorted(rows, keys);
        // partitionOf and peersOf: numbers that grow along the sorted rows, new at each change.
        int[] partitionOf = new int[count];
        int[] peersOf = new int[count];
        RowOrder.Comparison partitions = RowOrder.comparison(rows, partitionKeys);
        RowOrder.Comparison peers = RowOrder.comparison(rows, group.order());
        for (int i = 1; i < count; i++) {
            boolean newPartition = partitions.compare(order[i - 1], order[i]) != 0;
            partitionOf[i] = partitionOf[i - 1] + (newPartition ? 1 : 0);
            boolean newPeers = newPartition || peers.compare(order[i - 1], order[i]) != 0;
            peersOf[i] = peersOf[i - 1] + (newPeers ? 1 : 0);
        }
        List<FieldVector> results = new ArrayList<>(group.functions().size());
        try {
            for (Function function : group.functions()) {
                results.add(function.ranking() != null ? ranking(function.ranking(), order, partitionOf, peersOf)
                        : aggregate(rows, function.aggregate(), group.frame(), order, partitionOf, peersOf));
            }
            return results;
        } catch (RuntimeException e) {
            results.forEach(FieldVector::close);
            throw e;
        }
    }

    private FieldVector ranking(Ranking ranking, int[] order, int[] partitionOf, int[] peersOf) {
        int count = order.length;
        BigIntVector vector = new BigIntVector("rank", allocator);
        vector.allocateNew(count);
        long rowNumber = 0;
        long rank = 0;
        long denseRank = 0;
        for (int i = 0; i < count; i++) {
            boolean partitionStart = i == 0 || partitionOf[i] != partitionOf[i - 1];
            rowNumber = partitionStart ? 1 : rowNumber + 1;
            if (partitionStart || peersOf[i] != peersOf[i - 1]) {
                rank = rowNumber;
                denseRank = partitionStart ? 1 : denseRank + 1;
            }
            vector.set(order[i], switch (ranking) {
                case ROW_NUMBER -> rowNumber;
                case RANK -> rank;
                case DENSE_RANK -> denseRank;
            });
        }
        vector.setValueCount(count);
        return vector;
    }

    private FieldVector aggregate(VectorSchemaRoot rows, PartialAggregationOperator.Call call, Frame frame,
            int[] order, int[] partitionOf, int[] peersOf) {
        int count = order.length;
        boolean whole = frame == Frame.PARTITION;
        // Each input row's group: its partition for the whole partition, its peers for a running range, itself
        // for running rows (rankings still see peers).
        int[] groupOfRow = new int[count];
        for (int i = 0; i < count; i++) {
            groupOfRow[order[i]] = whole ? partitionOf[i] : frame == Frame.RUNNING_ROWS ? i : peersOf[i];
        }
        int groupCount = count == 0 ? 0 : groupOfRow[order[count - 1]] + 1;
        Accumulator accumulator = Accumulator.of(call);
        accumulator.ensureGroups(groupCount);
        FieldVector argument = call.argument() == null ? null : call.argument().evaluate(rows, allocator);
        try {
            accumulator.add(argument, groupOfRow, count);
        } finally {
            if (argument != null) {
                argument.close();
            }
        }
        Object[] values = new Object[groupCount];
        Object running = null;
        for (int i = 0; i < count; i++) {
            int group = groupOfRow[order[i]];
            if (i > 0 && group == groupOfRow[order[i - 1]]) {
                continue;
            }
            if (whole) {
                values[group] = accumulator.result(group);
            } else {
                boolean partitionStart = i == 0 || partitionOf[i] != partitionOf[i - 1];
                running = combine(call, partitionStart ? null : running, accumulator.result(group));
                values[group] = running;
            }
        }
        FieldVector vector = ValueTypes.newVector("window", call.type(), allocator);
        try {
            vector.allocateNew();
            for (int row = 0; row < count; row++) {
                VectorValues.set(vector, row, values[groupOfRow[row]]);
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /** The partial result of the rows of both: NULL (nothing summed, no extreme) is the identity. */
    private static Object combine(PartialAggregationOperator.Call call, Object before, Object value) {
        if (before == null) {
            return value;
        }
        if (value == null) {
            return before;
        }
        ValueType type = call.type().getType();
        return switch (call.function()) {
            case COUNT -> (Long) before + (Long) value;
            case SUM -> type == ValueType.FLOAT64 ? (Object) ((Double) before + (Double) value)
                    : ((BigDecimal) before).add((BigDecimal) value);
            case MIN -> ValueOrdering.compare(value, before, type) < 0 ? value : before;
            case MAX -> ValueOrdering.compare(value, before, type) > 0 ? value : before;
            default -> throw new IllegalStateException("no window aggregate " + call.function());
        };
    }

    @Override
    public void close() {
        try {
            held.close();
        } finally {
            input.close();
        }
    }
}
