package io.duetdb.sql.parser;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/** MySQL operators the grammar extension produces; the planner's operator table resolves them by name too. */
public final class MySqlOperators {
    /** {@code a DIV b}: the quotient with its fraction dropped, as BIGINT; NULL for a zero divisor. */
    public static final SqlBinaryOperator INTEGER_DIVIDE = new SqlBinaryOperator("DIV", SqlKind.OTHER, 60, true,
            ReturnTypes.BIGINT_FORCE_NULLABLE, InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC_NUMERIC);

    private MySqlOperators() {
    }
}
