package io.duetdb.common.region;

/** How stores are named inside Raft groups: one Raft server per store, so the peer id is the store's. */
public final class StorePeers {
    private static final String PREFIX = "store-";

    private StorePeers() {
    }

    public static String raftPeerId(long storeId) {
        return PREFIX + storeId;
    }

    public static long storeIdOf(String raftPeerId) {
        if (!raftPeerId.startsWith(PREFIX)) {
            throw new IllegalArgumentException("'" + raftPeerId + "' is not a store's Raft peer id");
        }
        return Long.parseLong(raftPeerId.substring(PREFIX.length()));
    }
}
