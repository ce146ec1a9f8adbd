package io.duetdb.learner.internal.stable;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A region replica's stable layer: slices of column packs in key order, none overlapping another. Immutable:
 * a merge, split or region merge makes a new layer and readers keep the one they started with.
 */
public final class StableLayer {
    public static final StableLayer EMPTY = new StableLayer(List.of());

    private final List<PackSlice> slices;

    public StableLayer(List<PackSlice> slices) {
        this.slices = List.copyOf(requireNonNull(slices, "slices is null"));
        for (int i = 1; i < this.slices.size(); i++) {
            if (Arrays.compareUnsigned(this.slices.get(i - 1).lastKey(), this.slices.get(i).firstKey()) >= 0) {
                throw new IllegalArgumentException("stable slices overlap or are out of order at " + i);
            }
        }
    }

    public List<PackSlice> slices() {
        return slices;
    }

    public boolean isEmpty() {
        return slices.isEmpty();
    }

    /** The slices holding keys in [start, end) (an empty end is unbounded), in key order. */
    public List<PackSlice> overlapping(byte[] start, byte[] end) {
        List<PackSlice> found = new ArrayList<>();
        for (PackSlice slice : slices) {
            if (Arrays.compareUnsigned(slice.lastKey(), start) < 0) {
                continue;
            }
            if (end.length != 0 && Arrays.compareUnsigned(slice.firstKey(), end) >= 0) {
                break;
            }
            found.add(slice);
        }
        return found;
    }

    /** The layer cut at {@code key}: keys before it stay left, the rest go right (a region split). */
    public Split split(byte[] key) {
        List<PackSlice> left = new ArrayList<>();
        List<PackSlice> right = new ArrayList<>();
        for (PackSlice slice : slices) {
            if (Arrays.compareUnsigned(slice.lastKey(), key) < 0) {
                left.add(slice);
            } else if (Arrays.compareUnsigned(slice.firstKey(), key) >= 0) {
                right.add(slice);
            } else {
                int cut = Math.max(slice.from(), slice.pack().lowerBound(key));
                left.add(new PackSlice(slice.pack(), slice.from(), cut));
                right.add(new PackSlice(slice.pack(), cut, slice.to()));
            }
        }
        return new Split(new StableLayer(left), new StableLayer(right));
    }

    public record Split(StableLayer left, StableLayer right) {
    }

    /** This layer and a neighbour's (a region merge): their key ranges do not overlap. */
    public StableLayer concat(StableLayer other) {
        List<PackSlice> all = new ArrayList<>(slices);
        all.addAll(other.slices);
        all.sort(Comparator.comparing(PackSlice::firstKey, Arrays::compareUnsigned));
        return new StableLayer(all);
    }

    public long rows() {
        long total = 0;
        for (PackSlice slice : slices) {
            total += slice.rows();
        }
        return total;
    }

    public long bytes() {
        long total = 0;
        for (PackSlice slice : slices) {
            total += slice.pack().bytes() * slice.rows() / slice.pack().rows();
        }
        return total;
    }

    public Set<Long> packIds() {
        Set<Long> ids = new HashSet<>();
        for (PackSlice slice : slices) {
            ids.add(slice.pack().id());
        }
        return ids;
    }
}
