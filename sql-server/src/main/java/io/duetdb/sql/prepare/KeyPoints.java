package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The points a condition confines a table's rows to: assignments of constants to columns such that every row the
 * condition accepts equals one of them on the columns it assigns. Conjuncts of the form {@code c = constant},
 * {@code c IN (constants)} (expanded to an OR of equalities) and ORs of conjunctions of equalities (a row
 * constructor's {@code (a, b) IN ((1, 2), (3, 4))}) each give a set of assignments; the points are their product.
 * Other conjuncts are left out, which only widens the points, so a reader of the points must still test the whole
 * condition on every row it reads. TiDB's Batch_Point_Get starts from the same analysis.
 */
public final class KeyPoints {
    /** More points than this are not enumerated: the conjunct that would pass it is left out. */
    public static final int MAX_POINTS = 4096;

    private final List<Map<Integer, RexNode>> points;

    private KeyPoints(List<Map<Integer, RexNode>> points) {
        this.points = points;
    }

    /**
     * The points of {@code conjuncts} (a condition over a table's columns, SEARCH expanded, split at AND). With no
     * conjunct that assigns anything, one empty point: every row.
     */
    public static KeyPoints of(List<RexNode> conjuncts) {
        requireNonNull(conjuncts, "conjuncts is null");
        List<Map<Integer, RexNode>> points = new ArrayList<>();
        points.add(Map.of());
        for (RexNode conjunct : conjuncts) {
            Optional<List<Map<Integer, RexNode>>> choices = choices(conjunct);
            if (choices.isEmpty() || (long) points.size() * choices.get().size() > MAX_POINTS) {
                continue;
            }
            List<Map<Integer, RexNode>> product = new ArrayList<>();
            for (Map<Integer, RexNode> point : points) {
                for (Map<Integer, RexNode> choice : choices.get()) {
                    merge(point, choice).ifPresent(product::add);
                }
            }
            points = product;
        }
        return new KeyPoints(List.copyOf(points));
    }

    /** The assignments; empty when the condition's constants contradict each other (no row can match). */
    public List<Map<Integer, RexNode>> points() {
        return points;
    }

    /** True when every point assigns each of {@code columns}. */
    public boolean assignAll(List<Integer> columns) {
        for (Map<Integer, RexNode> point : points) {
            if (!point.keySet().containsAll(columns)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The column under a cast that cannot change which values compare equal: from an integer, or from a string to a
     * string type at least as long (comparisons with a shorter CHAR literal cast the CHAR column to VARCHAR).
     */
    public static RexNode stripCast(RexNode node) {
        if (node.getKind() != SqlKind.CAST || !(((RexCall) node).getOperands().get(0) instanceof RexInputRef input)) {
            return node;
        }
        if (SqlTypeUtil.isIntType(input.getType())) {
            return input;
        }
        RelDataType target = node.getType();
        if (SqlTypeUtil.isCharacter(input.getType()) && SqlTypeUtil.isCharacter(target)
                && (target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                        || target.getPrecision() >= input.getType().getPrecision())) {
            return input;
        }
        return node;
    }

    /**
     * The two operands of a comparison as a key compares them: casts that keep equality stripped, and the sort keys
     * of a collated comparison (CollationRewrite) taken off when they key a column by its own collation, whose index
     * keys hold the same sort keys.
     */
    public static RexNode[] keyOperands(RexCall comparison) {
        RexNode left = comparison.getOperands().get(0);
        RexNode right = comparison.getOperands().get(1);
        if (!isSortKey(left) || !isSortKey(right)) {
            return new RexNode[] {stripCast(left), stripCast(right)};
        }
        RexLiteral collation = (RexLiteral) ((RexCall) left).getOperands().get(1);
        if (!collation.equals(((RexCall) right).getOperands().get(1))) {
            return new RexNode[] {left, right};
        }
        RexNode leftText = stripCast(((RexCall) left).getOperands().get(0));
        RexNode rightText = stripCast(((RexCall) right).getOperands().get(0));
        String name = collation.getValueAs(String.class);
        if (keyedBy(leftText, name) && isConstant(rightText) || keyedBy(rightText, name) && isConstant(leftText)) {
            return new RexNode[] {leftText, rightText};
        }
        return new RexNode[] {left, right};
    }

    private static boolean isSortKey(RexNode node) {
        return node instanceof RexCall call && call.getOperator() == MySqlCollations.SORT_KEY
                && call.getOperands().get(1) instanceof RexLiteral;
    }

    private static boolean keyedBy(RexNode node, String collation) {
        return node instanceof RexInputRef input
                && MySqlCollations.of(input.getType()).collationName().equalsIgnoreCase(collation);
    }

    /** A literal, a placeholder, or a cast of one. */
    public static boolean isConstant(RexNode node) {
        return node instanceof RexLiteral || node instanceof RexDynamicParam
                || (node.getKind() == SqlKind.CAST && isConstant(((RexCall) node).getOperands().get(0)));
    }

    /** {@code column = constant} (either way round) as the column's position and the constant, or empty. */
    public static Optional<Map.Entry<Integer, RexNode>> equality(RexNode node) {
        if (node.getKind() != SqlKind.EQUALS) {
            return Optional.empty();
        }
        RexNode[] operands = keyOperands((RexCall) node);
        RexNode left = operands[0];
        RexNode right = operands[1];
        if (isConstant(left) && right instanceof RexInputRef) {
            RexNode swap = left;
            left = right;
            right = swap;
        }
        if (left instanceof RexInputRef input && isConstant(right)) {
            return Optional.of(Map.entry(input.getIndex(), right));
        }
        return Optional.empty();
    }

    /** The assignments one conjunct allows, or empty when it is not made of equalities with constants. */
    private static Optional<List<Map<Integer, RexNode>>> choices(RexNode conjunct) {
        List<RexNode> disjuncts = conjunct.getKind() == SqlKind.OR
                ? RexUtil.flattenOr(((RexCall) conjunct).getOperands()) : List.of(conjunct);
        List<Map<Integer, RexNode>> choices = new ArrayList<>(disjuncts.size());
        for (RexNode disjunct : disjuncts) {
            List<RexNode> parts = disjunct.getKind() == SqlKind.AND
                    ? RexUtil.flattenAnd(((RexCall) disjunct).getOperands()) : List.of(disjunct);
            Map<Integer, RexNode> choice = new LinkedHashMap<>();
            for (RexNode part : parts) {
                Optional<Map.Entry<Integer, RexNode>> equality = equality(part);
                if (equality.isEmpty()) {
                    return Optional.empty();
                }
                RexNode earlier = choice.putIfAbsent(equality.get().getKey(), equality.get().getValue());
                if (earlier != null && contradicts(earlier, equality.get().getValue())) {
                    choice = null;
                    break;
                }
            }
            if (choice != null) {
                choices.add(choice);
            }
        }
        return Optional.of(choices);
    }

    private static Optional<Map<Integer, RexNode>> merge(Map<Integer, RexNode> point, Map<Integer, RexNode> choice) {
        Map<Integer, RexNode> merged = new HashMap<>(point);
        for (Map.Entry<Integer, RexNode> entry : choice.entrySet()) {
            RexNode earlier = merged.putIfAbsent(entry.getKey(), entry.getValue());
            if (earlier != null && contradicts(earlier, entry.getValue())) {
                return Optional.empty();
            }
        }
        return Optional.of(merged);
    }

    /**
     * Two numeric literals that differ: no value equals both. Anything else (strings, which MySQL may compare with
     * trailing spaces ignored, placeholders, casts) may agree, and keeping either one is sound because the whole
     * condition is tested on the rows read.
     */
    private static boolean contradicts(RexNode first, RexNode second) {
        return first instanceof RexLiteral left && second instanceof RexLiteral right
                && left.getValue() instanceof BigDecimal leftValue && right.getValue() instanceof BigDecimal rightValue
                && leftValue.compareTo(rightValue) != 0;
    }
}
