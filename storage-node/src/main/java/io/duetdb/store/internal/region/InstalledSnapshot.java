package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import io.duetdb.raft.LogPosition;
import io.duetdb.store.internal.proto.RegionLocalState;

/** A snapshot that is now in the engine: the region's state and the log position it covers. */
public record InstalledSnapshot(RegionLocalState state, LogPosition position) {
    public InstalledSnapshot {
        requireNonNull(state, "state is null");
        requireNonNull(position, "position is null");
    }
}
