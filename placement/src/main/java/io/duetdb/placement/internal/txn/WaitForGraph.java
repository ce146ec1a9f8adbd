package io.duetdb.placement.internal.txn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which transaction waits for which, across all stores, so that a wait closing a cycle is refused (the
 * waiter gets MySQL's deadlock error and rolls back). Kept in memory by the placement leader only: after a
 * leader change waits re-register as they happen, and a lost edge only delays detection until the lock
 * wait times out. Edges older than {@code maxAgeNanos} are dropped so that a store that died while
 * waiting leaves nothing behind.
 */
public final class WaitForGraph {
    private record Edge(long holder, long keyHash, long sinceNanos) {
    }

    private final Map<Long, List<Edge>> waitsFor = new HashMap<>();
    private final long maxAgeNanos;

    public WaitForGraph(long maxAgeNanos) {
        this.maxAgeNanos = maxAgeNanos;
    }

    /** Adds the edge unless it closes a cycle; returns the cycle (waiter first) or an empty list. */
    public synchronized List<Long> detect(long waiter, long holder, long keyHash, long nowNanos) {
        expire(nowNanos);
        List<Long> path = pathFrom(holder, waiter);
        if (!path.isEmpty()) {
            List<Long> cycle = new ArrayList<>();
            cycle.add(waiter);
            cycle.addAll(path);
            return cycle;
        }
        List<Edge> edges = waitsFor.computeIfAbsent(waiter, w -> new ArrayList<>());
        edges.removeIf(edge -> edge.holder() == holder);
        edges.add(new Edge(holder, keyHash, nowNanos));
        return List.of();
    }

    /** Removes the waiter's edge to the holder, or all its edges when the holder is 0. */
    public synchronized void cleanUp(long waiter, long holder) {
        List<Edge> edges = waitsFor.get(waiter);
        if (edges == null) {
            return;
        }
        edges.removeIf(edge -> holder == 0 || edge.holder() == holder);
        if (edges.isEmpty()) {
            waitsFor.remove(waiter);
        }
    }

    public synchronized void clear() {
        waitsFor.clear();
    }

    public synchronized int edges() {
        return waitsFor.values().stream().mapToInt(List::size).sum();
    }

    /** A path from {@code from} to {@code to} along wait edges, from's successor first, ending at to. */
    private List<Long> pathFrom(long from, long to) {
        if (from == to) {
            return List.of(to);
        }
        Map<Long, Long> parent = new HashMap<>();
        Set<Long> seen = new HashSet<>();
        Deque<Long> queue = new ArrayDeque<>();
        queue.add(from);
        seen.add(from);
        while (!queue.isEmpty()) {
            long current = queue.poll();
            for (Edge edge : waitsFor.getOrDefault(current, List.of())) {
                long next = edge.holder();
                if (!seen.add(next)) {
                    continue;
                }
                parent.put(next, current);
                if (next == to) {
                    List<Long> path = new ArrayList<>();
                    for (long step = to; step != from; step = parent.get(step)) {
                        path.add(0, step);
                    }
                    path.add(0, from);
                    return path;
                }
                queue.add(next);
            }
        }
        return List.of();
    }

    private void expire(long nowNanos) {
        waitsFor.values().forEach(edges -> edges.removeIf(edge -> nowNanos - edge.sinceNanos() > maxAgeNanos));
        waitsFor.values().removeIf(List::isEmpty);
    }
}
