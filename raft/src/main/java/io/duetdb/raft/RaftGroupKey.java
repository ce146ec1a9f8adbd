package io.duetdb.raft;

import static java.util.Objects.requireNonNull;

import java.util.UUID;

/**
 * Names a Raft group. Ratis names groups by UUID (and their directories by it), so the key maps to a UUID
 * that can be mapped back: a fixed high half that also carries the kind, and the id as the low half.
 */
public record RaftGroupKey(Kind kind, long id) {
    public enum Kind {
        PLACEMENT,
        REGION
    }

    private static final long MAGIC = 0x6475657464620000L; // "duetdb" in the high bytes

    public RaftGroupKey {
        requireNonNull(kind, "kind is null");
    }

    public static RaftGroupKey placement() {
        return new RaftGroupKey(Kind.PLACEMENT, 1);
    }

    public static RaftGroupKey region(long regionId) {
        return new RaftGroupKey(Kind.REGION, regionId);
    }

    public UUID toUuid() {
        return new UUID(MAGIC | kind.ordinal(), id);
    }

    /** The key a UUID of {@link #toUuid()} came from; throws for a UUID of another origin. */
    public static RaftGroupKey fromUuid(UUID uuid) {
        long high = uuid.getMostSignificantBits();
        int kind = (int) (high & 0xFFFF);
        if ((high & ~0xFFFFL) != MAGIC || kind >= Kind.values().length) {
            throw new IllegalArgumentException("Raft group " + uuid + " was not created by DuetDB");
        }
        return new RaftGroupKey(Kind.values()[kind], uuid.getLeastSignificantBits());
    }

    @Override
    public String toString() {
        return kind == Kind.PLACEMENT ? "placement" : "region-" + id;
    }
}
