package io.duetdb.sql.exec;

import java.time.LocalDate;
import java.util.Arrays;

/**
 * Row values as a hash key, equal when {@link Values#compare} says so: numbers by value whatever their Java type
 * (1, 1.0 and 1.00 are one key), a DATE like the DATETIME at its midnight, strings and bytes by content. NULLs
 * equal each other here; callers that follow SQL's NULL = NULL must leave such rows out.
 */
record GroupKey(Object[] values) {
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof GroupKey key) || key.values.length != values.length) {
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
        int hash = 1;
        for (Object value : values) {
            hash = hash * 31 + hashOf(value);
        }
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
        if (Values.isNumber(value) || value instanceof Boolean) {
            return Double.hashCode(Values.toDouble(value));
        }
        if (value instanceof byte[] bytes) {
            return Arrays.hashCode(bytes);
        }
        if (value instanceof LocalDate date) {
            return date.atStartOfDay().hashCode();
        }
        return value.hashCode();
    }
}
