package io.duetdb.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

/** MySQL 8.0's documented answers for its JSON functions, on the model the SQL layer evaluates them with. */
class JsonTest {
    private static String normal(String text) {
        return Json.write(JsonParser.parse(text));
    }

    private static String extract(String document, String path) {
        List<Object> found = JsonPath.parse(path).evaluate(JsonParser.parse(document));
        JsonPath parsed = JsonPath.parse(path);
        if (!parsed.hasWildcard()) {
            return found.isEmpty() ? null : Json.write(found.get(0));
        }
        return found.isEmpty() ? null : Json.write(found);
    }

    @Test
    void textIsWrittenInMySqlsNormalForm() {
        assertThat(normal("{\"b\":1,\"a\" : [1,2,{}], \"aa\": null}")).isEqualTo("{\"a\": [1, 2, {}], \"b\": 1, \"aa\": null}");
        assertThat(normal("{\"x\": 1, \"x\": 2}")).isEqualTo("{\"x\": 2}");
        assertThat(normal(" [true, false, null, \"q\\\"\\n\\u0041\"] ")).isEqualTo("[true, false, null, \"q\\\"\\nA\"]");
        assertThat(normal("[1.5, 3.0, 1e20, -0.25, 1.5e-7]")).isEqualTo("[1.5, 3.0, 1e20, -0.25, 1.5e-7]");
        assertThat(normal("[18446744073709551615, -9223372036854775808]"))
                .isEqualTo("[18446744073709551615, -9223372036854775808]");
        assertThat(Json.pretty(JsonParser.parse("{\"a\": [1, 2], \"b\": {}}")))
                .isEqualTo("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
    }

    @Test
    void numbersKeepTheirTypes() {
        assertThat(JsonParser.parse("7")).isEqualTo(7L);
        assertThat(JsonParser.parse("18446744073709551615")).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(JsonParser.parse("2.5")).isEqualTo(2.5);
        assertThat(Json.typeName(JsonParser.parse("7"))).isEqualTo("INTEGER");
        assertThat(Json.typeName(JsonParser.parse("1e2"))).isEqualTo("DOUBLE");
        assertThat(Json.typeName(new BigDecimal("1.50"))).isEqualTo("DECIMAL");
        assertThat(Json.write(List.of(new BigDecimal("1.50")))).isEqualTo("[1.50]");
    }

    @Test
    void invalidTextIsReportedWithRapidJsonsMessageAndPosition() {
        assertThatThrownBy(() -> JsonParser.parse("{\"a\": 1,}")).isInstanceOf(JsonSyntaxException.class)
                .hasMessage("Missing a name for object member. at position 8");
        assertThatThrownBy(() -> JsonParser.parse("[1 2]")).hasMessage(
                "Missing a comma or ']' after an array element. at position 3");
        assertThatThrownBy(() -> JsonParser.parse("")).hasMessage("The document is empty. at position 0");
        assertThatThrownBy(() -> JsonParser.parse("abc")).hasMessage("Invalid value. at position 0");
        assertThatThrownBy(() -> JsonParser.parse("1 2")).hasMessage(
                "The document root must not be followed by other values. at position 2");
        assertThat(JsonParser.isValid("{\"a\": [1, {\"b\": null}]}")).isTrue();
        assertThat(JsonParser.isValid("{'a': 1}")).isFalse();
    }

    @Test
    void pathsSelectAsMySqlDoes() {
        String document = "{\"a\": 1, \"b\": [2, 3, {\"c\": 4}], \"d e\": 5}";
        assertThat(extract(document, "$.a")).isEqualTo("1");
        assertThat(extract(document, "$.b[1]")).isEqualTo("3");
        assertThat(extract(document, "$.b[last]")).isEqualTo("{\"c\": 4}");
        assertThat(extract(document, "$.b[last-1]")).isEqualTo("3");
        assertThat(extract(document, "$.b[0 to 1]")).isEqualTo("[2, 3]");
        assertThat(extract(document, "$.\"d e\"")).isEqualTo("5");
        assertThat(extract(document, "$.missing")).isNull();
        assertThat(extract(document, "$.a[0]")).isEqualTo("1");
        assertThat(extract(document, "$.*")).isEqualTo("[1, [2, 3, {\"c\": 4}], 5]");
        assertThat(extract(document, "$.b[*]")).isEqualTo("[2, 3, {\"c\": 4}]");
        assertThat(extract(document, "$**.c")).isEqualTo("[4]");
        assertThat(extract("[1, [2, [3]]]", "$[1][1][0]")).isEqualTo("3");
    }

    @Test
    void malformedPathsNameThePosition() {
        assertThatThrownBy(() -> JsonPath.parse("a.b")).isInstanceOf(JsonPathException.class)
                .hasMessage("Invalid JSON path expression. The error is around character position 1.");
        assertThatThrownBy(() -> JsonPath.parse("$.a[")).isInstanceOf(JsonPathException.class);
        assertThatThrownBy(() -> JsonPath.parse("$**")).isInstanceOf(JsonPathException.class);
        assertThatThrownBy(() -> JsonPath.parse("$.1a")).isInstanceOf(JsonPathException.class);
    }

    private static String write(String document, String path, String value, JsonDocuments.Write write) {
        return Json.write(JsonDocuments.write(JsonParser.parse(document), JsonPath.parse(path),
                JsonParser.parse(value), write));
    }

    @Test
    void setInsertAndReplaceFollowMySqlsExamples() {
        String document = "{ \"a\": 1, \"b\": [2, 3]}";
        assertThat(write(document, "$.a", "10", JsonDocuments.Write.SET)).isEqualTo("{\"a\": 10, \"b\": [2, 3]}");
        assertThat(write(document, "$.c", "\"[true, false]\"", JsonDocuments.Write.SET))
                .isEqualTo("{\"a\": 1, \"b\": [2, 3], \"c\": \"[true, false]\"}");
        assertThat(write(document, "$.a", "10", JsonDocuments.Write.INSERT)).isEqualTo("{\"a\": 1, \"b\": [2, 3]}");
        assertThat(write(document, "$.c", "10", JsonDocuments.Write.REPLACE)).isEqualTo("{\"a\": 1, \"b\": [2, 3]}");
        assertThat(write(document, "$.b[5]", "4", JsonDocuments.Write.SET)).isEqualTo("{\"a\": 1, \"b\": [2, 3, 4]}");
        assertThat(write(document, "$.a[1]", "4", JsonDocuments.Write.INSERT)).isEqualTo("{\"a\": [1, 4], \"b\": [2, 3]}");
        assertThat(write(document, "$.a[0]", "4", JsonDocuments.Write.REPLACE)).isEqualTo("{\"a\": 4, \"b\": [2, 3]}");
        // Equal small numbers are distinct places: the second 1 is the one written.
        assertThat(write("[1, 1]", "$[1][1]", "2", JsonDocuments.Write.SET)).isEqualTo("[1, [1, 2]]");
        assertThatThrownBy(() -> write(document, "$.*", "1", JsonDocuments.Write.SET))
                .isInstanceOf(JsonPathUsageException.class);
    }

    @Test
    void removeAppendInsertAndMerge() {
        Object document = JsonParser.parse("[\"a\", [\"b\", \"c\"], \"d\"]");
        assertThat(Json.write(JsonDocuments.remove(document, JsonPath.parse("$[1]")))).isEqualTo("[\"a\", \"d\"]");
        assertThat(Json.write(document)).isEqualTo("[\"a\", [\"b\", \"c\"], \"d\"]");
        assertThatThrownBy(() -> JsonDocuments.remove(document, JsonPath.parse("$")))
                .isInstanceOf(JsonPathUsageException.class);
        assertThat(Json.write(JsonDocuments.arrayAppend(document, JsonPath.parse("$[0]"), 1L)))
                .isEqualTo("[[\"a\", 1], [\"b\", \"c\"], \"d\"]");
        assertThat(Json.write(JsonDocuments.arrayAppend(document, JsonPath.parse("$[1]"), 2L)))
                .isEqualTo("[\"a\", [\"b\", \"c\", 2], \"d\"]");
        assertThat(Json.write(JsonDocuments.arrayInsert(document, JsonPath.parse("$[1]"), "x")))
                .isEqualTo("[\"a\", \"x\", [\"b\", \"c\"], \"d\"]");
        assertThat(Json.write(JsonDocuments.arrayInsert(document, JsonPath.parse("$[100]"), "x")))
                .isEqualTo("[\"a\", [\"b\", \"c\"], \"d\", \"x\"]");
        assertThat(Json.write(JsonDocuments.mergePreserve(JsonParser.parse("{\"a\": 1, \"b\": 2}"),
                JsonParser.parse("{\"a\": 3, \"c\": 4}")))).isEqualTo("{\"a\": [1, 3], \"b\": 2, \"c\": 4}");
        assertThat(Json.write(JsonDocuments.mergePreserve(JsonParser.parse("[1, 2]"), JsonParser.parse("true"))))
                .isEqualTo("[1, 2, true]");
        assertThat(Json.write(JsonDocuments.mergePatch(JsonParser.parse("{\"a\": 1, \"b\": 2}"),
                JsonParser.parse("{\"a\": 3, \"b\": null, \"c\": 4}")))).isEqualTo("{\"a\": 3, \"c\": 4}");
    }

    @Test
    void containsAndCompare() {
        Object target = JsonParser.parse("{\"a\": 1, \"b\": 2, \"c\": {\"d\": 4}}");
        assertThat(JsonDocuments.contains(target, JsonParser.parse("{\"a\": 1}"))).isTrue();
        assertThat(JsonDocuments.contains(target, JsonParser.parse("{\"a\": 1, \"c\": {\"d\": 4}}"))).isTrue();
        assertThat(JsonDocuments.contains(target, JsonParser.parse("{\"a\": 2}"))).isFalse();
        assertThat(JsonDocuments.contains(JsonParser.parse("[1, 2, [3, 4]]"), JsonParser.parse("[1, 3]"))).isTrue();
        assertThat(JsonDocuments.contains(JsonParser.parse("[1, 2]"), JsonParser.parse("1.0"))).isTrue();
        assertThat(JsonDocuments.contains(JsonParser.parse("1"), JsonParser.parse("[1]"))).isFalse();
        assertThat(Json.compare(1L, 1.0)).isZero();
        assertThat(Json.compare(JsonNull.NULL, 0L)).isNegative();
        assertThat(Json.compare(99L, "a")).isNegative();
        assertThat(Json.compare("b", JsonParser.parse("[]"))).isNegative();
        assertThat(Json.compare(JsonParser.parse("[1, 2]"), JsonParser.parse("[1, 2, 0]"))).isNegative();
        assertThat(Json.compare(false, true)).isNegative();
        assertThat(Json.depth(JsonParser.parse("[10, {\"a\": 20}]"))).isEqualTo(3);
        assertThat(Json.length(JsonParser.parse("{\"a\": 1, \"b\": {\"c\": 30}}"))).isEqualTo(2);
        assertThat(JsonDocuments.keys(JsonParser.parse("{\"b\": 1, \"a\": 2}"))).containsExactly("a", "b");
    }
}
