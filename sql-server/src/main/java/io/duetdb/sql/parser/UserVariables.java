package io.duetdb.sql.parser;

import java.util.Locale;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * User variables in parsed statements: the parser reads {@code @name} as {@code DUET_USER_VARIABLE('name')},
 * cast to the type of the value it holds when it holds a number.
 */
public final class UserVariables {
    public static final String FUNCTION = "DUET_USER_VARIABLE";

    private UserVariables() {
    }

    /** The variable a node reads (lower case), or null when it is no user variable. */
    public static String name(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return null;
        }
        if (call.getKind() == SqlKind.CAST) {
            return name(call.operand(0));
        }
        if (call.getOperator().getName().equalsIgnoreCase(FUNCTION) && call.operandCount() == 1
                && call.operand(0) instanceof SqlLiteral literal) {
            return literal.getValueAs(String.class).toLowerCase(Locale.ROOT);
        }
        return null;
    }
}
