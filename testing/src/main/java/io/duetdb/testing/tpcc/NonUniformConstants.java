package io.duetdb.testing.tpcc;

import java.util.SplittableRandom;

/**
 * The run-time constants C of NURand (clause 2.1.6) for C_LAST, C_ID and OL_I_ID. The load uses {@link #LOAD}, a
 * fixed value so that a run on tables loaded by another process (--no-load) still knows it; a run draws its own
 * with {@link #forRun}, whose C_LAST differs from the load's by 65 to 119 but neither 96 nor 112 (clause 2.1.6.1).
 */
public record NonUniformConstants(int lastName, int customerId, int itemId) {
    /** The constants the initial population's C_LAST values were drawn with. */
    public static final NonUniformConstants LOAD = new NonUniformConstants(157, 259, 7_911);

    public NonUniformConstants {
        if (lastName < 0 || lastName > 255 || customerId < 0 || customerId > 1023 || itemId < 0 || itemId > 8191) {
            throw new IllegalArgumentException("C must lie in [0, A]");
        }
    }

    /** Constants for a run: C_LAST satisfies clause 2.1.6.1 against {@link #LOAD}'s, the others are uniform. */
    public static NonUniformConstants forRun(SplittableRandom random) {
        while (true) {
            int lastName = random.nextInt(256);
            int delta = Math.abs(lastName - LOAD.lastName());
            if (delta >= 65 && delta <= 119 && delta != 96 && delta != 112) {
                return new NonUniformConstants(lastName, random.nextInt(1024), random.nextInt(8192));
            }
        }
    }
}
