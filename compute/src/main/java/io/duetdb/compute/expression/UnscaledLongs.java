package io.duetdb.compute.expression;

/**
 * Exact decimal arithmetic on unscaled longs. Every method answers {@link Operand#NOT_A_LONG} where the result
 * would not fit, so that the caller redoes that value with BigDecimal.
 */
public final class UnscaledLongs {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private UnscaledLongs() {
    }

    /** {@code value} times 10 to the {@code digits} (non-negative). */
    public static long scaleUp(long value, int digits) {
        if (value == Operand.NOT_A_LONG || digits >= POWERS_OF_TEN.length) {
            return Operand.NOT_A_LONG;
        }
        long high = Math.multiplyHigh(value, POWERS_OF_TEN[digits]);
        long result = value * POWERS_OF_TEN[digits];
        return high == (result >> 63) && result != Operand.NOT_A_LONG ? result : Operand.NOT_A_LONG;
    }

    /** {@code value} at {@code from} digits after the point, rounded half away from zero to {@code to} digits. */
    public static long rescale(long value, int from, int to) {
        if (to >= from) {
            return scaleUp(value, to - from);
        }
        int digits = from - to;
        if (value == Operand.NOT_A_LONG || digits >= POWERS_OF_TEN.length) {
            return Operand.NOT_A_LONG;
        }
        long divisor = POWERS_OF_TEN[digits];
        long quotient = value / divisor;
        long remainder = Math.abs(value % divisor);
        if (remainder >= divisor - remainder) {
            quotient += value < 0 ? -1 : 1;
        }
        return quotient;
    }

    /** Whether {@code value} at {@code scale} has at most {@code integerDigits} digits before the point. */
    public static boolean fitsIntegerDigits(long value, int scale, int integerDigits) {
        int digits = integerDigits + scale;
        if (value == 0) {
            // BigDecimal's zero has precision 1, so its integer digits are 1 - scale.
            return 1 - scale <= integerDigits;
        }
        if (digits < 0 || value == Operand.NOT_A_LONG) {
            return false;
        }
        return digits >= POWERS_OF_TEN.length || Math.abs(value) < POWERS_OF_TEN[digits];
    }

    /** The sum, or {@link Operand#NOT_A_LONG} on overflow. */
    public static long add(long x, long y) {
        long sum = x + y;
        return ((x ^ sum) & (y ^ sum)) < 0 || sum == Operand.NOT_A_LONG ? Operand.NOT_A_LONG : sum;
    }

    /** The product, or {@link Operand#NOT_A_LONG} on overflow. */
    public static long multiply(long x, long y) {
        long high = Math.multiplyHigh(x, y);
        long product = x * y;
        return high == (product >> 63) && product != Operand.NOT_A_LONG ? product : Operand.NOT_A_LONG;
    }
}
