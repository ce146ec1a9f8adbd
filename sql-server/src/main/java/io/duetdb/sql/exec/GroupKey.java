package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * Row values as a hash key, equal when {@link Values#compare} says so: numbers by value whatever their Java type
 * (1, 1.0 and 1.00 are one key), a DATE like the DATETIME at its midnight, strings and bytes by content. NULLs
 * equal each other here; callers that follow SQL's NULL = NULL must leave such rows out. The hash is computed
 * once: keys are hashed again at every probe.
 */
final class GroupKey {
    /** Whole numbers below this hash as longs, in every Java type alike. */
    private static final BigDecimal WHOLE_LIMIT = BigDecimal.valueOf(1L << 62);

    private final Object[] values;
    private final int hash;

    GroupKey(Object[] values) {
        this.values = values;
        int combined = 1;
        for (Object value : values) {
            combined = combined * 31 + hashOf(value);
        }
        this.hash = combined;
    }

    Object[] values() {
        return values;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof GroupKey key) || key.hash != hash || key.values.length != values.length) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            Object a = values[i];
            Object b = key.values[i];
            if (a == null || b == null) {
                if (a != b) {
                    return false;
                }
            } else if (Values.compare(a, b) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }

    private static int hashOf(Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Long number) {
            return mix(number);
        }
        if (Values.isNumber(value) || value instanceof Boolean) {
            // Whole numbers hash as the integer they equal, so that 1, 1.0 and 1.00 meet; the doubles of small
            // integers have zero low bits, which would crowd a hash table's buckets.
            if (value instanceof BigDecimal decimal) {
                BigDecimal whole = decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
                if (whole.scale() <= 0 && whole.abs().compareTo(WHOLE_LIMIT) < 0) {
                    return mix(whole.longValueExact());
                }
                return mix(Double.doubleToLongBits(decimal.doubleValue()));
            }
            double number = Values.toDouble(value);
            if (number == Math.rint(number) && Math.abs(number) < 0x1p62) {
                return mix((long) number);
            }
            return mix(Double.doubleToLongBits(number));
        }
        if (value instanceof byte[] bytes) {
            return Arrays.hashCode(bytes);
        }
        if (value instanceof LocalDate date) {
            return date.atStartOfDay().hashCode();
        }
        return value.hashCode();
    }

    private static int mix(long value) {
        long mixed = value * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32));
    }
}
