package io.duetdb.testing.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Operations on one register by concurrent clients, recorded with their invocation and completion times, and
 * a linearizability check (Wing and Gong's search with Lowe's memoisation). A write whose outcome is unknown
 * (timeout, connection lost) may or may not have taken effect and may take effect any time after it began.
 */
public final class RegisterHistory {
    public enum Kind {
        READ,
        WRITE
    }

    /**
     * One operation. {@code value} is what a write wrote or a read returned (null: absent); {@code completed}
     * is false for a write whose outcome is unknown.
     */
    public record Operation(int client, Kind kind, String value, long invokeNanos, long completeNanos, boolean completed) {
    }

    private final List<Operation> operations = new ArrayList<>();

    public synchronized void add(Operation operation) {
        operations.add(operation);
    }

    public synchronized List<Operation> operations() {
        return List.copyOf(operations);
    }

    /** Whether some order of the operations, consistent with real time, explains every read. */
    public boolean isLinearizable(String initialValue) {
        return new Checker(operations(), initialValue).check();
    }

    private static final class Entry {
        final Operation operation;
        final int id;
        final boolean call;
        Entry match;
        Entry previous;
        Entry next;

        Entry(Operation operation, int id, boolean call) {
            this.operation = operation;
            this.id = id;
            this.call = call;
        }
    }

    private static final class Checker {
        private final List<Operation> operations;
        private final String initial;

        Checker(List<Operation> operations, String initial) {
            this.operations = operations;
            this.initial = initial;
        }

        boolean check() {
            List<Operation> relevant = new ArrayList<>();
            for (Operation operation : operations) {
                if (operation.completed() || operation.kind() == Kind.WRITE) {
                    relevant.add(operation);
                }
            }
            List<Entry> events = new ArrayList<>();
            for (int i = 0; i < relevant.size(); i++) {
                Operation operation = relevant.get(i);
                Entry call = new Entry(operation, i, true);
                Entry ret = new Entry(operation, i, false);
                call.match = ret;
                ret.match = call;
                events.add(call);
                if (operation.completed()) {
                    events.add(ret);
                }
            }
            events.sort((a, b) -> {
                long ta = a.call ? a.operation.invokeNanos() : a.operation.completeNanos();
                long tb = b.call ? b.operation.invokeNanos() : b.operation.completeNanos();
                if (ta != tb) {
                    return Long.compare(ta, tb);
                }
                return Boolean.compare(!a.call, !b.call);
            });
            Entry head = new Entry(null, -1, false);
            Entry tail = head;
            for (Entry event : events) {
                tail.next = event;
                event.previous = tail;
                tail = event;
            }
            java.util.BitSet linearized = new java.util.BitSet(relevant.size());
            java.util.Set<String> cache = new java.util.HashSet<>();
            java.util.ArrayDeque<Object[]> stack = new java.util.ArrayDeque<>();
            String state = initial;
            Entry entry = head.next;
            while (true) {
                if (onlyUnknownCallsLeft(head)) {
                    return true;
                }
                if (entry == null) {
                    // Nothing more can be linearized from here: backtrack.
                    if (stack.isEmpty()) {
                        return false;
                    }
                    Object[] top = stack.pop();
                    Entry undone = (Entry) top[0];
                    state = (String) top[1];
                    linearized.clear(undone.id);
                    unlift(undone);
                    entry = undone.next;
                    continue;
                }
                if (entry.call) {
                    Operation operation = entry.operation;
                    boolean applies = operation.kind() == Kind.WRITE || Objects.equals(operation.value(), state);
                    String next = operation.kind() == Kind.WRITE ? operation.value() : state;
                    if (applies) {
                        linearized.set(entry.id);
                        String key = linearized + "|" + next;
                        if (cache.add(key)) {
                            stack.push(new Object[] {entry, state});
                            state = next;
                            lift(entry);
                            entry = head.next;
                            continue;
                        }
                        linearized.clear(entry.id);
                    }
                    entry = entry.next;
                } else {
                    // A completed operation's return: everything before it must have been linearized.
                    if (stack.isEmpty()) {
                        return false;
                    }
                    Object[] top = stack.pop();
                    Entry undone = (Entry) top[0];
                    state = (String) top[1];
                    linearized.clear(undone.id);
                    unlift(undone);
                    entry = undone.next;
                }
            }
        }

        private static boolean onlyUnknownCallsLeft(Entry head) {
            for (Entry e = head.next; e != null; e = e.next) {
                if (!e.call || e.operation.completed()) {
                    return false;
                }
            }
            return true;
        }

        private static void lift(Entry call) {
            call.previous.next = call.next;
            if (call.next != null) {
                call.next.previous = call.previous;
            }
            Entry ret = call.match;
            if (ret.previous != null && (ret.previous.next == ret)) {
                ret.previous.next = ret.next;
                if (ret.next != null) {
                    ret.next.previous = ret.previous;
                }
            }
        }

        private static void unlift(Entry call) {
            Entry ret = call.match;
            if (ret.previous != null && ret.previous.next != ret && call.operation.completed()) {
                ret.previous.next = ret;
                if (ret.next != null) {
                    ret.next.previous = ret;
                }
            }
            call.previous.next = call;
            if (call.next != null) {
                call.next.previous = call;
            }
        }
    }
}
