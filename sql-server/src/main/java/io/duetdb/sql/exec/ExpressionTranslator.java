package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.expression.VectorExpressions;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Calcite's expressions in the coprocessor's form, over the columns of a scan: what the stores' evaluator (and the
 * SQL server's batch operators, which share it) can compute. An expression it cannot compute translates to null,
 * and its caller keeps that work in the SQL layer. Constant subexpressions are computed here once and travel as
 * literals.
 */
public final class ExpressionTranslator {
    private final ExpressionCompiler compiler;

    public ExpressionTranslator(ExpressionCompiler compiler) {
        this.compiler = requireNonNull(compiler, "compiler is null");
    }

    /** Whether {@code expression} (over columns of {@code types}) is a condition the evaluator can filter by. */
    public static boolean isCondition(Expression expression, List<FieldType> types) {
        try {
            return VectorExpressions.isBoolean(VectorExpressions.build(expression, types));
        } catch (UnsupportedExpressionException e) {
            return false;
        }
    }

    /** The coprocessor form of an expression over the scan's columns, or null when it has none. */
    public Expression translate(RexNode node, List<FieldType> columns) {
        if (node instanceof RexInputRef reference) {
            int index = reference.getIndex();
            return index < columns.size()
                    ? Expression.newBuilder().setType(columns.get(index)).setColumn(index).build() : null;
        }
        if (node instanceof RexLiteral literal) {
            FieldType type = fieldType(literal.getType());
            if (type == null) {
                return null;
            }
            Object value = ComputeValues.toCompute(ExpressionCompiler.literalValue(literal), type);
            if (value == null && !literal.isNull()) {
                return null;
            }
            if (type.getType() == ValueType.FLOAT64 && value instanceof Number number) {
                value = number.doubleValue();
            }
            return Expression.newBuilder().setType(type).setLiteral(Literals.of(value)).build();
        }
        if (!(node instanceof RexCall call)) {
            return null;
        }
        if (RexUtil.isConstant(call) && RexUtil.isDeterministic(call)) {
            // A constant the coprocessor may not know how to compute (date '1998-12-01' - interval '90' day):
            // computed here once, it travels as a literal.
            return constant(call);
        }
        if (call.getKind() == SqlKind.CAST && isWideningStringCast(call)) {
            // CHAR(1) to VARCHAR(20) (Calcite unifying CASE branches) changes no value.
            return translate(call.getOperands().get(0), columns);
        }
        ScalarFunction function = switch (call.getKind()) {
            case EQUALS -> ScalarFunction.EQUAL;
            case NOT_EQUALS -> ScalarFunction.NOT_EQUAL;
            case LESS_THAN -> ScalarFunction.LESS;
            case LESS_THAN_OR_EQUAL -> ScalarFunction.LESS_OR_EQUAL;
            case GREATER_THAN -> ScalarFunction.GREATER;
            case GREATER_THAN_OR_EQUAL -> ScalarFunction.GREATER_OR_EQUAL;
            case AND -> ScalarFunction.AND;
            case OR -> ScalarFunction.OR;
            case NOT -> ScalarFunction.NOT;
            case IS_NULL -> ScalarFunction.IS_NULL;
            case IS_NOT_NULL -> ScalarFunction.IS_NOT_NULL;
            case PLUS -> ScalarFunction.PLUS;
            case MINUS -> ScalarFunction.MINUS;
            case TIMES -> ScalarFunction.MULTIPLY;
            case DIVIDE -> ScalarFunction.DIVIDE;
            case MOD -> ScalarFunction.MOD;
            case MINUS_PREFIX -> ScalarFunction.NEGATE;
            case LIKE -> call.getOperator().getName().toUpperCase(Locale.ROOT).contains("NOT") || call.getOperands().size() != 2
                    ? null : ScalarFunction.LIKE;
            case CASE -> ScalarFunction.CASE;
            case CAST -> ScalarFunction.CAST;
            case EXTRACT -> extractFunction(call);
            case FLOOR -> call.getOperands().size() == 1 ? ScalarFunction.FLOOR : null;
            case CEIL -> call.getOperands().size() == 1 ? ScalarFunction.CEIL : null;
            case OTHER_FUNCTION, OTHER -> switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
                case "SUBSTRING", "SUBSTR" -> ScalarFunction.SUBSTRING;
                case "UPPER" -> ScalarFunction.UPPER;
                case "LOWER" -> ScalarFunction.LOWER;
                case "CHAR_LENGTH", "CHARACTER_LENGTH" -> ScalarFunction.CHAR_LENGTH;
                case "LENGTH", "OCTET_LENGTH" -> ScalarFunction.OCTET_LENGTH;
                case "CONCAT", "||" -> ScalarFunction.CONCAT;
                case "ABS" -> ScalarFunction.ABS;
                case "ASCII" -> ScalarFunction.ASCII;
                default -> null;
            };
            default -> null;
        };
        FieldType type = fieldType(call.getType());
        if (function == null || type == null) {
            return null;
        }
        if (isComparisonOrLogic(function)) {
            type = ValueTypes.of(ValueType.BOOLEAN);
        }
        Call.Builder built = Call.newBuilder().setFunction(function);
        // EXTRACT's first operand is its unit, which the function already names.
        List<RexNode> operands = function == ScalarFunction.EXTRACT_YEAR || function == ScalarFunction.EXTRACT_MONTH
                || function == ScalarFunction.EXTRACT_DAY ? call.getOperands().subList(1, 2) : call.getOperands();
        for (RexNode operand : operands) {
            Expression argument = translate(operand, columns);
            if (argument == null) {
                return null;
            }
            built.addArguments(argument);
        }
        Expression expression = Expression.newBuilder().setType(type).setCall(built).build();
        try {
            VectorExpressions.build(expression, columns);
        } catch (UnsupportedExpressionException e) {
            return null;
        }
        return expression;
    }

    /** A cast from a string type to VARCHAR at least as long: the SQL layer truncates only longer values. */
    private static boolean isWideningStringCast(RexCall call) {
        RelDataType target = call.getType();
        RelDataType source = call.getOperands().get(0).getType();
        if (target.getSqlTypeName() != SqlTypeName.VARCHAR
                || source.getSqlTypeName().getFamily() != SqlTypeFamily.CHARACTER) {
            return false;
        }
        int targetLength = target.getPrecision();
        int sourceLength = source.getPrecision();
        return targetLength == RelDataType.PRECISION_NOT_SPECIFIED || targetLength >= 65536
                || sourceLength != RelDataType.PRECISION_NOT_SPECIFIED && sourceLength <= targetLength;
    }

    private Expression constant(RexCall call) {
        FieldType type = fieldType(call.getType());
        if (type == null) {
            return null;
        }
        Object value;
        try {
            value = compiler.compile(call).evaluate(new Object[0]);
        } catch (RuntimeException e) {
            // Evaluating it fails (an overflow, a bad cast): the SQL layer reports that when it evaluates it.
            return null;
        }
        Object computed = ComputeValues.toCompute(value, type);
        if (value != null && computed == null) {
            return null;
        }
        if (type.getType() == ValueType.FLOAT64 && computed instanceof Number number) {
            computed = number.doubleValue();
        }
        return Expression.newBuilder().setType(type).setLiteral(Literals.of(computed)).build();
    }

    private static ScalarFunction extractFunction(RexCall call) {
        if (call.getOperands().size() != 2 || !(call.getOperands().get(0) instanceof RexLiteral unit)) {
            return null;
        }
        return switch (String.valueOf(unit.getValue()).toUpperCase(Locale.ROOT)) {
            case "YEAR" -> ScalarFunction.EXTRACT_YEAR;
            case "MONTH" -> ScalarFunction.EXTRACT_MONTH;
            case "DAY" -> ScalarFunction.EXTRACT_DAY;
            default -> null;
        };
    }

    private static boolean isComparisonOrLogic(ScalarFunction function) {
        return switch (function) {
            case PLUS, MINUS, MULTIPLY, DIVIDE, MOD, NEGATE, CASE, CAST, EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY, SUBSTRING,
                    UPPER, LOWER, CHAR_LENGTH, OCTET_LENGTH, ASCII, CONCAT, ABS, FLOOR, CEIL -> false;
            default -> true;
        };
    }

    /** The coprocessor type of a Calcite type, or null when values of it are not evaluated there. */
    public static FieldType fieldType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> ValueTypes.of(ValueType.INT64);
            case DECIMAL -> type.getPrecision() > ValueTypes.MAX_DECIMAL_PRECISION ? null
                    : ValueTypes.decimal(type.getPrecision(), Math.max(0, type.getScale()));
            case DOUBLE, FLOAT, REAL -> ValueTypes.of(ValueType.FLOAT64);
            case CHAR, VARCHAR -> ValueTypes.of(ValueType.STRING);
            case BINARY, VARBINARY -> ValueTypes.of(ValueType.BYTES);
            case DATE -> ValueTypes.of(ValueType.DATE);
            case TIMESTAMP -> ValueTypes.of(ValueType.DATETIME);
            case BOOLEAN -> ValueTypes.of(ValueType.BOOLEAN);
            default -> null;
        };
    }
}
