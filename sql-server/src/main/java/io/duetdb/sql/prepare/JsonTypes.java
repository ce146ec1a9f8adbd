package io.duetdb.sql.prepare;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * MySQL's JSON type as Calcite sees it: a character string with a collation of its own, so that the type survives
 * validation and planning (columns, function results) and the executor can tell JSON from other text: JSON_ARRAY
 * nests a JSON argument, where it would quote a string. The collation is coercible, so JSON compares with any text.
 */
public final class JsonTypes {
    private static final String COLLATION_NAME = "UTF-8$json$primary";
    private static final SqlCollation COLLATION = new JsonCollation();

    /** The type of a JSON function's result, NULL when an argument is. */
    public static final SqlReturnTypeInference NULLABLE_JSON = binding -> json(binding.getTypeFactory(), true);
    /** The type of JSON_OBJECT and JSON_ARRAY, never NULL. */
    public static final SqlReturnTypeInference JSON = binding -> json(binding.getTypeFactory(), false);

    private JsonTypes() {
    }

    public static RelDataType json(RelDataTypeFactory factory, boolean nullable) {
        RelDataType text = factory.createTypeWithCharsetAndCollation(factory.createSqlType(SqlTypeName.VARCHAR),
                StandardCharsets.UTF_8, COLLATION);
        return factory.createTypeWithNullability(text, nullable);
    }

    public static boolean isJson(RelDataType type) {
        return type.getCollation() != null && COLLATION_NAME.equals(type.getCollation().getCollationName());
    }

    private static final class JsonCollation extends SqlCollation {
        JsonCollation() {
            super(Coercibility.COERCIBLE, Locale.ROOT, StandardCharsets.UTF_8, "primary");
        }

        @Override
        protected String generateCollationName(Charset charset) {
            return COLLATION_NAME;
        }
    }
}
