package io.duetdb.raft;

import static java.util.Objects.requireNonNull;

/** A member of a Raft group: its id and the {@code host:port} of its Raft server. */
public record RaftPeerSpec(String id, String address, boolean listener) {
    public RaftPeerSpec {
        requireNonNull(id, "id is null");
        requireNonNull(address, "address is null");
        if (id.isBlank()) {
            throw new IllegalArgumentException("peer id is empty");
        }
    }

    public static RaftPeerSpec voter(String id, String address) {
        return new RaftPeerSpec(id, address, false);
    }
}
