package io.duetdb.sql.prepare;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * MySQL's JSON functions, typed as MySQL types them; the executor evaluates them ({@code exec.JsonExpressions}).
 * The grammar reads {@code doc->'path'} as JSON_EXTRACT and {@code doc->>'path'} as JSON_UNQUOTE of it.
 */
public final class JsonFunctions {
    private static final SqlReturnTypeInference NULLABLE_BIGINT = ReturnTypes.BIGINT.andThen(
            SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlReturnTypeInference NULLABLE_TEXT = ReturnTypes.explicit(SqlTypeName.VARCHAR)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);

    /** CAST(x AS JSON), which the planner rewrites into this call (MySQL's name for it in its messages). */
    public static final SqlFunction CAST_AS_JSON = function("CAST_AS_JSON", JsonTypes.NULLABLE_JSON, OperandTypes.ANY);
    public static final SqlFunction JSON_EXTRACT = function("JSON_EXTRACT", JsonTypes.NULLABLE_JSON, atLeast(2));
    public static final SqlFunction JSON_UNQUOTE = function("JSON_UNQUOTE", NULLABLE_TEXT, OperandTypes.ANY);
    public static final SqlFunction JSON_QUOTE = function("JSON_QUOTE", NULLABLE_TEXT, OperandTypes.ANY);
    public static final SqlFunction JSON_OBJECT = function("JSON_OBJECT", JsonTypes.JSON, atLeast(0));
    public static final SqlFunction JSON_ARRAY = function("JSON_ARRAY", JsonTypes.JSON, atLeast(0));
    public static final SqlFunction JSON_CONTAINS = function("JSON_CONTAINS", NULLABLE_BIGINT, between(2, 3));
    /** {@code value MEMBER OF (json_array)}, which the planner rewrites into this call from Calcite's MEMBER OF. */
    public static final SqlFunction JSON_MEMBER_OF = function("JSON_MEMBER_OF", NULLABLE_BIGINT, OperandTypes.ANY_ANY);
    public static final SqlFunction JSON_CONTAINS_PATH = function("JSON_CONTAINS_PATH", NULLABLE_BIGINT, atLeast(3));
    public static final SqlFunction JSON_SET = function("JSON_SET", JsonTypes.NULLABLE_JSON, atLeast(3));
    public static final SqlFunction JSON_INSERT = function("JSON_INSERT", JsonTypes.NULLABLE_JSON, atLeast(3));
    public static final SqlFunction JSON_REPLACE = function("JSON_REPLACE", JsonTypes.NULLABLE_JSON, atLeast(3));
    public static final SqlFunction JSON_REMOVE = function("JSON_REMOVE", JsonTypes.NULLABLE_JSON, atLeast(2));
    public static final SqlFunction JSON_ARRAY_APPEND = function("JSON_ARRAY_APPEND", JsonTypes.NULLABLE_JSON,
            atLeast(3));
    public static final SqlFunction JSON_ARRAY_INSERT = function("JSON_ARRAY_INSERT", JsonTypes.NULLABLE_JSON,
            atLeast(3));
    public static final SqlFunction JSON_MERGE_PRESERVE = function("JSON_MERGE_PRESERVE", JsonTypes.NULLABLE_JSON,
            atLeast(2));
    /** The old name of JSON_MERGE_PRESERVE, deprecated in MySQL 8.0 but still answered. */
    public static final SqlFunction JSON_MERGE = function("JSON_MERGE", JsonTypes.NULLABLE_JSON, atLeast(2));
    public static final SqlFunction JSON_MERGE_PATCH = function("JSON_MERGE_PATCH", JsonTypes.NULLABLE_JSON,
            atLeast(2));
    public static final SqlFunction JSON_LENGTH = function("JSON_LENGTH", NULLABLE_BIGINT, between(1, 2));
    public static final SqlFunction JSON_DEPTH = function("JSON_DEPTH", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction JSON_KEYS = function("JSON_KEYS", JsonTypes.NULLABLE_JSON, between(1, 2));
    public static final SqlFunction JSON_TYPE = function("JSON_TYPE", NULLABLE_TEXT, OperandTypes.ANY);
    public static final SqlFunction JSON_VALID = function("JSON_VALID", NULLABLE_BIGINT, OperandTypes.ANY);
    public static final SqlFunction JSON_PRETTY = function("JSON_PRETTY", NULLABLE_TEXT, OperandTypes.ANY);
    public static final SqlFunction JSON_SEARCH = function("JSON_SEARCH", JsonTypes.NULLABLE_JSON, atLeast(3));

    /**
     * The bytes a sort by a JSON value compares ({@code JsonSortKey}), in MySQL's JSON order; the planner sorts by it
     * for ORDER BY a JSON expression, and no statement can name it.
     */
    public static final SqlFunction JSON_SORT_KEY = function("JSON_SORT_KEY", ReturnTypes.explicit(SqlTypeName.VARBINARY)
            .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.ANY);

    /** JSON_ARRAYAGG(x): the group's values as an array, NULLs as JSON null; NULL for no rows. */
    public static final SqlAggFunction JSON_ARRAYAGG = SqlBasicAggFunction.create("JSON_ARRAYAGG",
            SqlKind.OTHER_FUNCTION, JsonTypes.NULLABLE_JSON, OperandTypes.ANY);
    /** JSON_OBJECTAGG(key, value): the group's pairs as an object, the last value of a key winning. */
    public static final SqlAggFunction JSON_OBJECTAGG = SqlBasicAggFunction.create("JSON_OBJECTAGG",
            SqlKind.OTHER_FUNCTION, JsonTypes.NULLABLE_JSON, OperandTypes.ANY_ANY);

    static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(JSON_ARRAYAGG, JSON_OBJECTAGG, CAST_AS_JSON,
            JSON_EXTRACT, JSON_UNQUOTE, JSON_QUOTE,
            JSON_OBJECT, JSON_ARRAY, JSON_CONTAINS, JSON_MEMBER_OF, JSON_CONTAINS_PATH, JSON_SET, JSON_INSERT, JSON_REPLACE,
            JSON_REMOVE, JSON_ARRAY_APPEND, JSON_ARRAY_INSERT, JSON_MERGE_PRESERVE, JSON_MERGE, JSON_MERGE_PATCH,
            JSON_LENGTH, JSON_DEPTH, JSON_KEYS, JSON_TYPE, JSON_VALID, JSON_PRETTY, JSON_SEARCH);

    private JsonFunctions() {
    }

    private static SqlOperandTypeChecker atLeast(int count) {
        return OperandTypes.repeat(SqlOperandCountRanges.from(count), OperandTypes.ANY);
    }

    private static SqlOperandTypeChecker between(int min, int max) {
        return OperandTypes.repeat(SqlOperandCountRanges.between(min, max), OperandTypes.ANY);
    }

    private static SqlFunction function(String name, SqlReturnTypeInference returnType,
            SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, SqlFunctionCategory.SYSTEM);
    }
}
