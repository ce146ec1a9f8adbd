package io.duetdb.compute;

import java.math.BigDecimal;
import java.util.Arrays;

import io.duetdb.proto.coprocessor.ValueType;

/** The order of non-NULL {@link VectorValues} Java values of one type, as the SQL layer orders them. */
public final class ValueOrdering {
    private ValueOrdering() {
    }

    public static int compare(Object left, Object right, ValueType type) {
        return switch (type) {
            case UINT64 -> Long.compareUnsigned((Long) left, (Long) right);
            case INT64, DATE, DATETIME, TIMESTAMP, TIME -> Long.compare((Long) left, (Long) right);
            case FLOAT32, FLOAT64 -> Double.compare(((Number) left).doubleValue(), ((Number) right).doubleValue());
            case DECIMAL -> ((BigDecimal) left).compareTo((BigDecimal) right);
            case STRING -> compareCodePoints((String) left, (String) right);
            case BYTES -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
            case BOOLEAN -> Boolean.compare((Boolean) left, (Boolean) right);
            default -> throw new UnsupportedExpressionException("no order for " + type);
        };
    }

    /** Strings in code point order, which is UTF-8's byte order (Java's compareTo is UTF-16's). */
    public static int compareCodePoints(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
