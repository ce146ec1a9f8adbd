package io.duetdb.common.json;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A MySQL JSON path: {@code $} then legs {@code .key}, {@code ."quoted key"}, {@code .*}, {@code [n]},
 * {@code [last]}, {@code [last - n]}, {@code [m to n]}, {@code [*]} and {@code **}. An array leg applied to a value
 * that is not an array treats it as an array of that one value, as MySQL does.
 */
public record JsonPath(String text, List<Leg> legs) {
    public JsonPath {
        requireNonNull(text, "text is null");
        legs = List.copyOf(legs);
    }

    /** One step of a path. */
    public sealed interface Leg {
    }

    public record Member(String key) implements Leg {
        public Member {
            requireNonNull(key, "key is null");
        }
    }

    public record MemberWildcard() implements Leg {
    }

    /** An array position, counted from the start, or back from the last element when {@code fromLast}. */
    public record Cell(int index, boolean fromLast) implements Leg {
        int resolve(int size) {
            return fromLast ? size - 1 - index : index;
        }
    }

    public record Range(Cell from, Cell to) implements Leg {
    }

    public record ArrayWildcard() implements Leg {
    }

    public record Ellipsis() implements Leg {
    }

    public static JsonPath parse(String text) {
        return new Parser(text).path();
    }

    /** Whether the path may match more than one value (wildcards, ranges, **). */
    public boolean hasWildcard() {
        for (Leg leg : legs) {
            if (leg instanceof MemberWildcard || leg instanceof ArrayWildcard || leg instanceof Ellipsis
                    || leg instanceof Range) {
                return true;
            }
        }
        return false;
    }

    /** The values the path names in the document, in document order, each once. */
    public List<Object> evaluate(Object document) {
        List<Object> current = List.of(document);
        for (Leg leg : legs) {
            List<Object> next = new ArrayList<>();
            Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Object value : current) {
                step(value, leg, next, seen);
            }
            current = next;
        }
        return current;
    }

    private static void step(Object value, Leg leg, List<Object> out, Set<Object> seen) {
        if (leg instanceof Member member) {
            if (value instanceof Map<?, ?> object && object.containsKey(member.key())) {
                add(object.get(member.key()), out, seen);
            }
        } else if (leg instanceof MemberWildcard) {
            if (value instanceof Map<?, ?> object) {
                for (Object child : object.values()) {
                    add(child, out, seen);
                }
            }
        } else if (leg instanceof Cell cell) {
            List<?> array = value instanceof List<?> list ? list : List.of(value);
            int index = cell.resolve(array.size());
            if (index >= 0 && index < array.size()) {
                add(array.get(index), out, seen);
            }
        } else if (leg instanceof Range range) {
            List<?> array = value instanceof List<?> list ? list : List.of(value);
            int from = Math.max(0, range.from().resolve(array.size()));
            int to = Math.min(array.size() - 1, range.to().resolve(array.size()));
            for (int i = from; i <= to; i++) {
                add(array.get(i), out, seen);
            }
        } else if (leg instanceof ArrayWildcard) {
            if (value instanceof List<?> array) {
                for (Object element : array) {
                    add(element, out, seen);
                }
            }
        } else {
            descendants(value, out, seen);
        }
    }

    private static void descendants(Object value, List<Object> out, Set<Object> seen) {
        add(value, out, seen);
        if (value instanceof Map<?, ?> object) {
            for (Object member : object.values()) {
                descendants(member, out, seen);
            }
        } else if (value instanceof List<?> array) {
            for (Object element : array) {
                descendants(element, out, seen);
            }
        }
    }

    private static void add(Object value, List<Object> out, Set<Object> seen) {
        // Scalars may be shared (interned Longs): only containers need the identity check.
        if (!(value instanceof Map<?, ?> || value instanceof List<?>) || seen.add(value)) {
            out.add(value);
        }
    }

    @Override
    public String toString() {
        return text;
    }

    private static final class Parser {
        private final String text;
        private int position;

        Parser(String text) {
            this.text = text;
        }

        JsonPath path() {
            skipSpace();
            if (peek() != '$') {
                throw error();
            }
            position++;
            List<Leg> legs = new ArrayList<>();
            skipSpace();
            while (position < text.length()) {
                char c = peek();
                if (c == '.') {
                    position++;
                    skipSpace();
                    legs.add(member());
                } else if (c == '[') {
                    position++;
                    legs.add(arrayLeg());
                } else if (c == '*' && text.startsWith("**", position)) {
                    position += 2;
                    legs.add(new Ellipsis());
                } else {
                    throw error();
                }
                skipSpace();
            }
            if (!legs.isEmpty() && legs.get(legs.size() - 1) instanceof Ellipsis) {
                throw error();
            }
            return new JsonPath(text, legs);
        }

        private Leg member() {
            char c = peek();
            if (c == '*') {
                position++;
                return new MemberWildcard();
            }
            if (c == '"') {
                int start = position;
                position++;
                boolean escaped = false;
                while (position < text.length() && (escaped || text.charAt(position) != '"')) {
                    escaped = !escaped && text.charAt(position) == '\\';
                    position++;
                }
                if (position >= text.length()) {
                    throw error();
                }
                position++;
                try {
                    return new Member((String) JsonParser.parse(text.substring(start, position)));
                } catch (JsonSyntaxException e) {
                    throw new JsonPathException(start + 1);
                }
            }
            int start = position;
            while (position < text.length() && isIdentifierPart(text.charAt(position))) {
                position++;
            }
            if (position == start || Character.isDigit(text.charAt(start))) {
                throw error();
            }
            return new Member(text.substring(start, position));
        }

        private Leg arrayLeg() {
            skipSpace();
            if (peek() == '*') {
                position++;
                expect(']');
                return new ArrayWildcard();
            }
            Cell from = cell();
            skipSpace();
            if (text.startsWith("to", position)) {
                position += 2;
                Cell to = cell();
                expect(']');
                return new Range(from, to);
            }
            expect(']');
            return from;
        }

        private Cell cell() {
            skipSpace();
            if (text.startsWith("last", position)) {
                position += 4;
                skipSpace();
                if (peek() == '-') {
                    position++;
                    return new Cell(number(), true);
                }
                return new Cell(0, true);
            }
            return new Cell(number(), false);
        }

        private int number() {
            skipSpace();
            int start = position;
            while (position < text.length() && Character.isDigit(text.charAt(position))) {
                position++;
            }
            if (start == position || position - start > 9) {
                throw error();
            }
            return Integer.parseInt(text.substring(start, position));
        }

        private void expect(char c) {
            skipSpace();
            if (peek() != c) {
                throw error();
            }
            position++;
        }

        private static boolean isIdentifierPart(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '$';
        }

        private char peek() {
            return position < text.length() ? text.charAt(position) : '\0';
        }

        private void skipSpace() {
            while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
                position++;
            }
        }

        private JsonPathException error() {
            return new JsonPathException(Math.max(1, position));
        }
    }
}
