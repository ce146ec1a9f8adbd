package io.duetdb.testing.reference;

import java.util.SplittableRandom;

/**
 * The random stream of one unit of a generated table, so that every unit can be generated alone and always
 * gives the same rows: seeded by the data set's seed, the table, the unit and, for units that need several
 * streams, which one.
 */
public final class UnitRandom {
    private UnitRandom() {
    }

    public static SplittableRandom of(long seed, int table, long unit, int stream) {
        return new SplittableRandom(mix(seed + (table + 1) * 0x9E3779B97F4A7C15L + unit * 0xBF58476D1CE4E5B9L
                + stream * 0x94D049BB133111EBL));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
