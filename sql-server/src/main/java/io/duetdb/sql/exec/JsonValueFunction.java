package io.duetdb.sql.exec;

import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlJsonEmptyOrError;
import org.apache.calcite.sql.SqlJsonValueEmptyOrErrorBehavior;
import org.apache.calcite.sql.type.SqlTypeFamily;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.json.Json;
import io.duetdb.common.json.JsonNull;
import io.duetdb.common.json.JsonParser;

/**
 * JSON_VALUE(doc, path [RETURNING type] [{NULL | ERROR | DEFAULT v} ON EMPTY] [{NULL | ERROR | DEFAULT v} ON ERROR])
 * as MySQL 8.0.21 answers it: the scalar the path finds, unquoted, converted to the RETURNING type (text by default);
 * a path that finds nothing takes the ON EMPTY behaviour, an array or object the ON ERROR one, both NULL by default.
 */
final class JsonValueFunction {
    private record Behavior(SqlJsonValueEmptyOrErrorBehavior kind, RowExpression defaultValue) {
        static final Behavior NULL = new Behavior(SqlJsonValueEmptyOrErrorBehavior.NULL, null);
    }

    private JsonValueFunction() {
    }

    static RowExpression compile(RexCall call, List<RowExpression> operands) {
        List<RexNode> nodes = call.getOperands();
        Behavior onEmpty = Behavior.NULL;
        Behavior onError = Behavior.NULL;
        int i = 2;
        while (i < nodes.size()) {
            Object symbol = symbol(nodes.get(i));
            if (!(symbol instanceof SqlJsonValueEmptyOrErrorBehavior kind)) {
                i++;
                continue;
            }
            RowExpression defaultValue = null;
            if (kind == SqlJsonValueEmptyOrErrorBehavior.DEFAULT) {
                defaultValue = operands.get(++i);
            }
            Object when = i + 1 < nodes.size() ? symbol(nodes.get(i + 1)) : null;
            Behavior behavior = new Behavior(kind, defaultValue);
            if (when == SqlJsonEmptyOrError.EMPTY) {
                onEmpty = behavior;
            } else {
                onError = behavior;
            }
            i += 2;
        }
        RelDataType textType = call.getOperands().get(1).getType();
        RowExpression extract = JsonExpressions.compile("JSON_EXTRACT", operands.subList(0, 2),
                List.of(nodes.get(0).getType(), textType));
        Behavior empty = onEmpty;
        Behavior error = onError;
        RowExpression text = row -> {
            Object found = extract.evaluate(row);
            if (found == null) {
                return operands.get(0).evaluate(row) == null || operands.get(1).evaluate(row) == null ? null
                        : apply(empty, row, ErrorCode.MISSING_JSON_VALUE, "No value was found by 'json_value' on the"
                                + " specified path.");
            }
            Object value = JsonParser.parse(found.toString());
            if (value instanceof List<?> || value instanceof Map<?, ?>) {
                return apply(error, row, ErrorCode.MULTIPLE_JSON_VALUES, "More than one value was found by"
                        + " 'json_value' on the specified path.");
            }
            if (value == JsonNull.NULL) {
                return null;
            }
            return value instanceof String string ? string : Json.write(value);
        };
        if (call.getType().getSqlTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
            return text;
        }
        return Casts.cast(text, textType, call.getType());
    }

    private static Object apply(Behavior behavior, Object[] row, ErrorCode code, String message) {
        return switch (behavior.kind()) {
            case NULL -> null;
            case DEFAULT -> behavior.defaultValue().evaluate(row);
            case ERROR -> throw new DuetException(code, message);
        };
    }

    private static Object symbol(RexNode node) {
        return node instanceof RexLiteral literal ? literal.getValue() : null;
    }
}
