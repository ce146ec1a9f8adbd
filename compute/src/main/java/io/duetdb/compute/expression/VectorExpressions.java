package io.duetdb.compute.expression;

import java.util.ArrayList;
import java.util.List;

import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Builds evaluators from plan expressions, checking them on the way: a column must exist and have the declared
 * type, a function must have the operands it takes. What does not check out throws
 * {@link UnsupportedExpressionException}; the SQL layer runs the same checks before it pushes an expression down.
 */
public final class VectorExpressions {
    private VectorExpressions() {
    }

    public static VectorExpression build(Expression expression, List<FieldType> inputTypes) {
        return switch (expression.getKindCase()) {
            case COLUMN -> {
                int index = expression.getColumn();
                if (index >= inputTypes.size()) {
                    throw new UnsupportedExpressionException("column " + index + " of an input with " + inputTypes.size()
                            + " columns");
                }
                FieldType type = inputTypes.get(index);
                if (type.getType() != expression.getType().getType()) {
                    throw new UnsupportedExpressionException("column " + index + " is " + type.getType() + ", not "
                            + expression.getType().getType());
                }
                yield new ColumnReference(index, type);
            }
            case LITERAL -> {
                ValueTypes.arrowType(expression.getType());
                yield new ConstantExpression(Literals.value(expression.getLiteral(), expression.getType()),
                        expression.getType());
            }
            case CALL -> call(expression.getCall(), expression.getType(), inputTypes);
            default -> throw new UnsupportedExpressionException("empty expression");
        };
    }

    private static VectorExpression call(Call call, FieldType type, List<FieldType> inputTypes) {
        List<VectorExpression> arguments = new ArrayList<>(call.getArgumentsCount());
        for (Expression argument : call.getArgumentsList()) {
            arguments.add(build(argument, inputTypes));
        }
        VectorExpression built = switch (call.getFunction()) {
            case EQUAL, NOT_EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> {
                expectArguments(call, 2);
                yield new ComparisonExpression(call.getFunction(), arguments.get(0), arguments.get(1));
            }
            case AND, OR, NOT -> new LogicalExpression(call.getFunction(), arguments);
            case IS_NULL, IS_NOT_NULL -> {
                expectArguments(call, 1);
                yield new NullTestExpression(arguments.get(0), call.getFunction() == io.duetdb.proto.coprocessor.ScalarFunction.IS_NOT_NULL);
            }
            case PLUS, MINUS, MULTIPLY, NEGATE -> new ArithmeticExpression(call.getFunction(), arguments, type);
            case DIVIDE, MOD -> {
                expectArguments(call, 2);
                yield new DivisionExpression(call.getFunction(), arguments.get(0), arguments.get(1), type);
            }
            case LIKE -> {
                expectArguments(call, 2);
                if (!(arguments.get(1) instanceof ConstantExpression pattern) || !(pattern.value() instanceof String text)) {
                    throw new UnsupportedExpressionException("LIKE with a pattern that is not a string constant");
                }
                yield new LikeExpression(arguments.get(0), text);
            }
            case IN -> {
                if (arguments.size() < 2) {
                    throw new UnsupportedExpressionException("IN without a list");
                }
                List<ConstantExpression> list = new ArrayList<>();
                for (VectorExpression item : arguments.subList(1, arguments.size())) {
                    if (!(item instanceof ConstantExpression constant)) {
                        throw new UnsupportedExpressionException("IN list with a value that is not a constant");
                    }
                    list.add(constant);
                }
                yield new InListExpression(arguments.get(0), list);
            }
            case CASE -> {
                // Every branch is evaluated for every row: none may fail where MySQL would not evaluate it.
                for (Expression argument : call.getArgumentsList()) {
                    if (mayFail(argument)) {
                        throw new UnsupportedExpressionException("a CASE branch that may fail where it is not taken");
                    }
                }
                yield new CaseExpression(arguments, type);
            }
            case CAST, EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY -> {
                expectArguments(call, 1);
                yield new ConversionExpression(call.getFunction(), arguments.get(0), type);
            }
            case SUBSTRING -> {
                if (arguments.size() < 2 || arguments.size() > 3) {
                    throw new UnsupportedExpressionException("SUBSTRING takes 2 or 3 arguments");
                }
                long position = integerConstant(arguments.get(1));
                long length = arguments.size() == 3 ? integerConstant(arguments.get(2)) : Long.MAX_VALUE;
                yield new SubstringExpression(arguments.get(0), position, length);
            }
            case UPPER, LOWER, CHAR_LENGTH, OCTET_LENGTH, ASCII, CONCAT -> new StringFunctionExpression(call.getFunction(), arguments);
            case ABS, FLOOR, CEIL -> {
                expectArguments(call, 1);
                yield new NumericFunctionExpression(call.getFunction(), arguments.get(0), type);
            }
            default -> throw new UnsupportedExpressionException("function " + call.getFunction() + " is not supported");
        };
        if (built.type().getType() != type.getType()) {
            throw new UnsupportedExpressionException(call.getFunction() + " gives " + built.type().getType()
                    + ", not the declared " + type.getType());
        }
        return built;
    }

    /** Whether evaluating the expression can fail for some row (arithmetic overflow, a DECIMAL that does not fit). */
    private static boolean mayFail(Expression expression) {
        if (!expression.hasCall()) {
            return false;
        }
        switch (expression.getCall().getFunction()) {
            case PLUS, MINUS, MULTIPLY, NEGATE, CAST, DIVIDE -> {
                return true;
            }
            default -> {
                for (Expression argument : expression.getCall().getArgumentsList()) {
                    if (mayFail(argument)) {
                        return true;
                    }
                }
                return false;
            }
        }
    }

    private static long integerConstant(VectorExpression expression) {
        if (expression instanceof ConstantExpression constant && constant.value() instanceof Long number) {
            return number;
        }
        throw new UnsupportedExpressionException("an argument that must be an integer constant");
    }

    private static void expectArguments(Call call, int count) {
        if (call.getArgumentsCount() != count) {
            throw new UnsupportedExpressionException(call.getFunction() + " takes " + count + " arguments, not "
                    + call.getArgumentsCount());
        }
    }

    public static boolean isBoolean(VectorExpression expression) {
        return expression.type().getType() == ValueType.BOOLEAN;
    }
}
