package io.duetdb.sql.exec;

import java.util.function.Function;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.duetdb.common.json.Json;
import io.duetdb.common.json.JsonParser;
import io.duetdb.common.json.JsonSyntaxException;
import io.duetdb.sql.prepare.JsonTypes;

/**
 * A comparison with a JSON operand, as MySQL makes it: the other operand becomes a JSON value (a string a JSON
 * string, a number a JSON number), then both compare in JSON's order ({@link Json#compare}). Calcite casts a JSON
 * operand to the other's type (text, DOUBLE) to compare them; such a cast is looked through.
 */
final class JsonComparison {
    private JsonComparison() {
    }

    /** Whether the comparison has a JSON operand, as written or under Calcite's cast. */
    static boolean applies(RexCall call) {
        return call.getOperands().size() == 2
                && (jsonOperand(call.getOperands().get(0)) != null || jsonOperand(call.getOperands().get(1)) != null);
    }

    static RowExpression of(RexCall call, Function<RexNode, RowExpression> compiler) {
        return ExpressionCompiler.comparison(side(call.getOperands().get(0), compiler),
                side(call.getOperands().get(1), compiler), Json::compare, ExpressionCompiler.comparisonTest(call.getKind()));
    }

    /** The JSON expression an operand is, directly or cast to text or a number; null when it is none. */
    private static RexNode jsonOperand(RexNode node) {
        if (JsonTypes.isJson(node.getType())) {
            return node;
        }
        if (node.getKind() == SqlKind.CAST && node instanceof RexCall cast
                && JsonTypes.isJson(cast.getOperands().get(0).getType())
                && (SqlTypeUtil.isCharacter(node.getType()) || SqlTypeUtil.isNumeric(node.getType()))) {
            return cast.getOperands().get(0);
        }
        return null;
    }

    /** One operand as a JSON value (null for SQL NULL). */
    private static RowExpression side(RexNode node, Function<RexNode, RowExpression> compiler) {
        RexNode json = jsonOperand(node);
        if (json != null) {
            RowExpression operand = compiler.apply(json);
            return row -> {
                Object value = operand.evaluate(row);
                if (value == null) {
                    return null;
                }
                try {
                    return JsonParser.parse(Values.toText(value));
                } catch (JsonSyntaxException e) {
                    // Text typed JSON that is not (a string function of a JSON value): compared as a string.
                    return Values.toText(value);
                }
            };
        }
        RowExpression operand = compiler.apply(node);
        boolean isBoolean = node.getType().getSqlTypeName() == SqlTypeName.BOOLEAN;
        return row -> {
            Object value = operand.evaluate(row);
            return value == null ? null : JsonExpressions.scalar(value, isBoolean);
        };
    }
}
