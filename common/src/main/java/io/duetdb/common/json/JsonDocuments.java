package io.duetdb.common.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * MySQL's functions that change or combine JSON documents, on values of {@link Json}'s model. Each works on a
 * copy and returns the new document; the arguments are never changed.
 */
public final class JsonDocuments {
    /** How JSON_SET, JSON_INSERT and JSON_REPLACE treat a path that names a place with or without a value. */
    public enum Write {
        /** JSON_SET: replace or add. */
        SET(true, true),
        /** JSON_INSERT: add only. */
        INSERT(false, true),
        /** JSON_REPLACE: replace only. */
        REPLACE(true, false);

        private final boolean replaces;
        private final boolean adds;

        Write(boolean replaces, boolean adds) {
            this.replaces = replaces;
            this.adds = adds;
        }
    }

    private JsonDocuments() {
    }

    /** The document with {@code value} written at {@code path} as {@code write} allows. */
    @SuppressWarnings("unchecked")
    public static Object write(Object document, JsonPath path, Object value, Write write) {
        requireSinglePlace(path);
        if (path.legs().isEmpty()) {
            return write.replaces ? Json.copy(value) : document;
        }
        Object result = Json.copy(document);
        JsonPath.Leg last = path.legs().get(path.legs().size() - 1);
        Place parent = locate(result, path.legs().subList(0, path.legs().size() - 1));
        if (parent == null) {
            return result;
        }
        if (last instanceof JsonPath.Member member) {
            if (parent.value() instanceof Map<?, ?> object) {
                Map<String, Object> members = (Map<String, Object>) object;
                boolean present = members.containsKey(member.key());
                if (present ? write.replaces : write.adds) {
                    members.put(member.key(), Json.copy(value));
                }
            }
            return result;
        }
        JsonPath.Cell cell = (JsonPath.Cell) last;
        if (parent.value() instanceof List<?> list) {
            List<Object> array = (List<Object>) list;
            int index = cell.resolve(array.size());
            if (index >= 0 && index < array.size()) {
                if (write.replaces) {
                    array.set(index, Json.copy(value));
                }
            } else if (write.adds && index >= array.size()) {
                array.add(Json.copy(value));
            }
            return result;
        }
        int index = cell.resolve(1);
        if (index == 0 && write.replaces) {
            return parent.replace(result, Json.copy(value));
        } else if (index > 0 && write.adds) {
            return parent.replace(result, new ArrayList<>(List.of(parent.value(), Json.copy(value))));
        }
        return result;
    }

    /** JSON_REMOVE: the document without the value at {@code path}, if there is one. */
    @SuppressWarnings("unchecked")
    public static Object remove(Object document, JsonPath path) {
        requireSinglePlace(path);
        if (path.legs().isEmpty()) {
            throw new JsonPathUsageException(JsonPathUsageException.Problem.WHOLE_DOCUMENT);
        }
        Object result = Json.copy(document);
        JsonPath.Leg last = path.legs().get(path.legs().size() - 1);
        Place parent = locate(result, path.legs().subList(0, path.legs().size() - 1));
        if (parent == null) {
            return result;
        }
        if (last instanceof JsonPath.Member member && parent.value() instanceof Map<?, ?> object) {
            object.remove(member.key());
        } else if (last instanceof JsonPath.Cell cell && parent.value() instanceof List<?> list) {
            int index = cell.resolve(list.size());
            if (index >= 0 && index < list.size()) {
                ((List<Object>) list).remove(index);
            }
        }
        return result;
    }

    /** JSON_ARRAY_APPEND: the value appended to the array at {@code path}; a non-array there becomes one. */
    @SuppressWarnings("unchecked")
    public static Object arrayAppend(Object document, JsonPath path, Object value) {
        requireSinglePlace(path);
        Object result = Json.copy(document);
        Place target = locate(result, path.legs());
        if (target == null) {
            return result;
        }
        if (target.value() instanceof List<?> array) {
            ((List<Object>) array).add(Json.copy(value));
            return result;
        }
        return target.replace(result, new ArrayList<>(List.of(target.value(), Json.copy(value))));
    }

    /** JSON_ARRAY_INSERT: the value inserted at the array cell {@code path} names (appended past the end). */
    @SuppressWarnings("unchecked")
    public static Object arrayInsert(Object document, JsonPath path, Object value) {
        requireSinglePlace(path);
        if (path.legs().isEmpty() || !(path.legs().get(path.legs().size() - 1) instanceof JsonPath.Cell cell)) {
            throw new JsonPathUsageException(JsonPathUsageException.Problem.NOT_ARRAY_CELL);
        }
        Object result = Json.copy(document);
        Place parent = locate(result, path.legs().subList(0, path.legs().size() - 1));
        if (parent != null && parent.value() instanceof List<?> list) {
            List<Object> array = (List<Object>) list;
            int index = Math.max(0, cell.resolve(array.size()));
            array.add(Math.min(index, array.size()), Json.copy(value));
        }
        return result;
    }

    /** JSON_MERGE_PRESERVE: arrays joined, objects merged (values of a shared key merged in turn), scalars wrapped. */
    @SuppressWarnings("unchecked")
    public static Object mergePreserve(Object left, Object right) {
        if (left instanceof Map<?, ?> x && right instanceof Map<?, ?> y) {
            Map<String, Object> merged = (Map<String, Object>) Json.copy(x);
            for (Map.Entry<?, ?> member : y.entrySet()) {
                String key = (String) member.getKey();
                merged.put(key, merged.containsKey(key) ? mergePreserve(merged.get(key), member.getValue())
                        : Json.copy(member.getValue()));
            }
            return merged;
        }
        List<Object> merged = new ArrayList<>();
        addAll(merged, left);
        addAll(merged, right);
        return merged;
    }

    private static void addAll(List<Object> merged, Object value) {
        if (value instanceof List<?> array) {
            for (Object element : array) {
                merged.add(Json.copy(element));
            }
        } else {
            merged.add(Json.copy(value));
        }
    }

    /** JSON_MERGE_PATCH (RFC 7396): the patch's members replace the target's; a null member removes one. */
    @SuppressWarnings("unchecked")
    public static Object mergePatch(Object target, Object patch) {
        if (!(patch instanceof Map<?, ?> changes)) {
            return Json.copy(patch);
        }
        Map<String, Object> result = target instanceof Map<?, ?> object ? (Map<String, Object>) Json.copy(object)
                : Json.newObject();
        for (Map.Entry<?, ?> change : changes.entrySet()) {
            String key = (String) change.getKey();
            if (change.getValue() == JsonNull.NULL) {
                result.remove(key);
            } else {
                result.put(key, mergePatch(result.get(key), change.getValue()));
            }
        }
        return result;
    }

    /**
     * JSON_CONTAINS: whether the candidate is in the target. An array contains what any of its elements contains,
     * and an array candidate when it contains each of its elements; an object contains an object whose every member
     * it has, with a value that contains the candidate's; scalars contain equal scalars.
     */
    public static boolean contains(Object target, Object candidate) {
        if (target instanceof List<?> array) {
            if (candidate instanceof List<?> wanted) {
                for (Object element : wanted) {
                    if (!contains(target, element)) {
                        return false;
                    }
                }
                return true;
            }
            for (Object element : array) {
                if (contains(element, candidate)) {
                    return true;
                }
            }
            return false;
        }
        if (target instanceof Map<?, ?> object) {
            if (!(candidate instanceof Map<?, ?> wanted)) {
                return false;
            }
            for (Map.Entry<?, ?> member : wanted.entrySet()) {
                if (!object.containsKey(member.getKey()) || !contains(object.get(member.getKey()), member.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return !(candidate instanceof List<?> || candidate instanceof Map<?, ?>) && Json.equal(target, candidate);
    }

    /** JSON_KEYS: an object's keys as an array, null for any other value. */
    public static List<Object> keys(Object value) {
        if (!(value instanceof Map<?, ?> object)) {
            return null;
        }
        List<Object> keys = new ArrayList<>();
        for (Object key : object.keySet()) {
            keys.add(key);
        }
        return keys;
    }

    /**
     * JSON_SEARCH: the paths (as MySQL writes them, {@code $.a[1]}) of the strings under {@code within} that
     * {@code matches} accepts, in document order; only the first unless {@code all}.
     */
    public static List<String> search(Object document, JsonPath within, Predicate<String> matches, boolean all) {
        requireSinglePlace(within);
        List<String> found = new ArrayList<>();
        Place start = locate(document, within.legs());
        if (start != null) {
            StringBuilder path = new StringBuilder("$");
            for (JsonPath.Leg leg : within.legs()) {
                appendLeg(path, leg);
            }
            search(start.value(), path, matches, all, found);
        }
        return found;
    }

    private static boolean search(Object value, StringBuilder path, Predicate<String> matches, boolean all,
            List<String> found) {
        if (value instanceof String text && matches.test(text)) {
            found.add(path.toString());
            return !all;
        }
        int length = path.length();
        if (value instanceof Map<?, ?> object) {
            for (Map.Entry<?, ?> member : object.entrySet()) {
                appendLeg(path, new JsonPath.Member((String) member.getKey()));
                boolean done = search(member.getValue(), path, matches, all, found);
                path.setLength(length);
                if (done) {
                    return true;
                }
            }
        } else if (value instanceof List<?> array) {
            for (int i = 0; i < array.size(); i++) {
                path.append('[').append(i).append(']');
                boolean done = search(array.get(i), path, matches, all, found);
                path.setLength(length);
                if (done) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void appendLeg(StringBuilder path, JsonPath.Leg leg) {
        if (leg instanceof JsonPath.Member member) {
            String key = member.key();
            boolean plain = !key.isEmpty() && !Character.isDigit(key.charAt(0))
                    && key.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '$');
            path.append('.').append(plain ? key : Json.quote(key));
        } else if (leg instanceof JsonPath.Cell cell) {
            path.append('[').append(cell.fromLast() ? "last" + (cell.index() > 0 ? "-" + cell.index() : "")
                    : String.valueOf(cell.index())).append(']');
        }
    }

    private static void requireSinglePlace(JsonPath path) {
        if (path.hasWildcard()) {
            throw new JsonPathUsageException(JsonPathUsageException.Problem.WILDCARD);
        }
    }

    /**
     * Where a path without wildcards leads: the value, and the container and key or index it is held at (none for
     * the document itself). Null when the path names no value.
     */
    @SuppressWarnings("unchecked")
    private static Place locate(Object document, List<JsonPath.Leg> legs) {
        Place place = new Place(document, null, null);
        for (JsonPath.Leg leg : legs) {
            Object value = place.value();
            if (leg instanceof JsonPath.Member member) {
                if (!(value instanceof Map<?, ?> object) || !object.containsKey(member.key())) {
                    return null;
                }
                place = new Place(object.get(member.key()), object, member.key());
            } else {
                JsonPath.Cell cell = (JsonPath.Cell) leg;
                if (value instanceof List<?> array) {
                    int index = cell.resolve(array.size());
                    if (index < 0 || index >= array.size()) {
                        return null;
                    }
                    place = new Place(array.get(index), array, index);
                } else if (cell.resolve(1) != 0) {
                    return null;
                }
            }
        }
        return place;
    }

    private record Place(Object value, Object container, Object slot) {
        /** The document with this place's value replaced; the document itself when the place is its root. */
        @SuppressWarnings("unchecked")
        Object replace(Object document, Object replacement) {
            if (container == null) {
                return replacement;
            }
            if (container instanceof Map<?, ?> object) {
                ((Map<String, Object>) object).put((String) slot, replacement);
            } else {
                ((List<Object>) container).set((Integer) slot, replacement);
            }
            return document;
        }
    }
}
