package io.duetdb.sql.exec;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.duetdb.common.types.Collation;
import io.duetdb.sql.prepare.MySqlCollations;

/**
 * The executor's side of collations: COLLATE (the text as it is), sort keys and folded texts (MySqlCollations), and
 * the functions that compare or search texts under the collation their arguments compare by (STRCMP, GREATEST,
 * LEAST, NULLIF, FIELD, FIND_IN_SET, LOCATE, INSTR, POSITION), as MySQL runs them.
 */
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

    /**
     * The body of a function that compares or searches text, over non-NULL arguments, when the call's texts compare
     * by a collation other than the binary one; null otherwise (the function's binary body applies).
     */
    static Function<Object[], Object> function(String name, RexCall call) {
        return switch (name) {
            case "STRCMP" -> under(collationOf(call, name), collation -> args ->
                    (long) Integer.signum(collation.compare(Values.toText(args[0]), Values.toText(args[1]))));
            case "GREATEST", "LEAST" -> under(collationOf(call, name), collation -> args -> {
                boolean greatest = name.equals("GREATEST");
                String best = Values.toText(args[0]);
                Object chosen = args[0];
                for (Object arg : args) {
                    int order = collation.compare(Values.toText(arg), best);
                    if (greatest ? order > 0 : order < 0) {
                        best = Values.toText(arg);
                        chosen = arg;
                    }
                }
                return chosen;
            });
            // Calcite turns INSTR(s, t) into POSITION(t IN s); LOCATE(t, s[, from]) is the same search.
            case "POSITION", "LOCATE" -> under(collationOf(call.getOperands().subList(0, 2), name), collation -> args ->
                    MySqlFunctions.locate(collation.foldForMatching(Values.toText(args[0])),
                            collation.foldForMatching(Values.toText(args[1])), args.length > 2 ? Values.toLong(args[2]) : 1));
            case "FIND_IN_SET" -> under(collationOf(call, name), collation -> args ->
                    EncodingFunctions.findInSet(Values.toText(args[0]), Values.toText(args[1]), collation));
            default -> null;
        };
    }

    /**
     * FIELD(x, a, b, ...) and NULLIF(a, b) over texts compared by a collation other than the binary one, whose NULL
     * arguments do not make the result NULL; null otherwise.
     */
    static Function<Object[], Object> nullTolerantFunction(String name, RexCall call) {
        return switch (name) {
            case "FIELD" -> under(collationOf(call, name), collation -> args -> {
                if (args[0] == null) {
                    return 0L;
                }
                for (int i = 1; i < args.length; i++) {
                    if (args[i] != null && collation.compare(Values.toText(args[0]), Values.toText(args[i])) == 0) {
                        return (long) i;
                    }
                }
                return 0L;
            });
            case "NULLIF" -> under(collationOf(call, name), collation -> args -> args[0] != null && args[1] != null
                    && collation.compare(Values.toText(args[0]), Values.toText(args[1])) == 0 ? null : args[0]);
            default -> null;
        };
    }

    private static Function<Object[], Object> under(Collation collation,
            Function<Collation, Function<Object[], Object>> body) {
        return collation == null || collation.binary() ? null : body.apply(collation);
    }

    private static Collation collationOf(RexCall call, String name) {
        return collationOf(call.getOperands(), name);
    }

    /**
     * The collation texts compared with each other compare by (MySQL's coercibility rules, pair by pair), or null
     * when an operand is not text (the values then compare as numbers or temporal values).
     */
    private static Collation collationOf(List<RexNode> operands, String name) {
        RelDataType decider = null;
        for (RexNode operand : operands) {
            RelDataType type = operand.getType();
            if (!SqlTypeUtil.inCharFamily(type)) {
                return null;
            }
            if (decider == null) {
                decider = type;
                continue;
            }
            Collation collation = MySqlCollations.comparisonCollation(decider, type, name.toLowerCase(Locale.ROOT));
            if (collation == null) {
                return null;
            }
            if (collation != MySqlCollations.of(decider)) {
                if (collation != MySqlCollations.of(type)) {
                    return collation;
                }
                decider = type;
            }
        }
        return decider == null ? null : MySqlCollations.of(decider);
    }

    private static Collation collation(RexCall call) {
        return MySqlCollations.named(((RexLiteral) call.getOperands().get(1)).getValueAs(String.class));
    }
}
