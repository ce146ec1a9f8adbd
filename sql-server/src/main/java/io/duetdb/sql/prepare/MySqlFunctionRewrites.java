package io.duetdb.sql.prepare;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.JsonTypeNameSpec;
import io.duetdb.sql.parser.MySqlOperators;
import io.duetdb.sql.parser.UserVariables;

/**
 * MySQL's meaning of calls the parser reads with Calcite's, on the parsed query before validation: division is
 * MySQL's; IF(c, a, b) is CASE WHEN c THEN a ELSE b END and IFNULL(a, b) is COALESCE(a, b), so their branches get
 * one type by MySQL's rules as CASE's do; CAST to CHAR or BINARY without a length is to a string of any length
 * (Calcite's CHAR is CHAR(1)), and to DECIMAL without precision is to DECIMAL(10, 0), as in MySQL; an IN list
 * of quoted and unquoted values is split so that each value compares by its own rules; VALUES rows whose columns mix
 * literals of different kinds become a UNION ALL of their rows, so that each column gets one type by MySQL's rules;
 * a row IN list with placeholders is written out as the equalities it means; CAST(x AS JSON) is CAST_AS_JSON(x);
 * {@code v MEMBER OF (doc)} is JSON_MEMBER_OF(v, doc).
 */
final class MySqlFunctionRewrites extends SqlShuttle {
    static final MySqlFunctionRewrites INSTANCE = new MySqlFunctionRewrites();
    private static final int DEFAULT_DECIMAL_PRECISION = 10;

    private MySqlFunctionRewrites() {
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.AS) {
            // An alias (and a derived table's column names) are names, not expressions: `localtime` AS an alias
            // reaches here without its quotes, and must not become NOW().
            List<SqlNode> operands = new ArrayList<>(call.getOperandList());
            operands.set(0, operands.get(0).accept(this));
            return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    operands.toArray(new SqlNode[0]));
        }
        if (call.getOperator() == SqlStdOperatorTable.MEMBER_OF) {
            // MySQL's MEMBER OF tests a JSON array, not a multiset.
            return JsonFunctions.JSON_MEMBER_OF.createCall(call.getParserPosition(), visitedOperands(call));
        }
        if (call.getOperator() == SqlStdOperatorTable.DIVIDE) {
            return DuetFunctions.DIVIDE.createCall(call.getParserPosition(), visitedOperands(call));
        }
        String name = call.getOperator().getName();
        if (name.equalsIgnoreCase("IF") && call.operandCount() == 3) {
            List<SqlNode> operands = visitedOperands(call);
            SqlParserPos position = call.getParserPosition();
            return new SqlCase(position, null, SqlNodeList.of(operands.get(0)), SqlNodeList.of(operands.get(1)),
                    operands.get(2));
        }
        if (name.equalsIgnoreCase("IFNULL") && call.operandCount() == 2) {
            return SqlStdOperatorTable.COALESCE.createCall(call.getParserPosition(), visitedOperands(call));
        }
        if (call.getKind() == SqlKind.VALUES && mixesLiteralKinds(call)) {
            return unionOfRows(call).accept(this);
        }
        if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN)
                && call.operand(1) instanceof SqlNodeList list && mixesStringsAndNumbers(list)) {
            return splitByQuoting(call, list).accept(this);
        }
        if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN) && call.operand(0).getKind() == SqlKind.ROW
                && call.operand(1) instanceof SqlNodeList list && isRowsWithPlaceholders(list, call.operand(0))) {
            return rowEqualities(call, list).accept(this);
        }
        if (call.getOperator() == MySqlOperators.ASSIGN) {
            String variable = UserVariables.name(call.operand(0));
            if (variable == null) {
                throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; only a user"
                        + " variable (@name) can take a value with :=");
            }
            return DuetFunctions.SET_USER_VARIABLE.createCall(call.getParserPosition(),
                    SqlLiteral.createCharString(variable, call.getParserPosition()), call.operand(1).accept(this));
        }
        if (DateTimeFunctions.rewrites(call)) {
            return DateTimeFunctions.withTemporalArguments(call, visitedOperands(call));
        }
        if (call.getOperator() == SqlStdOperatorTable.CAST && call.operand(1) instanceof SqlDataTypeSpec type
                && type.getTypeNameSpec() instanceof JsonTypeNameSpec) {
            return JsonFunctions.CAST_AS_JSON.createCall(call.getParserPosition(), call.operand(0).accept(this));
        }
        if (call.getOperator() == SqlStdOperatorTable.CAST && call.operand(1) instanceof SqlDataTypeSpec type) {
            SqlDataTypeSpec target = mySqlCastType(type);
            if (target != type) {
                return SqlStdOperatorTable.CAST.createCall(call.getParserPosition(), call.operand(0).accept(this),
                        target);
            }
        }
        return super.visit(call);
    }

    /** Whether a column of the VALUES rows holds literals of different kinds (numbers, strings, dates, truth values). */
    private static boolean mixesLiteralKinds(SqlCall values) {
        List<Set<String>> kinds = new ArrayList<>();
        for (SqlNode row : values.getOperandList()) {
            if (!(row instanceof SqlCall rowCall)) {
                return false;
            }
            for (int i = 0; i < rowCall.operandCount(); i++) {
                while (kinds.size() <= i) {
                    kinds.add(new HashSet<>());
                }
                SqlNode value = rowCall.operand(i);
                if (value instanceof SqlLiteral literal && literal.getTypeName() != SqlTypeName.NULL) {
                    kinds.get(i).add(value instanceof SqlNumericLiteral ? "number" : literal.getTypeName().getFamily()
                            == null ? literal.getTypeName().name() : literal.getTypeName().getFamily().toString());
                }
            }
        }
        return kinds.stream().anyMatch(column -> column.size() > 1);
    }

    /**
     * VALUES rows as SELECTs joined by UNION ALL, whose branches the validator casts to one type by MySQL's rules
     * (Calcite's VALUES takes its literals as they are).
     */
    private static SqlNode unionOfRows(SqlCall values) {
        SqlParserPos position = values.getParserPosition();
        SqlNode union = null;
        for (SqlNode row : values.getOperandList()) {
            SqlSelect select = new SqlSelect(row.getParserPosition(), null,
                    new SqlNodeList(((SqlCall) row).getOperandList(), row.getParserPosition()), null, null, null, null,
                    null, null, null, null, null, null);
            union = union == null ? select : SqlStdOperatorTable.UNION_ALL.createCall(position, union, select);
        }
        return union;
    }

    private static boolean mixesStringsAndNumbers(SqlNodeList list) {
        boolean strings = false;
        boolean numbers = false;
        for (SqlNode element : list) {
            strings |= isString(element);
            numbers |= element instanceof SqlNumericLiteral;
        }
        return strings && numbers;
    }

    private static boolean isString(SqlNode node) {
        return node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.CHAR;
    }

    /**
     * MySQL compares the left side of IN with each value by the rules for that pair, so a list that mixes quoted
     * and unquoted values is two: x IN ('a', 1) is x IN ('a') OR x IN (1), and x NOT IN ('a', 1) is
     * x NOT IN ('a') AND x NOT IN (1).
     */
    private static SqlNode splitByQuoting(SqlCall call, SqlNodeList list) {
        SqlParserPos position = call.getParserPosition();
        List<SqlNode> strings = new ArrayList<>();
        List<SqlNode> others = new ArrayList<>();
        for (SqlNode element : list) {
            (isString(element) ? strings : others).add(element);
        }
        SqlNode left = call.operand(0);
        SqlNode quoted = call.getOperator().createCall(position, left, new SqlNodeList(strings, list.getParserPosition()));
        SqlNode unquoted = call.getOperator().createCall(position, left.accept(DeepCopy.INSTANCE),
                new SqlNodeList(others, list.getParserPosition()));
        return (call.getKind() == SqlKind.IN ? SqlStdOperatorTable.OR : SqlStdOperatorTable.AND)
                .createCall(position, quoted, unquoted);
    }

    /**
     * Whether an IN list holds rows as wide as the left row, with a placeholder among their values: Calcite's
     * converter expands such a list into equalities whose placeholders its validator never typed (it fails), so
     * they are written out here instead.
     */
    private static boolean isRowsWithPlaceholders(SqlNodeList list, SqlCall left) {
        boolean placeholders = false;
        for (SqlNode element : list) {
            if (element.getKind() != SqlKind.ROW || ((SqlCall) element).operandCount() != left.operandCount()) {
                return false;
            }
            for (SqlNode value : ((SqlCall) element).getOperandList()) {
                placeholders |= value instanceof SqlDynamicParam;
            }
        }
        return placeholders;
    }

    /**
     * (a, b) IN ((x, y), (z, w)) as what it means: (a = x AND b = y) OR (a = z AND b = w); NOT IN as the negation of
     * that (NULLs come out as IN's: an equality with NULL is unknown).
     */
    private static SqlNode rowEqualities(SqlCall call, SqlNodeList list) {
        SqlParserPos position = call.getParserPosition();
        SqlCall left = call.operand(0);
        List<SqlNode> disjuncts = new ArrayList<>();
        for (SqlNode element : list) {
            SqlCall row = (SqlCall) element;
            List<SqlNode> equalities = new ArrayList<>();
            for (int i = 0; i < left.operandCount(); i++) {
                equalities.add(SqlStdOperatorTable.EQUALS.createCall(position, left.operand(i).accept(DeepCopy.INSTANCE),
                        row.operand(i)));
            }
            disjuncts.add(binary(SqlStdOperatorTable.AND, equalities, position));
        }
        SqlNode any = binary(SqlStdOperatorTable.OR, disjuncts, position);
        return call.getKind() == SqlKind.IN ? any : SqlStdOperatorTable.NOT.createCall(position, any);
    }

    /** {@code a op b op c} as the parser writes it: ((a op b) op c). */
    /** MySQL's niladic LOCALTIME is NOW and CURRENT_TIME is CURTIME (a bare name is a call once validated). */
    @Override
    public SqlNode visit(SqlIdentifier identifier) {
        if (identifier.names.size() == 1 && !identifier.isComponentQuoted(0)) {
            String name = identifier.getSimple().toUpperCase(Locale.ROOT);
            if (name.equals("LOCALTIME")) {
                return DuetFunctions.NOW.createCall(identifier.getParserPosition());
            }
            if (name.equals("CURRENT_TIME")) {
                return DateTimeFunctions.CURTIME.createCall(identifier.getParserPosition());
            }
        }
        return identifier;
    }

    private static SqlNode binary(SqlOperator operator, List<SqlNode> operands, SqlParserPos position) {
        SqlNode result = operands.get(0);
        for (int i = 1; i < operands.size(); i++) {
            result = operator.createCall(position, result, operands.get(i));
        }
        return result;
    }

    /** A copy of a tree that shares no identifier or literal with it (the validator rewrites nodes in place). */
    private static final class DeepCopy extends SqlShuttle {
        static final DeepCopy INSTANCE = new DeepCopy();

        @Override
        public SqlNode visit(SqlIdentifier identifier) {
            return identifier.clone(identifier.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlLiteral literal) {
            return literal.clone(literal.getParserPosition());
        }
    }

    private List<SqlNode> visitedOperands(SqlCall call) {
        List<SqlNode> operands = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            operands.add(operand == null ? null : operand.accept(this));
        }
        return operands;
    }

    private static SqlDataTypeSpec mySqlCastType(SqlDataTypeSpec type) {
        SqlTypeNameSpec name = type.getTypeNameSpec();
        if (!(name instanceof SqlBasicTypeNameSpec basic) || basic.getPrecision() >= 0) {
            return type;
        }
        SqlParserPos position = basic.getParserPos();
        SqlBasicTypeNameSpec replaced = switch (basic.getTypeName().getSimple().toUpperCase(java.util.Locale.ROOT)) {
            case "CHAR", "CHARACTER", "VARCHAR" -> new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, position);
            case "BINARY", "VARBINARY" -> new SqlBasicTypeNameSpec(SqlTypeName.VARBINARY, position);
            case "DECIMAL", "DEC", "NUMERIC" -> new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL,
                    DEFAULT_DECIMAL_PRECISION, 0, position);
            default -> null;
        };
        return replaced == null ? type : new SqlDataTypeSpec(replaced, type.getParserPosition());
    }
}
