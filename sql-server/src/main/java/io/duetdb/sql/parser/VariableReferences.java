package io.duetdb.sql.parser;

import java.util.Locale;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * The nodes MySQL's variable references parse into. {@code @name} is a call of DUET_USER_VARIABLE('name'), cast to
 * the type of the number the variable holds, so that {@code @v + 1} computes as MySQL computes it with that type.
 * {@code @@[GLOBAL. | SESSION. | LOCAL.]name} is a call of DUET_SYSTEM_VARIABLE('scope', 'name'), or of
 * DUET_INTEGER_SYSTEM_VARIABLE for the variables MySQL types as BIGINT. Names are case-insensitive (lower case).
 */
public final class VariableReferences {
    public static final String SYSTEM_FUNCTION = "DUET_SYSTEM_VARIABLE";
    public static final String INTEGER_SYSTEM_FUNCTION = "DUET_INTEGER_SYSTEM_VARIABLE";

    private VariableReferences() {
    }

    /** The reference {@code token} ({@code @name}) to a user variable. */
    public static SqlNode user(String token, SqlParserPos pos, VariableTypes types) {
        String name = userVariableName(token);
        SqlNode call = call(UserVariables.FUNCTION, pos, SqlLiteral.createCharString(name, pos));
        VariableTypes.NumberType type = types.userVariable(name);
        if (type == null) {
            return call;
        }
        SqlBasicTypeNameSpec spec = type.typeName() == SqlTypeName.DECIMAL
                ? new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, type.precision(), type.scale(), pos)
                : new SqlBasicTypeNameSpec(type.typeName(), pos);
        return SqlStdOperatorTable.CAST.createCall(pos, call, new SqlDataTypeSpec(spec, pos));
    }

    /**
     * The expression with its user variable references typed afresh: SET assigns left to right, so that in
     * {@code SET @a = 1, @b = @a + 1} the second reads the number the first has just set.
     */
    public static SqlNode retyped(SqlNode expression, VariableTypes types) {
        return expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                String name = UserVariables.name(call);
                return name != null ? user("@" + name, call.getParserPosition(), types) : super.visit(call);
            }
        });
    }

    /** The variable a {@code @name} token names (quoted or not), in lower case. */
    public static String userVariableName(String token) {
        return unquoted(token.substring(1)).toLowerCase(Locale.ROOT);
    }

    /** The host of an account written {@code user@host} or {@code user@'host'}: the user variable token's name. */
    public static String accountHost(String token) {
        return unquoted(token.substring(1));
    }

    private static String unquoted(String name) {
        char first = name.charAt(0);
        return name.length() >= 2 && (first == '`' || first == '\'' || first == '"')
                && name.charAt(name.length() - 1) == first ? name.substring(1, name.length() - 1) : name;
    }

    /** The reference {@code token} ({@code @@[scope.]name}) to a system variable. */
    public static SqlNode system(String token, SqlParserPos pos, VariableTypes types) {
        SystemVariableName variable = systemVariableName(token);
        return call(types.integerSystemVariable(variable.name()) ? INTEGER_SYSTEM_FUNCTION : SYSTEM_FUNCTION, pos,
                SqlLiteral.createCharString(variable.scope(), pos), SqlLiteral.createCharString(variable.name(), pos));
    }

    /** The system variable a node reads (lower case), aliased or not; null when it reads none. */
    public static String systemVariableOf(SqlNode node) {
        SqlNode read = node.getKind() == SqlKind.AS ? ((SqlCall) node).operand(0) : node;
        if (read instanceof SqlCall call && call.operandCount() == 2 && call.operand(1) instanceof SqlLiteral name) {
            String function = call.getOperator().getName();
            if (function.equalsIgnoreCase(SYSTEM_FUNCTION) || function.equalsIgnoreCase(INTEGER_SYSTEM_FUNCTION)) {
                return name.getValueAs(String.class).toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    /** A system variable's name and the scope its reference names ("" when none), both in lower case. */
    public record SystemVariableName(String scope, String name) {
    }

    /** The scope and name of a {@code @@[scope.]name} token. */
    public static SystemVariableName systemVariableName(String token) {
        String text = token.substring(2).toLowerCase(Locale.ROOT);
        int dot = text.indexOf('.');
        if (dot > 0) {
            String scope = text.substring(0, dot);
            if (scope.equals("global") || scope.equals("session") || scope.equals("local")) {
                return new SystemVariableName(scope, text.substring(dot + 1));
            }
        }
        return new SystemVariableName("", text);
    }

    private static SqlNode call(String function, SqlParserPos pos, SqlNode... operands) {
        return new SqlUnresolvedFunction(new SqlIdentifier(function, pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(pos, operands);
    }
}
