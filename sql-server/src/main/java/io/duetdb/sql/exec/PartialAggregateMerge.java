package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.calcite.rel.core.AggregateCall;

import io.duetdb.compute.operator.HashAggregation;
import io.duetdb.compute.operator.OrderedGroups;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * The final phase of an aggregation whose partial phase ran in the stores: the regions' partial groups merged into
 * the aggregation's rows, hashed when they arrive in any order, streamed when they arrive in group order (a streamed
 * partial aggregation's, regions in key order).
 */
final class PartialAggregateMerge {
    private static final int MEMORY_CHECK_INTERVAL = 16_384;

    private final List<AggregateCall> calls;
    private final int keyCount;
    private final List<int[]> slots;
    /** The statement's memory: a hashed merge's groups count against it. */
    private final MemoryTracker memory;
    private final SessionFunctions session;

    PartialAggregateMerge(List<AggregateCall> calls, int keyCount, List<int[]> slots, MemoryTracker memory,
            SessionFunctions session) {
        this.calls = List.copyOf(calls);
        this.keyCount = keyCount;
        this.slots = List.copyOf(slots);
        this.memory = requireNonNull(memory, "memory is null");
        this.session = requireNonNull(session, "session is null");
    }

    /**
     * The final merge of the regions' partial groups, over the Arrow batches they arrive in: the partial columns are
     * aggregated again by the group keys (counts and sums add up, minimums and maximums stay) with the stores' own
     * hash aggregation, and only the merged groups become rows.
     */
    List<Object[]> hashed(CoprocessorAnswers partials) {
        List<FieldType> types = partials.types();
        List<String> functions = new ArrayList<>();
        HashAggregation groups = new HashAggregation(
                PartialAggregates.keyColumns(types, keyCount), PartialAggregates.mergeCalls(calls, slots, types, keyCount, functions));
        long held = 0;
        long nextCheck = MEMORY_CHECK_INTERVAL;
        List<Object[]> merged;
        try (partials; BufferAllocator allocator = new RootAllocator()) {
            while (partials.nextBatches(allocator, batch -> groups.add(batch, allocator))) {
                if (groups.groupCount() >= nextCheck) {
                    // The groups are the merge's state: counted as they grow, given back once it is done.
                    long now = groups.estimatedBytes();
                    memory.take(now - held, "HashAgg(final)");
                    held = now;
                    nextCheck = groups.groupCount() + MEMORY_CHECK_INTERVAL;
                }
            }
            merged = groups.results();
        } finally {
            memory.release(held);
        }
        List<Object[]> rows = new ArrayList<>(merged.size());
        for (Object[] group : merged) {
            rows.add(PartialAggregates.finished(calls, slots, keyCount, PartialAggregates.state(group, keyCount, functions, types)));
        }
        return rows;
    }

    /**
     * The final merge of partial groups that arrive in group order, over their batches: each batch's groups are
     * merged by comparing neighbouring keys' bytes, and only a group cut by a batch boundary is combined as values.
     * One group is held.
     */
    RowStream orderedBatches(CoprocessorAnswers partials) {
        List<FieldType> types = partials.types();
        List<String> functions = new ArrayList<>();
        var merges = PartialAggregates.mergeCalls(calls, slots, types, keyCount, functions);
        BufferAllocator allocator = new RootAllocator();
        OrderedGroups groups = new OrderedGroups(
                PartialAggregates.keyColumns(types, keyCount), merges, allocator);
        return new RowStream() {
            private Object[] pending;
            private boolean ended;

            @Override
            public List<Object[]> next() {
                List<Object[]> finished = new ArrayList<>();
                while (finished.isEmpty() && !ended) {
                    ended = !partials.nextBatches(allocator, batch -> {
                        List<Object[]> merged = groups.of(batch);
                        for (int g = 0; g < merged.size(); g++) {
                            Object[] state = PartialAggregates.state(merged.get(g), keyCount, functions, types);
                            // Within a batch neighbouring groups differ; only the first may continue the last one.
                            if (g == 0 && pending != null && new GroupKey(Arrays.copyOf(pending, keyCount))
                                    .equals(new GroupKey(Arrays.copyOf(state, keyCount)))) {
                                for (int i = keyCount; i < state.length; i++) {
                                    pending[i] = PartialAggregates.combine(pending[i], state[i], functions.get(i - keyCount));
                                }
                                continue;
                            }
                            if (pending != null) {
                                finished.add(PartialAggregates.finished(calls, slots, keyCount, pending));
                            }
                            pending = state;
                        }
                    });
                    if (ended && pending != null) {
                        finished.add(PartialAggregates.finished(calls, slots, keyCount, pending));
                        pending = null;
                    }
                }
                return finished.isEmpty() ? null : finished;
            }

            @Override
            public void close() {
                try {
                    partials.close();
                } finally {
                    allocator.close();
                }
            }
        };
    }

    /**
     * The final merge of partial groups that arrive in group order (a streamed aggregation's, regions in key
     * order): a group is finished when the next partial row has another key, so only one group is held.
     */
    RowStream orderedRows(RowStream partials) {
        return new RowStream() {
            private Object[] state;
            private GroupKey stateKey;
            private String[] functions;
            private boolean ended;

            @Override
            public List<Object[]> next() {
                List<Object[]> finished = new ArrayList<>();
                while (finished.isEmpty() && !ended) {
                    List<Object[]> batch = partials.next();
                    session.checkNotKilled();
                    if (batch == null) {
                        ended = true;
                        if (state != null) {
                            finished.add(PartialAggregates.finished(calls, slots, keyCount, state));
                            state = null;
                        }
                        break;
                    }
                    for (Object[] partial : batch) {
                        if (functions == null) {
                            functions = new String[partial.length];
                            for (int i = keyCount; i < partial.length; i++) {
                                functions[i] = PartialAggregates.partialFunction(calls, slots, i);
                            }
                        }
                        GroupKey key = new GroupKey(Arrays.copyOf(partial, keyCount));
                        if (state == null || !key.equals(stateKey)) {
                            if (state != null) {
                                finished.add(PartialAggregates.finished(calls, slots, keyCount, state));
                            }
                            state = new Object[partial.length];
                            System.arraycopy(partial, 0, state, 0, keyCount);
                            stateKey = key;
                        }
                        for (int i = keyCount; i < partial.length; i++) {
                            state[i] = PartialAggregates.combine(state[i], partial[i], functions[i]);
                        }
                    }
                }
                return finished.isEmpty() ? null : finished;
            }

            @Override
            public void close() {
                partials.close();
            }
        };
    }
}
