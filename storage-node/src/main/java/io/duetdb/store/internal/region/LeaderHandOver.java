package io.duetdb.store.internal.region;

/**
 * What a region leader writes down before it gives up its leadership or its range on purpose (a planned
 * transfer, a split): state it keeps only in memory, such as in-memory pessimistic locks.
 */
public interface LeaderHandOver {
    LeaderHandOver NONE = new LeaderHandOver() {
        @Override
        public void prepare(RegionPeer peer) {
        }

        @Override
        public void abandon(RegionPeer peer) {
        }
    };

    /** Writes the leader's memory-only state through the log (bounded wait; what is not written is dropped). */
    void prepare(RegionPeer peer);

    /** The hand-over did not happen: the leader goes on as before. */
    void abandon(RegionPeer peer);
}
