package io.duetdb.sql.parser.dml;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * {@code VALUES(column)} inside ON DUPLICATE KEY UPDATE. It never reaches Calcite's validator: the INSERT
 * handler replaces each call with the value the row would have inserted.
 */
public final class SqlInsertValue {
    public static final SqlFunction OPERATOR = new SqlFunction("VALUES", SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0,
            null, OperandTypes.ANY, SqlFunctionCategory.SYSTEM);

    private SqlInsertValue() {
    }
}
