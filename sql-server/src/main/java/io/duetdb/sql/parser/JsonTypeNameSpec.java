package io.duetdb.sql.parser;

import org.apache.calcite.sql.SqlAlienSystemTypeNameSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/** The target type of MySQL's CAST(x AS JSON); the planner turns such a CAST into a JSON function call. */
public final class JsonTypeNameSpec extends SqlAlienSystemTypeNameSpec {
    public JsonTypeNameSpec(SqlParserPos pos) {
        super("JSON", SqlTypeName.VARCHAR, pos);
    }
}
