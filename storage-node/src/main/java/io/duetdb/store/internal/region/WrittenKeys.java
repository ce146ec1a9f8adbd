package io.duetdb.store.internal.region;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.protobuf.ByteString;

/**
 * The keys a region leader proposed MVCC write records for (commits, one-phase commits, rollbacks) since garbage
 * collection last took them, each with the newest record's timestamp: a round after a few writes checks those keys
 * instead of scanning the whole region. Bounded: past {@link #MAX_KEYS} keys it only remembers that it overflowed,
 * and the next round scans the region.
 */
public final class WrittenKeys {
    static final int MAX_KEYS = 20_000;

    /** What a garbage collection round takes: the keys, null when they overflowed. */
    public record Taken(Map<ByteString, Long> keys) {
        public boolean complete() {
            return keys != null;
        }
    }

    private Map<ByteString, Long> keys = new HashMap<>();

    public synchronized void record(List<ByteString> written, long ts) {
        if (keys == null) {
            return;
        }
        for (ByteString key : written) {
            keys.merge(key, ts, Math::max);
        }
        if (keys.size() > MAX_KEYS) {
            keys = null;
        }
    }

    /** The keys recorded so far, leaving none recorded. */
    public synchronized Taken take() {
        Taken taken = new Taken(keys);
        keys = new HashMap<>();
        return taken;
    }

    /** Records again the keys whose newest record is at or after {@code point}: they may hold garbage later. */
    public void keepFrom(Map<ByteString, Long> taken, long point) {
        taken.forEach((key, ts) -> {
            if (ts >= point) {
                record(List.of(key), ts);
            }
        });
    }
}
