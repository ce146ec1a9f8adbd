package io.duetdb.common.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON text (RFC 8259, strictly: no comments, no trailing commas) into DuetDB's JSON values: objects as maps in
 * MySQL's key order ({@link Json#KEY_ORDER}; the last of duplicate keys wins, as in MySQL 8.0), arrays as lists,
 * strings, numbers (Long, BigInteger for unsigned 64-bit integers, Double otherwise), Boolean and
 * {@link JsonNull#NULL}. Faults carry RapidJSON's messages, which MySQL reports.
 */
public final class JsonParser {
    private static final int MAX_DEPTH = 100;
    private static final BigInteger UNSIGNED_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final String text;
    private int position;
    private int depth;

    private JsonParser(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        JsonParser parser = new JsonParser(text);
        parser.skipSpace();
        if (parser.position == text.length()) {
            throw new JsonSyntaxException("The document is empty.", 0);
        }
        Object value = parser.value();
        parser.skipSpace();
        if (parser.position < text.length()) {
            throw new JsonSyntaxException("The document root must not be followed by other values.", parser.position);
        }
        return value;
    }

    /** Whether the text is a JSON document. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (JsonSyntaxException e) {
            return false;
        }
    }

    private Object value() {
        if (position >= text.length()) {
            throw new JsonSyntaxException("Invalid value.", position);
        }
        char c = text.charAt(position);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", JsonNull.NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw new JsonSyntaxException("Invalid value.", position);
            }
        };
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw new JsonSyntaxException("Invalid value.", position);
        }
        position += word.length();
        return value;
    }

    private Map<String, Object> object() {
        enter();
        position++;
        Map<String, Object> members = new TreeMap<>(Json.KEY_ORDER);
        skipSpace();
        if (peek() == '}') {
            position++;
            depth--;
            return members;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw new JsonSyntaxException("Missing a name for object member.", position);
            }
            String name = string();
            skipSpace();
            if (peek() != ':') {
                throw new JsonSyntaxException("Missing a colon after a name of object member.", position);
            }
            position++;
            skipSpace();
            members.put(name, value());
            skipSpace();
            char next = peek();
            position++;
            if (next == '}') {
                depth--;
                return members;
            }
            if (next != ',') {
                throw new JsonSyntaxException("Missing a comma or '}' after an object member.", position - 1);
            }
        }
    }

    private List<Object> array() {
        enter();
        position++;
        List<Object> elements = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            position++;
            depth--;
            return elements;
        }
        while (true) {
            skipSpace();
            elements.add(value());
            skipSpace();
            char next = peek();
            position++;
            if (next == ']') {
                depth--;
                return elements;
            }
            if (next != ',') {
                throw new JsonSyntaxException("Missing a comma or ']' after an array element.", position - 1);
            }
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new JsonSyntaxException("The JSON document exceeds the maximum depth of " + MAX_DEPTH + ".",
                    position);
        }
    }

    private String string() {
        int start = position;
        position++;
        StringBuilder value = new StringBuilder();
        while (true) {
            if (position >= text.length()) {
                throw new JsonSyntaxException("Missing a closing quotation mark in string.", start);
            }
            char c = text.charAt(position++);
            if (c == '"') {
                return value.toString();
            }
            if (c < 0x20) {
                throw new JsonSyntaxException("Invalid encoding in string.", position - 1);
            }
            if (c != '\\') {
                value.append(c);
                continue;
            }
            if (position >= text.length()) {
                throw new JsonSyntaxException("Missing a closing quotation mark in string.", start);
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"', '\\', '/' -> value.append(escaped);
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'u' -> value.append(hexCharacter());
                default -> throw new JsonSyntaxException("Invalid escape character in string.", position - 2);
            }
        }
    }

    private char hexCharacter() {
        if (position + 4 > text.length()) {
            throw new JsonSyntaxException("Incorrect hex digit after \\u escape in string.", position);
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(position + i), 16);
            if (digit < 0) {
                throw new JsonSyntaxException("Incorrect hex digit after \\u escape in string.", position);
            }
            code = code * 16 + digit;
        }
        position += 4;
        return (char) code;
    }

    private Object number() {
        int start = position;
        if (peek() == '-') {
            position++;
        }
        if (!isDigit(peek())) {
            throw new JsonSyntaxException("Invalid value.", start);
        }
        if (peek() == '0') {
            position++;
        } else {
            digits();
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            position++;
            if (!isDigit(peek())) {
                throw new JsonSyntaxException("Missing fraction part in number.", position);
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            position++;
            if (peek() == '+' || peek() == '-') {
                position++;
            }
            if (!isDigit(peek())) {
                throw new JsonSyntaxException("Missing exponent in number.", position);
            }
            digits();
        }
        String literal = text.substring(start, position);
        if (integral) {
            BigInteger integer = new BigInteger(literal);
            if (integer.bitLength() < 64) {
                return integer.longValue();
            }
            if (integer.signum() > 0 && integer.compareTo(UNSIGNED_MAX) <= 0) {
                return integer;
            }
        }
        double value = new BigDecimal(literal).doubleValue();
        if (Double.isInfinite(value)) {
            throw new JsonSyntaxException("Number too big to be stored in double.", start);
        }
        return value;
    }

    private void digits() {
        while (isDigit(peek())) {
            position++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private char peek() {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void skipSpace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            position++;
        }
    }
}
