package io.duetdb.common.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DuetDB's JSON values as MySQL defines them: their text (MySQL's normal form, {@code {"a": 1, "b": [1, 2]}}), type
 * names, depth and length, and their comparison and ordering. A value is a {@code Map<String, Object>} in
 * {@link #KEY_ORDER}, a {@code List<Object>}, a String, a Long, BigInteger (unsigned), BigDecimal or Double, a
 * Boolean or {@link JsonNull#NULL}.
 */
public final class Json {
    /** MySQL keeps object members ordered by key length, then by the keys' UTF-8 bytes (code points). */
    public static final Comparator<String> KEY_ORDER = Comparator.comparingInt(Json::utf8Length)
            .thenComparing(Json::compareCodePoints);

    private Json() {
    }

    public static Map<String, Object> newObject() {
        return new TreeMap<>(KEY_ORDER);
    }

    /** The value's text in MySQL's normal form. */
    public static String write(Object value) {
        StringBuilder text = new StringBuilder();
        write(value, text, -1, 0);
        return text.toString();
    }

    /** JSON_PRETTY's form: members and elements one per line, indented by two spaces a level. */
    public static String pretty(Object value) {
        StringBuilder text = new StringBuilder();
        write(value, text, 2, 0);
        return text.toString();
    }

    private static void write(Object value, StringBuilder text, int indent, int level) {
        if (value instanceof Map<?, ?> object) {
            if (object.isEmpty()) {
                text.append("{}");
                return;
            }
            text.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : object.entrySet()) {
                text.append(first ? "" : ",");
                newLine(text, indent, level + 1, first);
                first = false;
                quote((String) member.getKey(), text);
                text.append(": ");
                write(member.getValue(), text, indent, level + 1);
            }
            newLine(text, indent, level, true);
            text.append('}');
        } else if (value instanceof List<?> array) {
            if (array.isEmpty()) {
                text.append("[]");
                return;
            }
            text.append('[');
            boolean first = true;
            for (Object element : array) {
                text.append(first ? "" : ",");
                newLine(text, indent, level + 1, first);
                first = false;
                write(element, text, indent, level + 1);
            }
            newLine(text, indent, level, true);
            text.append(']');
        } else if (value instanceof String string) {
            quote(string, text);
        } else if (value instanceof Double number) {
            text.append(formatJsonDouble(number));
        } else if (value instanceof BigDecimal decimal) {
            text.append(decimal.toPlainString());
        } else {
            text.append(value);
        }
    }

    private static void newLine(StringBuilder text, int indent, int level, boolean first) {
        if (indent < 0) {
            if (!first) {
                text.append(' ');
            }
            return;
        }
        text.append('\n').append(" ".repeat(indent * level));
    }

    /** A double in a JSON document as MySQL prints it: whole values with ".0", otherwise {@link #formatDouble}. */
    static String formatJsonDouble(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return (long) value + ".0";
        }
        return formatDouble(value);
    }

    /** A double as MySQL prints it: the shortest digits that read back, exponents as 1e20 and 1.5e-7. */
    public static String formatDouble(double value) {
        String text = Double.toString(value);
        int exponent = text.indexOf('E');
        if (exponent < 0) {
            return text;
        }
        String mantissa = text.substring(0, exponent);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        return mantissa + "e" + text.substring(exponent + 1);
    }

    /** JSON_QUOTE: the string as a JSON string literal. */
    public static String quote(String value) {
        StringBuilder text = new StringBuilder(value.length() + 2);
        quote(value, text);
        return text.toString();
    }

    private static void quote(String value, StringBuilder text) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                case '\b' -> text.append("\\b");
                case '\f' -> text.append("\\f");
                default -> {
                    if (c < 0x20) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }

    /** JSON_TYPE's name of the value's type. */
    public static String typeName(Object value) {
        if (value instanceof Map<?, ?>) {
            return "OBJECT";
        } else if (value instanceof List<?>) {
            return "ARRAY";
        } else if (value instanceof String) {
            return "STRING";
        } else if (value instanceof Long) {
            return "INTEGER";
        } else if (value instanceof BigInteger) {
            return "UNSIGNED INTEGER";
        } else if (value instanceof Double) {
            return "DOUBLE";
        } else if (value instanceof BigDecimal) {
            return "DECIMAL";
        } else if (value instanceof Boolean) {
            return "BOOLEAN";
        }
        return "NULL";
    }

    /** JSON_DEPTH: 1 for a scalar or an empty container, one more than the deepest member otherwise. */
    public static int depth(Object value) {
        int deepest = 0;
        if (value instanceof Map<?, ?> object) {
            for (Object member : object.values()) {
                deepest = Math.max(deepest, depth(member));
            }
        } else if (value instanceof List<?> array) {
            for (Object element : array) {
                deepest = Math.max(deepest, depth(element));
            }
        }
        return deepest + 1;
    }

    /** JSON_LENGTH: an object's members, an array's elements, 1 for a scalar. */
    public static int length(Object value) {
        if (value instanceof Map<?, ?> object) {
            return object.size();
        } else if (value instanceof List<?> array) {
            return array.size();
        }
        return 1;
    }

    /** A copy that can be changed without changing the original. */
    @SuppressWarnings("unchecked")
    public static Object copy(Object value) {
        if (value instanceof Map<?, ?> object) {
            Map<String, Object> copy = newObject();
            for (Map.Entry<?, ?> member : object.entrySet()) {
                copy.put((String) member.getKey(), copy(member.getValue()));
            }
            return copy;
        } else if (value instanceof List<?> array) {
            List<Object> copy = new ArrayList<>(array.size());
            for (Object element : array) {
                copy.add(copy(element));
            }
            return copy;
        }
        return value;
    }

    /** Whether two values are equal as MySQL compares JSON: numbers by value, whatever their types. */
    public static boolean equal(Object a, Object b) {
        return compare(a, b) == 0;
    }

    /**
     * MySQL's order of JSON values: by type first (NULL, numbers, strings, objects, arrays, booleans, lowest to
     * highest), then numbers by value, strings by their code points, arrays element by element (a prefix first),
     * booleans false before true. Objects are equal when their members are; otherwise ordered by size, then members.
     */
    @SuppressWarnings("unchecked")
    public static int compare(Object a, Object b) {
        int rank = Integer.compare(rank(a), rank(b));
        if (rank != 0) {
            return rank;
        }
        if (isNumber(a)) {
            return toDecimal(a).compareTo(toDecimal(b));
        } else if (a instanceof String x) {
            return compareCodePoints(x, (String) b);
        } else if (a instanceof Boolean x) {
            return Boolean.compare(x, (Boolean) b);
        } else if (a instanceof List<?> x) {
            List<?> y = (List<?>) b;
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                int element = compare(x.get(i), y.get(i));
                if (element != 0) {
                    return element;
                }
            }
            return Integer.compare(x.size(), y.size());
        } else if (a instanceof Map<?, ?> x) {
            Map<String, Object> y = (Map<String, Object>) b;
            int size = Integer.compare(x.size(), y.size());
            if (size != 0) {
                return size;
            }
            Iterator<? extends Map.Entry<?, ?>> left = x.entrySet().iterator();
            Iterator<Map.Entry<String, Object>> right = y.entrySet().iterator();
            while (left.hasNext()) {
                Map.Entry<?, ?> l = left.next();
                Map.Entry<String, Object> r = right.next();
                int key = KEY_ORDER.compare((String) l.getKey(), r.getKey());
                if (key != 0) {
                    return key;
                }
                int member = compare(l.getValue(), r.getValue());
                if (member != 0) {
                    return member;
                }
            }
            return 0;
        }
        return 0;
    }

    static int rank(Object value) {
        if (value == JsonNull.NULL) {
            return 0;
        } else if (isNumber(value)) {
            return 1;
        } else if (value instanceof String) {
            return 2;
        } else if (value instanceof Map<?, ?>) {
            return 3;
        } else if (value instanceof List<?>) {
            return 4;
        }
        return 5;
    }

    public static boolean isNumber(Object value) {
        return value instanceof Long || value instanceof Double || value instanceof BigInteger
                || value instanceof BigDecimal;
    }

    static BigDecimal toDecimal(Object number) {
        if (number instanceof Long x) {
            return BigDecimal.valueOf(x);
        } else if (number instanceof BigInteger x) {
            return new BigDecimal(x);
        } else if (number instanceof Double x) {
            return BigDecimal.valueOf(x);
        }
        return (BigDecimal) number;
    }

    private static int utf8Length(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c)) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
