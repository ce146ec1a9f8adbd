package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

/**
 * The rows [from, to) of a pack that belong to one region replica: a split leaves the pack whole and gives each
 * side its slice, so packs never need rewriting for a split.
 */
public record PackSlice(ColumnPack pack, int from, int to) {
    public PackSlice {
        requireNonNull(pack, "pack is null");
        if (from < 0 || to > pack.rows() || from >= to) {
            throw new IllegalArgumentException("slice [" + from + ", " + to + ") of a pack of " + pack.rows() + " rows");
        }
    }

    public static PackSlice whole(ColumnPack pack) {
        return new PackSlice(pack, 0, pack.rows());
    }

    public int rows() {
        return to - from;
    }

    public byte[] firstKey() {
        return pack.key(from);
    }

    public byte[] lastKey() {
        return pack.key(to - 1);
    }

    public boolean whole() {
        return from == 0 && to == pack.rows();
    }
}
