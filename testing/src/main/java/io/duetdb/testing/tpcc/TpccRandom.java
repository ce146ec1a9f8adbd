package io.duetdb.testing.tpcc;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * TPC-C's random values (clause 2.1.5 and 4.3.2) over one random stream: uniform integers, NURand, the
 * alphanumeric a-strings and numeric n-strings, zip codes, the data fields of which a tenth hold "ORIGINAL", and
 * the customer last names built from three syllables (clause 4.3.2.3). Not thread-safe: one per terminal or
 * loading unit.
 */
public final class TpccRandom {
    private static final String ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String DIGITS = "0123456789";
    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY",
        "ATION", "EING"};
    private static final String ORIGINAL = "ORIGINAL";

    private final SplittableRandom random;

    public TpccRandom(SplittableRandom random) {
        this.random = requireNonNull(random, "random is null");
    }

    /** A uniform integer in [min, max]. */
    public int uniform(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    /** NURand(A, x, y) with run-time constant C: (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
    public int nonUniform(int a, int x, int y, int c) {
        return ((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1) + x;
    }

    /** Whether a percentage of cases holds: true {@code percent} times in 100. */
    public boolean percent(int percent) {
        return uniform(1, 100) <= percent;
    }

    /** A random a-string of {@code min} to {@code max} alphanumeric characters. */
    public String alphanumeric(int min, int max) {
        return chars(ALPHANUMERIC, uniform(min, max));
    }

    /** A random string of {@code length} letters (the states of addresses). */
    public String letters(int length) {
        return chars(LETTERS, length);
    }

    /** A random n-string of {@code length} digits. */
    public String numeric(int length) {
        return chars(DIGITS, length);
    }

    /** A zip code (clause 4.3.2.7): four random digits and "11111". */
    public String zip() {
        return numeric(4) + "11111";
    }

    /** I_DATA and S_DATA: an a-string of 26 to 50 characters, a tenth of them with "ORIGINAL" at a random place. */
    public String data() {
        String data = alphanumeric(26, 50);
        if (uniform(1, 10) == 1) {
            int at = uniform(0, data.length() - ORIGINAL.length());
            data = data.substring(0, at) + ORIGINAL + data.substring(at + ORIGINAL.length());
        }
        return data;
    }

    /** A uniform amount of {@code minCents} to {@code maxCents} cents. */
    public BigDecimal money(int minCents, int maxCents) {
        return BigDecimal.valueOf(uniform(minCents, maxCents), 2);
    }

    /** A uniform DECIMAL(4,4) from 0.0000 to {@code maxTenThousandths} / 10,000 (taxes and discounts). */
    public BigDecimal fraction(int maxTenThousandths) {
        return BigDecimal.valueOf(uniform(0, maxTenThousandths), 4);
    }

    /** Shuffles {@code values} in place (Fisher-Yates). */
    public void shuffle(int[] values) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int value = values[i];
            values[i] = values[j];
            values[j] = value;
        }
    }

    private String chars(String alphabet, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(chars);
    }

    /** C_LAST for a number from 0 to 999: the syllables of its three digits, e.g. 371 is PRICALLYOUGHT. */
    public static String lastName(int number) {
        if (number < 0 || number > 999) {
            throw new IllegalArgumentException("last name numbers run from 0 to 999: " + number);
        }
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    /** Whether a data field (I_DATA, S_DATA) holds "ORIGINAL": New-Order's brand-generic test. */
    static boolean original(String data) {
        return data.contains(ORIGINAL);
    }
}
