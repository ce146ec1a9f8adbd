package io.duetdb.sql.exec;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;

import io.duetdb.common.types.Collation;
import io.duetdb.sql.prepare.MySqlCollations;

/** The executor's side of collations: COLLATE (the text as it is), sort keys and folded texts (MySqlCollations). */
final class CollationExpressions {
    private CollationExpressions() {
    }

    /** The compiled call, or null when it is not one of these functions. */
    static RowExpression compile(String name, RexCall call, RowExpression text) {
        return switch (name) {
            case "DUET_COLLATE" -> text;
            case "DUET_COLLATION_KEY" -> {
                Collation collation = collation(call);
                yield row -> {
                    Object value = text.evaluate(row);
                    return value == null ? null : collation.sortKey(Values.toText(value));
                };
            }
            case "DUET_COLLATION_FOLD" -> {
                Collation collation = collation(call);
                yield row -> {
                    Object value = text.evaluate(row);
                    return value == null ? null : collation.foldForMatching(Values.toText(value));
                };
            }
            default -> null;
        };
    }

    private static Collation collation(RexCall call) {
        return MySqlCollations.named(((RexLiteral) call.getOperands().get(1)).getValueAs(String.class));
    }
}
