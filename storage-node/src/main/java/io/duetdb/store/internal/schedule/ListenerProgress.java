package io.duetdb.store.internal.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the listeners (column learners) of the regions this store leads. Ratis' leader never sends a follower
 * entries below the index it last acknowledged, so a listener that comes back from a crash without entries it had
 * acknowledged waits forever. A listener that has acknowledged entries before (a new one installing its first
 * snapshot has not) and whose acknowledged index has not moved for {@code stuckNanos} while the region committed
 * more is reported once per {@code stuckNanos}, to be dropped from the Raft configuration and added back, which
 * makes the leader learn its real position.
 */
final class ListenerProgress {
    private record Seen(long matchIndex, long sinceNanos, long reportedNanos) {
    }

    private final long stuckNanos;
    private final Map<Long, Map<String, Seen>> regions = new ConcurrentHashMap<>();

    ListenerProgress(long stuckNanos) {
        this.stuckNanos = stuckNanos;
    }

    /** The listeners of the region that are stuck now, given their acknowledged indices and the commit index. */
    List<String> stuck(long regionId, Map<String, Long> listenerMatchIndices, long commitIndex, long nowNanos) {
        Map<String, Seen> seen = regions.computeIfAbsent(regionId, id -> new HashMap<>());
        List<String> stuck = new ArrayList<>();
        synchronized (seen) {
            seen.keySet().retainAll(listenerMatchIndices.keySet());
            for (Map.Entry<String, Long> listener : listenerMatchIndices.entrySet()) {
                long match = listener.getValue();
                Seen last = seen.get(listener.getKey());
                if (last == null || last.matchIndex() != match || match >= commitIndex || match <= 0) {
                    seen.put(listener.getKey(), new Seen(match, nowNanos, last == null ? 0 : last.reportedNanos()));
                    continue;
                }
                if (nowNanos - last.sinceNanos() >= stuckNanos && (last.reportedNanos() == 0
                        || nowNanos - last.reportedNanos() >= stuckNanos)) {
                    stuck.add(listener.getKey());
                    seen.put(listener.getKey(), new Seen(match, last.sinceNanos(), nowNanos));
                }
            }
        }
        return stuck;
    }

    void forget(long regionId) {
        regions.remove(regionId);
    }
}
