package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

import com.google.protobuf.ByteString;

import io.duetdb.compute.ValueTypes;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Spark's V2 predicates as coprocessor expressions over a scan's columns: comparisons of a column with a literal,
 * IS [NOT] NULL, IN lists, STARTS_WITH / ENDS_WITH / CONTAINS (as LIKE), AND, OR and NOT of those. Anything else
 * (a column compared with a column of another type, functions, casts, NULL-safe equality) is not translated and
 * stays with Spark. Literals keep Spark's type; the coprocessor compares across numeric types and scales.
 */
public final class PredicateTranslator {
    private static final FieldType BOOLEAN = ValueTypes.of(ValueType.BOOLEAN);

    /** A scanned column: its position in the scan's output and its coprocessor type. */
    public record ScanColumn(int position, FieldType type) {
        public ScanColumn {
            requireNonNull(type, "type is null");
        }
    }

    private final Map<String, ScanColumn> columns;

    /** {@code columns} by their lower-case name. */
    public PredicateTranslator(Map<String, ScanColumn> columns) {
        this.columns = Map.copyOf(requireNonNull(columns, "columns is null"));
    }

    /** The predicate as a coprocessor condition, or empty when it cannot be evaluated there. */
    public Optional<io.duetdb.proto.coprocessor.Expression> translate(Predicate predicate) {
        return Optional.ofNullable(predicate(predicate));
    }

    private io.duetdb.proto.coprocessor.Expression predicate(Predicate predicate) {
        Expression[] children = predicate.children();
        return switch (predicate.name()) {
            case "=" -> comparison(ScalarFunction.EQUAL, children);
            case "<>" -> comparison(ScalarFunction.NOT_EQUAL, children);
            case "<" -> comparison(ScalarFunction.LESS, children);
            case "<=" -> comparison(ScalarFunction.LESS_OR_EQUAL, children);
            case ">" -> comparison(ScalarFunction.GREATER, children);
            case ">=" -> comparison(ScalarFunction.GREATER_OR_EQUAL, children);
            case "IS_NULL" -> nullTest(ScalarFunction.IS_NULL, children);
            case "IS_NOT_NULL" -> nullTest(ScalarFunction.IS_NOT_NULL, children);
            case "IN" -> in(children);
            case "STARTS_WITH" -> like(children, "", "%");
            case "ENDS_WITH" -> like(children, "%", "");
            case "CONTAINS" -> like(children, "%", "%");
            case "AND" -> logical(ScalarFunction.AND, children);
            case "OR" -> logical(ScalarFunction.OR, children);
            case "NOT" -> logical(ScalarFunction.NOT, children);
            default -> null;
        };
    }

    private io.duetdb.proto.coprocessor.Expression comparison(ScalarFunction function, Expression[] children) {
        if (children.length != 2) {
            return null;
        }
        io.duetdb.proto.coprocessor.Expression left = operand(children[0]);
        io.duetdb.proto.coprocessor.Expression right = operand(children[1]);
        if (left == null || right == null || isNullLiteral(left) || isNullLiteral(right)) {
            return null;
        }
        if (!comparable(left.getType().getType(), right.getType().getType())) {
            return null;
        }
        return call(function, List.of(left, right));
    }

    private io.duetdb.proto.coprocessor.Expression nullTest(ScalarFunction function, Expression[] children) {
        io.duetdb.proto.coprocessor.Expression column = children.length == 1 ? column(children[0]) : null;
        return column == null ? null : call(function, List.of(column));
    }

    private io.duetdb.proto.coprocessor.Expression in(Expression[] children) {
        io.duetdb.proto.coprocessor.Expression column = children.length >= 2 ? column(children[0]) : null;
        if (column == null) {
            return null;
        }
        List<io.duetdb.proto.coprocessor.Expression> arguments = new ArrayList<>();
        arguments.add(column);
        for (int i = 1; i < children.length; i++) {
            io.duetdb.proto.coprocessor.Expression item = literal(children[i]);
            if (item == null || isNullLiteral(item) || !comparable(column.getType().getType(), item.getType().getType())) {
                return null;
            }
            arguments.add(item);
        }
        return call(ScalarFunction.IN, arguments);
    }

    private io.duetdb.proto.coprocessor.Expression like(Expression[] children, String before, String after) {
        io.duetdb.proto.coprocessor.Expression column = children.length == 2 ? column(children[0]) : null;
        if (column == null || column.getType().getType() != ValueType.STRING
                || !(children[1] instanceof Literal<?> literal) || !(literal.value() instanceof UTF8String text)) {
            return null;
        }
        String pattern = before + escapeLike(text.toString()) + after;
        io.duetdb.proto.coprocessor.Expression patternLiteral = io.duetdb.proto.coprocessor.Expression.newBuilder()
                .setType(ValueTypes.of(ValueType.STRING))
                .setLiteral(io.duetdb.proto.coprocessor.Literal.newBuilder().setStringValue(pattern)).build();
        return call(ScalarFunction.LIKE, List.of(column, patternLiteral));
    }

    private io.duetdb.proto.coprocessor.Expression logical(ScalarFunction function, Expression[] children) {
        List<io.duetdb.proto.coprocessor.Expression> arguments = new ArrayList<>();
        for (Expression child : children) {
            if (!(child instanceof Predicate predicate)) {
                return null;
            }
            io.duetdb.proto.coprocessor.Expression translated = predicate(predicate);
            if (translated == null) {
                return null;
            }
            arguments.add(translated);
        }
        return arguments.isEmpty() ? null : call(function, arguments);
    }

    private io.duetdb.proto.coprocessor.Expression operand(Expression expression) {
        io.duetdb.proto.coprocessor.Expression column = column(expression);
        return column != null ? column : literal(expression);
    }

    private io.duetdb.proto.coprocessor.Expression column(Expression expression) {
        if (!(expression instanceof NamedReference reference) || reference.fieldNames().length != 1) {
            return null;
        }
        ScanColumn column = columns.get(reference.fieldNames()[0].toLowerCase(Locale.ROOT));
        if (column == null) {
            return null;
        }
        return io.duetdb.proto.coprocessor.Expression.newBuilder().setType(column.type()).setColumn(column.position()).build();
    }

    /** A Spark literal in its own type, or null when the coprocessor has no such type. */
    static io.duetdb.proto.coprocessor.Expression literal(Expression expression) {
        if (!(expression instanceof Literal<?> literal)) {
            return null;
        }
        DataType type = literal.dataType();
        Object value = literal.value();
        io.duetdb.proto.coprocessor.Literal.Builder builder = io.duetdb.proto.coprocessor.Literal.newBuilder();
        FieldType fieldType;
        if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType || type instanceof LongType) {
            fieldType = ValueTypes.of(ValueType.INT64);
            if (value != null) {
                builder.setIntValue(((Number) value).longValue());
            }
        } else if (type instanceof FloatType || type instanceof DoubleType) {
            fieldType = ValueTypes.of(type instanceof FloatType ? ValueType.FLOAT32 : ValueType.FLOAT64);
            if (value != null) {
                builder.setDoubleValue(((Number) value).doubleValue());
            }
        } else if (type instanceof DecimalType decimal) {
            fieldType = ValueTypes.decimal(decimal.precision(), decimal.scale());
            if (value != null) {
                builder.setDecimalValue(((org.apache.spark.sql.types.Decimal) value).toJavaBigDecimal().toPlainString());
            }
        } else if (type instanceof StringType) {
            fieldType = ValueTypes.of(ValueType.STRING);
            if (value != null) {
                builder.setStringValue(value.toString());
            }
        } else if (type instanceof BinaryType) {
            fieldType = ValueTypes.of(ValueType.BYTES);
            if (value != null) {
                builder.setBytesValue(ByteString.copyFrom((byte[]) value));
            }
        } else if (type instanceof DateType) {
            fieldType = ValueTypes.of(ValueType.DATE);
            if (value != null) {
                builder.setIntValue(((Number) value).longValue());
            }
        } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
            fieldType = ValueTypes.of(type instanceof TimestampType ? ValueType.TIMESTAMP : ValueType.DATETIME);
            if (value != null) {
                builder.setIntValue(((Number) value).longValue());
            }
        } else if (type instanceof DayTimeIntervalType) {
            fieldType = ValueTypes.of(ValueType.TIME);
            if (value != null) {
                builder.setIntValue(((Number) value).longValue());
            }
        } else {
            return null;
        }
        if (value == null) {
            builder.setNull(true);
        }
        return io.duetdb.proto.coprocessor.Expression.newBuilder().setType(fieldType).setLiteral(builder).build();
    }

    /** Whether Spark and the coprocessor agree on how two values of these types compare. */
    private static boolean comparable(ValueType left, ValueType right) {
        if (ValueTypes.isNumeric(left) && ValueTypes.isNumeric(right)) {
            return true;
        }
        return left == right;
    }

    private static boolean isNullLiteral(io.duetdb.proto.coprocessor.Expression expression) {
        return expression.hasLiteral() && expression.getLiteral().getNull();
    }

    private static io.duetdb.proto.coprocessor.Expression call(ScalarFunction function,
            List<io.duetdb.proto.coprocessor.Expression> arguments) {
        return io.duetdb.proto.coprocessor.Expression.newBuilder().setType(BOOLEAN)
                .setCall(Call.newBuilder().setFunction(function).addAllArguments(arguments)).build();
    }

    /** Text matched literally by LIKE: its wildcards and the escape character escaped. */
    static String escapeLike(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 4);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' || c == '_' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
