package io.duetdb.store.internal.txn;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;

import com.google.protobuf.ByteString;

/**
 * Keys of one-phase commits between taking their commit timestamp and being applied, on the region leader.
 * A one-phase commit writes no lock that readers could see, so a reader at a timestamp at or above such a
 * commit's (or while the commit's timestamp is still being fetched) waits for it to apply here instead.
 * Keys are registered before the commit timestamp is requested, so any read that misses the registration
 * began before the timestamp was handed out and rightly does not see the commit.
 */
public final class InflightCommits {
    /** One transaction's keys while it commits. */
    public static final class Registration {
        private final List<ByteString> keys;
        private final CompletableFuture<Void> applied = new CompletableFuture<>();
        private volatile long commitTs = Long.MIN_VALUE;

        private Registration(List<ByteString> keys) {
            this.keys = keys;
        }

        public void setCommitTs(long commitTs) {
            this.commitTs = commitTs;
        }

        boolean blocks(long readTs) {
            long ts = commitTs;
            return ts == Long.MIN_VALUE || ts <= readTs;
        }
    }

    private final ConcurrentSkipListMap<ByteString, Registration> byKey =
            new ConcurrentSkipListMap<>(ByteString.unsignedLexicographicalComparator());

    public Registration register(List<ByteString> keys) {
        Registration registration = new Registration(List.copyOf(keys));
        keys.forEach(key -> byKey.put(key, registration));
        return registration;
    }

    /** The commit is applied (or failed): readers waiting on it go on. */
    public void finish(Registration registration) {
        registration.keys.forEach(key -> byKey.remove(key, registration));
        registration.applied.complete(null);
    }

    /** What a read of these keys at {@code readTs} must wait for, or null. */
    public CompletableFuture<Void> blocker(List<ByteString> keys, long readTs) {
        if (byKey.isEmpty()) {
            return null;
        }
        for (ByteString key : keys) {
            Registration registration = byKey.get(key);
            if (registration != null && registration.blocks(readTs)) {
                return registration.applied;
            }
        }
        return null;
    }

    /** As {@link #blocker(List, long)} for every key in [start, end) (an empty end: no bound). */
    public CompletableFuture<Void> blocker(ByteString start, ByteString end, long readTs) {
        if (byKey.isEmpty()) {
            return null;
        }
        Map<ByteString, Registration> range = end.isEmpty() ? byKey.tailMap(start, true) : byKey.subMap(start, true, end, false);
        for (Registration registration : range.values()) {
            if (registration.blocks(readTs)) {
                return registration.applied;
            }
        }
        return null;
    }

    public int size() {
        return byKey.size();
    }
}
