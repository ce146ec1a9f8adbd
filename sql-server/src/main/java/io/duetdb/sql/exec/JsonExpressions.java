package io.duetdb.sql.exec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.json.Json;
import io.duetdb.common.json.JsonDocuments;
import io.duetdb.common.json.JsonNull;
import io.duetdb.common.json.JsonParser;
import io.duetdb.common.json.JsonPath;
import io.duetdb.common.json.JsonPathException;
import io.duetdb.common.json.JsonPathUsageException;
import io.duetdb.common.json.JsonSortKey;
import io.duetdb.common.json.JsonSyntaxException;
import io.duetdb.compute.LikePatterns;
import io.duetdb.sql.prepare.JsonTypes;

/**
 * MySQL's JSON functions over the executor's values. A JSON value travels as its text in normal form; an argument
 * of JSON type (a JSON column, another JSON function) is read as the document it is, any other string as text to
 * parse where a document is expected and as a JSON string where a value is (JSON_ARRAY('[1]') holds a string).
 */
final class JsonExpressions {
    private final String function;
    private final List<RowExpression> operands;
    private final boolean[] jsonOperand;
    private final boolean[] booleanOperand;

    private JsonExpressions(String function, List<RowExpression> operands, List<RelDataType> types) {
        this.function = function.toLowerCase(Locale.ROOT);
        this.operands = operands;
        this.jsonOperand = new boolean[types.size()];
        this.booleanOperand = new boolean[types.size()];
        for (int i = 0; i < types.size(); i++) {
            jsonOperand[i] = JsonTypes.isJson(types.get(i));
            booleanOperand[i] = types.get(i).getSqlTypeName() == SqlTypeName.BOOLEAN;
        }
    }

    /** The function's evaluation, or null when {@code name} is no JSON function. */
    static RowExpression compile(String name, List<RowExpression> operands, List<RelDataType> types) {
        JsonExpressions json = new JsonExpressions(name, operands, types);
        int count = operands.size();
        return switch (name) {
            case "CAST_AS_JSON" -> json.strict(args -> Json.write(json.jsonOperand[0] || args[0] instanceof String
                    ? json.document(args[0], 0) : json.value(args[0], 0)));
            case "JSON_EXTRACT" -> json.strict(json::extract);
            case "JSON_UNQUOTE" -> json.strict(json::unquote);
            case "JSON_QUOTE" -> json.strict(args -> Json.quote(Values.toText(args[0])));
            case "JSON_OBJECT" -> {
                json.requireCount(count % 2 == 0);
                yield json.lenient(json::object);
            }
            case "JSON_ARRAY" -> json.lenient(args -> {
                List<Object> array = new ArrayList<>();
                for (int i = 0; i < args.length; i++) {
                    array.add(json.value(args[i], i));
                }
                return Json.write(array);
            });
            case "JSON_CONTAINS" -> json.strict(json::contains);
            case "JSON_MEMBER_OF" -> json.strict(json::memberOf);
            case "JSON_CONTAINS_PATH" -> json.strict(json::containsPath);
            case "JSON_SET", "JSON_INSERT", "JSON_REPLACE" -> {
                json.requireCount(count % 2 == 1);
                JsonDocuments.Write write = JsonDocuments.Write.valueOf(name.substring("JSON_".length()));
                yield json.documentAndPaths(args -> json.write(args, write));
            }
            case "JSON_ARRAY_APPEND", "JSON_ARRAY_INSERT" -> {
                json.requireCount(count % 2 == 1);
                yield json.documentAndPaths(args -> json.arrayWrite(args, name.equals("JSON_ARRAY_APPEND")));
            }
            case "JSON_REMOVE" -> json.strict(args -> {
                Object document = json.document(args[0], 0);
                for (int i = 1; i < args.length; i++) {
                    document = JsonDocuments.remove(document, json.path(args[i]));
                }
                return Json.write(document);
            });
            case "JSON_MERGE_PRESERVE", "JSON_MERGE", "JSON_MERGE_PATCH" -> json.strict(args -> {
                Object merged = json.document(args[0], 0);
                for (int i = 1; i < args.length; i++) {
                    Object next = json.document(args[i], i);
                    merged = name.equals("JSON_MERGE_PATCH") ? JsonDocuments.mergePatch(merged, next)
                            : JsonDocuments.mergePreserve(merged, next);
                }
                return Json.write(merged);
            });
            case "JSON_LENGTH" -> json.strict(args -> {
                Object target = json.at(args);
                return target == null ? null : (long) Json.length(target);
            });
            case "JSON_DEPTH" -> json.strict(args -> (long) Json.depth(json.document(args[0], 0)));
            case "JSON_KEYS" -> json.strict(args -> {
                Object target = json.at(args);
                List<Object> keys = target == null ? null : JsonDocuments.keys(target);
                return keys == null ? null : Json.write(keys);
            });
            case "JSON_TYPE" -> json.strict(args -> Json.typeName(json.document(args[0], 0)));
            case "JSON_SORT_KEY" -> json.strict(args -> JsonSortKey.of(json.document(args[0], 0)));
            case "JSON_VALID" -> json.strict(args -> json.jsonOperand[0]
                    || args[0] instanceof String text && JsonParser.isValid(text) ? 1L : 0L);
            case "JSON_PRETTY" -> json.strict(args -> Json.pretty(json.document(args[0], 0)));
            case "JSON_SEARCH" -> json.searchExpression();
            default -> null;
        };
    }

    private void requireCount(boolean valid) {
        if (!valid) {
            throw new DuetException(ErrorCode.WRONG_PARAMETER_COUNT,
                    "Incorrect parameter count in the call to native function '" + function + "'");
        }
    }

    /** NULL when any argument is. */
    private RowExpression strict(Function<Object[], Object> body) {
        return evaluating(index -> true, body);
    }

    /** Every argument as it is, NULL included. */
    private RowExpression lenient(Function<Object[], Object> body) {
        return evaluating(index -> false, body);
    }

    /** NULL when the document or a path is; the values written may be NULL (JSON null). */
    private RowExpression documentAndPaths(Function<Object[], Object> body) {
        return evaluating(index -> index == 0 || index % 2 == 1, body);
    }

    /** The body over the evaluated arguments; NULL at once when an argument {@code nullMeansNull} names is. */
    private RowExpression evaluating(IntPredicate nullMeansNull, Function<Object[], Object> body) {
        return row -> {
            Object[] args = new Object[operands.size()];
            for (int i = 0; i < args.length; i++) {
                args[i] = operands.get(i).evaluate(row);
                if (args[i] == null && nullMeansNull.test(i)) {
                    return null;
                }
            }
            return apply(body, args);
        };
    }

    private static Object apply(Function<Object[], Object> body, Object[] args) {
        try {
            return body.apply(args);
        } catch (JsonPathUsageException e) {
            throw usageError(e);
        }
    }

    private Object extract(Object[] args) {
        Object document = document(args[0], 0);
        List<Object> found = new ArrayList<>();
        boolean wrap = args.length > 2;
        for (int i = 1; i < args.length; i++) {
            JsonPath path = path(args[i]);
            wrap |= path.hasWildcard();
            found.addAll(path.evaluate(document));
        }
        if (found.isEmpty()) {
            return null;
        }
        return Json.write(wrap ? found : found.get(0));
    }

    private Object unquote(Object[] args) {
        if (jsonOperand[0]) {
            Object value = document(args[0], 0);
            return value instanceof String text ? text : Json.write(value);
        }
        String text = Values.toText(args[0]);
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            return parse(text, 0);
        }
        return text;
    }

    private Object object(Object[] args) {
        Map<String, Object> object = Json.newObject();
        for (int i = 0; i < args.length; i += 2) {
            if (args[i] == null) {
                throw new DuetException(ErrorCode.JSON_DOCUMENT_NULL_KEY,
                        "JSON documents may not contain NULL member names.");
            }
            object.put(Values.toText(args[i]), value(args[i + 1], i + 1));
        }
        return Json.write(object);
    }

    /** {@code value MEMBER OF (array)}: whether an element of the array (or a lone document itself) equals the value. */
    private Object memberOf(Object[] args) {
        Object candidate = value(args[0], 0);
        Object document = document(args[1], 1);
        if (document instanceof List<?> elements) {
            for (Object element : elements) {
                if (Json.equal(candidate, element)) {
                    return 1L;
                }
            }
            return 0L;
        }
        return Json.equal(candidate, document) ? 1L : 0L;
    }

    private Object contains(Object[] args) {
        Object target = document(args[0], 0);
        Object candidate = document(args[1], 1);
        if (args.length > 2) {
            List<Object> found = singlePlace(path(args[2])).evaluate(target);
            if (found.isEmpty()) {
                return null;
            }
            target = found.get(0);
        }
        return JsonDocuments.contains(target, candidate) ? 1L : 0L;
    }

    private Object containsPath(Object[] args) {
        Object document = document(args[0], 0);
        boolean all = oneOrAll(args[1]);
        for (int i = 2; i < args.length; i++) {
            boolean present = !path(args[i]).evaluate(document).isEmpty();
            if (present != all) {
                return present ? 1L : 0L;
            }
        }
        return all ? 1L : 0L;
    }

    private boolean oneOrAll(Object value) {
        String mode = Values.toText(value).toLowerCase(Locale.ROOT);
        if (!mode.equals("one") && !mode.equals("all")) {
            throw new DuetException(ErrorCode.JSON_BAD_ONE_OR_ALL_ARG, "The oneOrAll argument to " + function
                    + " may take these values: 'one' or 'all'.");
        }
        return mode.equals("all");
    }

    private Object write(Object[] args, JsonDocuments.Write write) {
        Object document = document(args[0], 0);
        for (int i = 1; i < args.length; i += 2) {
            document = JsonDocuments.write(document, path(args[i]), value(args[i + 1], i + 1), write);
        }
        return Json.write(document);
    }

    private Object arrayWrite(Object[] args, boolean append) {
        Object document = document(args[0], 0);
        for (int i = 1; i < args.length; i += 2) {
            JsonPath path = path(args[i]);
            Object value = value(args[i + 1], i + 1);
            document = append ? JsonDocuments.arrayAppend(document, path, value)
                    : JsonDocuments.arrayInsert(document, path, value);
        }
        return Json.write(document);
    }

    /** The value at the optional path argument (JSON_LENGTH, JSON_KEYS); null when the path names none. */
    private Object at(Object[] args) {
        Object document = document(args[0], 0);
        if (args.length < 2) {
            return document;
        }
        List<Object> found = singlePlace(path(args[1])).evaluate(document);
        return found.isEmpty() ? null : found.get(0);
    }

    /** JSON_SEARCH(document, 'one' | 'all', pattern [, escape [, path ...]]): NULL when any is but the escape. */
    private RowExpression searchExpression() {
        return lenient(args -> {
            for (int i = 0; i < args.length; i++) {
                if (args[i] == null && i != 3) {
                    return null;
                }
            }
            Object document = document(args[0], 0);
            boolean all = oneOrAll(args[1]);
            String escape = args.length > 3 && args[3] != null ? Values.toText(args[3]) : "\\";
            String pattern = Values.toText(args[2]);
            if (!escape.isEmpty() && !escape.equals("\\")) {
                pattern = pattern.replace("\\", "\\\\").replace(escape.substring(0, 1), "\\");
            }
            Pattern like = LikePatterns.compile(pattern);
            List<String> found = new ArrayList<>();
            if (args.length <= 4) {
                found.addAll(JsonDocuments.search(document, JsonPath.parse("$"), text -> like.matcher(text).matches(),
                        all));
            }
            for (int i = 4; i < args.length && (all || found.isEmpty()); i++) {
                found.addAll(JsonDocuments.search(document, path(args[i]), text -> like.matcher(text).matches(),
                        all));
            }
            if (found.isEmpty()) {
                return null;
            }
            return found.size() == 1 || !all ? Json.quote(found.get(0)) : Json.write(new ArrayList<Object>(found));
        });
    }

    /** A document argument: a JSON value, or text that must be one. */
    private Object document(Object value, int index) {
        if (value instanceof String text) {
            return parse(text, index);
        }
        throw new DuetException(ErrorCode.INVALID_TYPE_FOR_JSON, "Invalid data type for JSON data in argument "
                + (index + 1) + " to function " + function + "; a JSON string or JSON type is required.");
    }

    private Object parse(String text, int index) {
        try {
            return JsonParser.parse(text);
        } catch (JsonSyntaxException e) {
            throw new DuetException(ErrorCode.INVALID_JSON_TEXT_IN_PARAM, "Invalid JSON text in argument "
                    + (index + 1) + " to function " + function + ": \"" + e.reason() + "\" at position "
                    + e.position() + ".");
        }
    }

    /** A value argument: a JSON argument as the document it is, SQL values as the JSON scalars they make. */
    private Object value(Object value, int index) {
        return toJson(value, jsonOperand[index], booleanOperand[index], function, index + 1);
    }

    /** A value of a JSON type (read as the document it is) or of another type (the JSON scalar it makes). */
    static Object toJson(Object value, boolean isJson, boolean isBoolean, String function, int argument) {
        if (value == null) {
            return JsonNull.NULL;
        }
        if (isJson) {
            try {
                return JsonParser.parse(Values.toText(value));
            } catch (JsonSyntaxException e) {
                throw new DuetException(ErrorCode.INVALID_JSON_TEXT_IN_PARAM, "Invalid JSON text in argument "
                        + argument + " to function " + function + ": \"" + e.reason() + "\" at position "
                        + e.position() + ".");
            }
        }
        return scalar(value, isBoolean);
    }

    static Object scalar(Object value, boolean isBoolean) {
        if (value instanceof Boolean || value instanceof String || value instanceof Long
                || value instanceof BigDecimal || value instanceof BigInteger) {
            return value;
        }
        if (isBoolean && value instanceof Number number) {
            return number.longValue() != 0;
        }
        if (value instanceof Double || value instanceof Float) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof byte[] bytes) {
            return "base64:type15:" + Base64.getEncoder().encodeToString(bytes);
        }
        return Values.toText(value);
    }

    private JsonPath path(Object value) {
        try {
            return JsonPath.parse(Values.toText(value));
        } catch (JsonPathException e) {
            throw new DuetException(ErrorCode.INVALID_JSON_PATH, e.getMessage());
        }
    }

    private static JsonPath singlePlace(JsonPath path) {
        if (path.hasWildcard()) {
            throw usageError(new JsonPathUsageException(JsonPathUsageException.Problem.WILDCARD));
        }
        return path;
    }

    static DuetException usageError(JsonPathUsageException e) {
        ErrorCode code = switch (e.problem()) {
            case WILDCARD -> ErrorCode.INVALID_JSON_PATH_WILDCARD;
            case WHOLE_DOCUMENT -> ErrorCode.JSON_VACUOUS_PATH;
            case NOT_ARRAY_CELL -> ErrorCode.INVALID_JSON_PATH_ARRAY_CELL;
        };
        return new DuetException(code, e.getMessage());
    }
}
