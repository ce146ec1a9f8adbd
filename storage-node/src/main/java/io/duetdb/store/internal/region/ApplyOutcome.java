package io.duetdb.store.internal.region;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.duetdb.proto.meta.Region;
import io.duetdb.proto.raftcmd.CommandResult;
import io.duetdb.store.internal.proto.RegionLocalState;

/**
 * What applying one command did: its result for the proposer, the region's state afterwards, and regions
 * it created (split) or ended (merged away), which the store acts on once the batch is written.
 */
public record ApplyOutcome(CommandResult result, RegionLocalState state, List<Region> created, List<Long> ended) {
    public ApplyOutcome {
        requireNonNull(result, "result is null");
        requireNonNull(state, "state is null");
        created = List.copyOf(created);
        ended = List.copyOf(ended);
    }

    static ApplyOutcome of(CommandResult result, RegionLocalState state) {
        return new ApplyOutcome(result, state, List.of(), List.of());
    }
}
