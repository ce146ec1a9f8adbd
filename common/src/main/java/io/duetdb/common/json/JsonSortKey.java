package io.duetdb.common.json;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Bytes whose unsigned order is {@link Json#compare}'s order of the JSON values they encode, so that a sort by a
 * JSON column sorts as MySQL does: nulls, then numbers by value, strings by code points, objects (fewer members
 * first, then member by member in key order), arrays (element by element, a prefix first), and booleans.
 */
public final class JsonSortKey {
    /** Ends an array and a string; below every type's tag. */
    private static final int END = 0x00;

    private JsonSortKey() {
    }

    public static byte[] of(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(value, out);
        return out.toByteArray();
    }

    private static void write(Object value, ByteArrayOutputStream out) {
        out.write(Json.rank(value) + 1);
        if (value == JsonNull.NULL) {
            return;
        }
        if (Json.isNumber(value)) {
            writeNumber(Json.toDecimal(value), out);
        } else if (value instanceof String text) {
            writeString(text, out);
        } else if (value instanceof Map<?, ?> object) {
            writeInt(object.size(), out);
            // Members in the order Json.compare walks them: the object's own, which is key order.
            for (Map.Entry<?, ?> member : object.entrySet()) {
                String key = (String) member.getKey();
                writeInt(key.getBytes(StandardCharsets.UTF_8).length, out);
                writeString(key, out);
                write(member.getValue(), out);
            }
        } else if (value instanceof List<?> array) {
            for (Object element : array) {
                write(element, out);
            }
            out.write(END);
        } else if (value instanceof Boolean bool) {
            out.write(bool ? 1 : 0);
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /**
     * A sign byte, then for a non-zero value its decimal exponent and its digits, ended; a negative value's bytes after
     * the sign are inverted, so that a larger magnitude sorts first.
     */
    private static void writeNumber(BigDecimal number, ByteArrayOutputStream out) {
        int signum = number.signum();
        out.write(signum + 1);
        if (signum == 0) {
            return;
        }
        BigDecimal normal = number.abs().stripTrailingZeros();
        byte[] digits = normal.unscaledValue().toString().getBytes(StandardCharsets.US_ASCII);
        int exponent = normal.precision() - normal.scale();
        byte[] magnitude = new byte[4 + digits.length + 1];
        int flipped = exponent ^ Integer.MIN_VALUE;
        magnitude[0] = (byte) (flipped >>> 24);
        magnitude[1] = (byte) (flipped >>> 16);
        magnitude[2] = (byte) (flipped >>> 8);
        magnitude[3] = (byte) flipped;
        System.arraycopy(digits, 0, magnitude, 4, digits.length);
        magnitude[magnitude.length - 1] = END;
        if (signum < 0) {
            for (int i = 0; i < magnitude.length; i++) {
                magnitude[i] = (byte) ~magnitude[i];
            }
        }
        out.write(magnitude, 0, magnitude.length);
    }

    /** UTF-8 bytes (their order is the code points'), a zero byte escaped as 0x00 0xFF, ended by 0x00 0x00. */
    private static void writeString(String text, ByteArrayOutputStream out) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.write(b);
            if (b == 0) {
                out.write(0xFF);
            }
        }
        out.write(END);
        out.write(END);
    }

    private static void writeInt(int value, ByteArrayOutputStream out) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
