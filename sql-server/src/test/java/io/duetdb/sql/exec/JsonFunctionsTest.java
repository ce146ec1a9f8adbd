package io.duetdb.sql.exec;

import static io.duetdb.sql.exec.QueryExecution.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** MySQL 8.0's documented answers for its JSON functions and operators, through the planner and executor. */
class JsonFunctionsTest {
    private static final String DOCUMENT = "(VALUES ('{\"id\": 14, \"name\": \"Aztalan\", \"tags\": [\"a\", \"b\"]}'))"
            + " AS t(c)";

    @Test
    void arrowsExtractAndUnquote() {
        assertThat(rows("SELECT c->'$.id', c->'$.name', c->>'$.name', c->'$.tags[1]', c->'$.missing' FROM "
                + DOCUMENT)).containsExactly("14|\"Aztalan\"|Aztalan|\"b\"|null");
        assertThat(rows("SELECT JSON_EXTRACT('[10, 20, [30, 40]]', '$[1]'), JSON_EXTRACT('[10, 20, [30, 40]]', '$[1]',"
                + " '$[0]'), JSON_EXTRACT('[10, 20, [30, 40]]', '$[2][*]')")).containsExactly("20|[20, 10]|[30, 40]");
        assertThat(rows("SELECT JSON_UNQUOTE('\"abc\"'), JSON_UNQUOTE('[1, 2]'), JSON_UNQUOTE(JSON_EXTRACT('{\"a\":"
                + " [1, 2]}', '$.a'))")).containsExactly("abc|[1, 2]|[1, 2]");
    }

    @Test
    void constructorsNestJsonAndQuoteText() {
        assertThat(rows("SELECT JSON_OBJECT('id', 87, 'name', 'carrot', 'list', JSON_ARRAY(1, 'x', NULL, TRUE)),"
                + " JSON_ARRAY('[1]', CAST('[1]' AS JSON)), JSON_OBJECT(), JSON_ARRAY()"))
                .containsExactly("{\"id\": 87, \"list\": [1, \"x\", null, true], \"name\": \"carrot\"}"
                        + "|[\"[1]\", [1]]|{}|[]");
        assertThat(rows("SELECT JSON_QUOTE('null'), JSON_QUOTE('\"null\"'), JSON_QUOTE('[1, 2, 3]')"))
                .containsExactly("\"null\"|\"\\\"null\\\"\"|\"[1, 2, 3]\"");
    }

    @Test
    void modifiersFollowMySqlsExamples() {
        String doc = "'{ \"a\": 1, \"b\": [2, 3]}'";
        assertThat(rows("SELECT JSON_SET(" + doc + ", '$.a', 10, '$.c', '[true, false]'), JSON_INSERT(" + doc
                + ", '$.a', 10, '$.c', '[true, false]'), JSON_REPLACE(" + doc + ", '$.a', 10, '$.c', '[true, false]')"))
                .containsExactly("{\"a\": 10, \"b\": [2, 3], \"c\": \"[true, false]\"}"
                        + "|{\"a\": 1, \"b\": [2, 3], \"c\": \"[true, false]\"}|{\"a\": 10, \"b\": [2, 3]}");
        assertThat(rows("SELECT JSON_REMOVE('[\"a\", [\"b\", \"c\"], \"d\"]', '$[1]'), JSON_ARRAY_APPEND('[\"a\","
                + " [\"b\", \"c\"], \"d\"]', '$[1]', 1), JSON_ARRAY_INSERT('[\"a\", {\"b\": [1, 2]}, [3, 4]]', '$[1]',"
                + " 'x')")).containsExactly("[\"a\", \"d\"]|[\"a\", [\"b\", \"c\", 1], \"d\"]"
                        + "|[\"a\", \"x\", {\"b\": [1, 2]}, [3, 4]]");
        assertThat(rows("SELECT JSON_MERGE_PRESERVE('[1, 2]', '[true, false]'), JSON_MERGE_PATCH('{\"a\": 1, \"b\": 2}',"
                + " '{\"b\": null, \"c\": 3}'), JSON_SET('[1]', '$[0]', NULL)"))
                .containsExactly("[1, 2, true, false]|{\"a\": 1, \"c\": 3}|[null]");
        assertThat(rows("SELECT JSON_SET(NULL, '$.a', 1), JSON_SET('{}', NULL, 1)")).containsExactly("null|null");
    }

    @Test
    void inspectorsAnswerAsMySql() {
        assertThat(rows("SELECT JSON_CONTAINS('{\"a\": 1, \"b\": 2, \"c\": {\"d\": 4}}', '1', '$.a'),"
                + " JSON_CONTAINS('{\"a\": 1, \"b\": 2, \"c\": {\"d\": 4}}', '{\"d\": 4}', '$.c'),"
                + " JSON_CONTAINS('[1, 2]', '3'), JSON_CONTAINS_PATH('{\"a\": 1, \"b\": 2}', 'one', '$.a', '$.e'),"
                + " JSON_CONTAINS_PATH('{\"a\": 1, \"b\": 2}', 'all', '$.a', '$.e')"))
                .containsExactly("1|1|0|1|0");
        assertThat(rows("SELECT JSON_LENGTH('[1, 2, {\"a\": 3}]'), JSON_LENGTH('{\"a\": 1, \"b\": {\"c\": 30}}', '$.b'),"
                + " JSON_DEPTH('[10, {\"a\": 20}]'), JSON_KEYS('{\"b\": 1, \"a\": 2}'), JSON_KEYS('[1]'),"
                + " JSON_TYPE('[1]'), JSON_TYPE(JSON_EXTRACT('{\"a\": 1.5}', '$.a')), JSON_VALID('{\"a\": 1}'),"
                + " JSON_VALID('hello'), JSON_VALID(NULL)"))
                .containsExactly("3|1|3|[\"a\", \"b\"]|null|ARRAY|DOUBLE|1|0|null");
        assertThat(rows("SELECT JSON_SEARCH('[\"abc\", [{\"k\": \"10\"}, \"def\"], {\"x\": \"abc\"}]', 'one', 'abc'),"
                + " JSON_SEARCH('[\"abc\", [{\"k\": \"10\"}, \"def\"], {\"x\": \"abc\"}]', 'all', 'abc'),"
                + " JSON_SEARCH('[\"abc\"]', 'all', 'zz'), JSON_SEARCH('[\"abc\", [{\"k\": \"10\"}]]', 'all', '1%')"))
                .containsExactly("\"$[0]\"|[\"$[0]\", \"$[2].x\"]|null|\"$[1][0].k\"");
        assertThat(rows("SELECT JSON_PRETTY('{\"a\": [1]}')")).containsExactly("{\n  \"a\": [\n    1\n  ]\n}");
    }

    @Test
    void aggregatesCollectTheGroupKeepingNulls() {
        String rows = "(VALUES (1, 'a', '[1]'), (1, NULL, '{\"x\": 2}'), (2, 'c', NULL)) AS t(g, v, d)";
        assertThat(rows("SELECT g, JSON_ARRAYAGG(v), JSON_OBJECTAGG(COALESCE(v, 'none'), g),"
                + " JSON_ARRAYAGG(CAST(d AS JSON)) FROM " + rows + " GROUP BY g ORDER BY g"))
                .containsExactly("1|[\"a\", null]|{\"a\": 1, \"none\": 1}|[[1], {\"x\": 2}]",
                        "2|[\"c\"]|{\"c\": 2}|[null]");
        assertThat(rows("SELECT JSON_ARRAYAGG(v) FROM " + rows + " WHERE g > 5")).containsExactly("null");
        assertThat(rows("SELECT JSON_ARRAYAGG(d->'$.x'), CONCAT(d->>'$.x', '!') FROM " + rows + " GROUP BY d->>'$.x'"
                + " ORDER BY 2")).containsExactly("[null, null]|null", "[2]|2!");
        assertError("SELECT JSON_OBJECTAGG(v, g) FROM " + rows, ErrorCode.JSON_DOCUMENT_NULL_KEY,
                "JSON documents may not contain NULL member names.");
    }

    @Test
    void comparisonsConvertTheOtherOperandToJson() {
        assertThat(rows("SELECT c->'$.name' = 'Aztalan', c->'$.id' = 14, c->'$.id' = '14', c->'$.id' < 15,"
                + " c->'$.id' > 'a', c->>'$.id' = '14' FROM " + DOCUMENT)).containsExactly("1|1|0|1|0|1");
        assertThat(rows("SELECT c FROM " + DOCUMENT + " WHERE c->'$.name' = 'Aztalan' AND c->'$.id' = 14"))
                .hasSize(1);
    }

    @Test
    void badDocumentsAndPathsGiveMySqlsErrors() {
        assertError("SELECT JSON_EXTRACT('{\"a\": 1,}', '$.a')", ErrorCode.INVALID_JSON_TEXT_IN_PARAM,
                "Invalid JSON text in argument 1 to function json_extract: \"Missing a name for object member.\" at"
                        + " position 8.");
        assertError("SELECT JSON_EXTRACT('[1]', 'a')", ErrorCode.INVALID_JSON_PATH,
                "Invalid JSON path expression. The error is around character position 1.");
        assertError("SELECT JSON_SET('[1]', '$[*]', 2)", ErrorCode.INVALID_JSON_PATH_WILDCARD,
                "In this situation, path expressions may not contain the * and ** tokens.");
        assertError("SELECT JSON_REMOVE('[1]', '$')", ErrorCode.JSON_VACUOUS_PATH,
                "The path expression '$' is not allowed in this context.");
        assertError("SELECT JSON_OBJECT('a')", ErrorCode.WRONG_PARAMETER_COUNT,
                "Incorrect parameter count in the call to native function 'json_object'");
        assertError("SELECT JSON_OBJECT(NULL, 1)", ErrorCode.JSON_DOCUMENT_NULL_KEY,
                "JSON documents may not contain NULL member names.");
        assertError("SELECT JSON_LENGTH(5)", ErrorCode.INVALID_TYPE_FOR_JSON, "Invalid data type for JSON data in"
                + " argument 1 to function json_length; a JSON string or JSON type is required.");
        assertError("SELECT JSON_CONTAINS_PATH('[]', 'some', '$')", ErrorCode.JSON_BAD_ONE_OR_ALL_ARG,
                "The oneOrAll argument to json_contains_path may take these values: 'one' or 'all'.");
        assertError("SELECT CAST('{' AS JSON)", ErrorCode.INVALID_JSON_TEXT_IN_PARAM,
                "Invalid JSON text in argument 1 to function cast_as_json: \"Missing a name for object member.\" at"
                        + " position 1.");
    }

    private static void assertError(String sql, ErrorCode code, String message) {
        assertThatThrownBy(() -> rows(sql)).isInstanceOfSatisfying(DuetException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
