package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import io.duetdb.learner.internal.storage.RegionDelta;

/**
 * What a region replica holds, bottom up: the stable layer of column packs, a delta frozen while a merge turns
 * it into packs (or null), and the active delta that takes new writes. A reader takes one Layers and reads
 * all three; a merge, split or snapshot installs a new one.
 */
public record Layers(StableLayer stable, RegionDelta frozen, RegionDelta active) {
    public Layers {
        requireNonNull(stable, "stable is null");
        requireNonNull(active, "active is null");
    }

    public static Layers of(RegionDelta active) {
        return new Layers(StableLayer.EMPTY, null, active);
    }

    /** Versions in the deltas (frozen and active). */
    public long deltaVersions() {
        return active.versionCount() + (frozen == null ? 0 : frozen.versionCount());
    }

    /** Whether either delta has a version of a key in [first, last]. */
    public boolean deltaHasVersionsBetween(byte[] first, byte[] last) {
        return active.hasVersionsBetween(first, last) || frozen != null && frozen.hasVersionsBetween(first, last);
    }
}
