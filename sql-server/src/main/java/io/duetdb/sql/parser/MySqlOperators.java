package io.duetdb.sql.parser;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/** MySQL operators the grammar extension produces; the planner's operator table resolves them by name too. */
public final class MySqlOperators {
    private static final int OR_PRECEDENCE = 22;

    /**
     * {@code @name := value}: the value, which the user variable takes as the expression is evaluated; the lowest
     * precedence, right to left, as in MySQL. The planner rewrites it into a call that sets the variable.
     */
    public static final SqlBinaryOperator ASSIGN = new SqlBinaryOperator(":=", SqlKind.OTHER, 2, false,
            ReturnTypes.ARG1_NULLABLE, InferTypes.RETURN_TYPE, OperandTypes.ANY_ANY);

    /** {@code a DIV b}: the quotient with its fraction dropped, as BIGINT; NULL for a zero divisor. */
    public static final SqlBinaryOperator INTEGER_DIVIDE = new SqlBinaryOperator("DIV", SqlKind.OTHER, 60, true,
            ReturnTypes.BIGINT_FORCE_NULLABLE, InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC_NUMERIC);

    /**
     * {@code a XOR b}: true when exactly one operand is true, NULL when either is NULL; between AND and OR in
     * precedence, as in MySQL. Its operands are truth values (the planner converts numbers and strings first).
     */
    public static final SqlBinaryOperator XOR = new SqlBinaryOperator("XOR", SqlKind.OTHER, OR_PRECEDENCE, true,
            ReturnTypes.BOOLEAN_NULLABLE, InferTypes.BOOLEAN, OperandTypes.BOOLEAN_BOOLEAN) {
        // Calcite's precedences are even (OR 22, AND 24); the parser's tree builder takes these as they are.
        @Override
        public int getLeftPrec() {
            return OR_PRECEDENCE + 1;
        }

        @Override
        public int getRightPrec() {
            return OR_PRECEDENCE + 2;
        }
    };

    private MySqlOperators() {
    }
}
