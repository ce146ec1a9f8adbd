package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.keys.Keys;
import io.duetdb.sql.prepare.KeyPoints;

/**
 * What a condition fixes of a key's columns (a secondary index, or a clustered primary key): the storage values of
 * the first columns that equalities fix, then the inclusive bounds {low, high} (either may be null) that comparisons
 * set on the next column, or null. The condition is still checked on every row read, so bounds may be wider than
 * the comparisons.
 */
record KeyPrefix(List<Object> values, Object[] bounds) {
    /** The prefix of {@code index} that {@code fixed} (equalities by public column position) and the comparisons set. */
    static KeyPrefix of(IndexInfo index, Map<Integer, Object> fixed, List<RexNode> conjuncts, TableAccess access,
            ExpressionCompiler compiler) {
        List<ColumnInfo> publicColumns = access.table().publicColumns();
        List<Object> values = new ArrayList<>();
        for (String column : index.columns()) {
            int publicPosition = position(publicColumns, column);
            if (publicPosition < 0 || !fixed.containsKey(publicPosition) || fixed.get(publicPosition) == null) {
                break;
            }
            ColumnInfo info = access.table().columns().get(access.columnIndex(column));
            try {
                Object coerced = Coercion.toColumn(fixed.get(publicPosition), info);
                if (Values.compare(coerced, fixed.get(publicPosition)) != 0 && Values.isNumber(coerced)) {
                    break; // 1.5 matches no integer: leave it to the condition
                }
                values.add(TableAccess.toKey(info, coerced));
            } catch (DuetException e) {
                break;
            }
        }
        Object[] bounds = values.size() < index.columns().size()
                ? bounds(conjuncts, index.columns().get(values.size()), access, compiler) : null;
        return new KeyPrefix(values, bounds);
    }

    boolean isEmpty() {
        return values.isEmpty() && bounds == null;
    }

    /**
     * The keys [start, end) of this prefix, given the key of the fixed values and a function from values (the fixed
     * ones and a bound) to the key they start.
     */
    byte[][] range(byte[] prefix, Function<List<Object>, byte[]> keyOf) {
        byte[] start = prefix;
        byte[] end = Keys.indexValuesEnd(prefix);
        if (bounds != null) {
            if (bounds[0] != null) {
                List<Object> low = new ArrayList<>(values);
                low.add(bounds[0]);
                start = keyOf.apply(low);
            }
            if (bounds[1] != null) {
                List<Object> high = new ArrayList<>(values);
                high.add(bounds[1]);
                end = Keys.indexValuesEnd(keyOf.apply(high));
            }
        }
        if (Arrays.compareUnsigned(start, end) > 0) {
            end = start;
        }
        return new byte[][] {start, end};
    }

    /** The conjuncts this prefix uses: the equalities on its fixed columns and the comparisons on the next one. */
    List<RexNode> conjuncts(IndexInfo index, List<RexNode> conjuncts, List<ColumnInfo> publicColumns,
            ExpressionCompiler compiler) {
        List<RexNode> used = new ArrayList<>();
        for (RexNode conjunct : conjuncts) {
            Optional<Map.Entry<Integer, RexNode>> equality = KeyPoints.equality(conjunct);
            for (int column = 0; column < values.size() + (bounds == null ? 0 : 1); column++) {
                int position = position(publicColumns, index.columns().get(column));
                boolean fixedHere = column < values.size() && equality.isPresent()
                        && equality.get().getKey() == position;
                boolean boundHere = column == values.size()
                        && !comparisons(List.of(conjunct), position, compiler).isEmpty();
                if (fixedHere || boundHere) {
                    used.add(conjunct);
                    break;
                }
            }
        }
        return used;
    }

    /**
     * Inclusive storage-form bounds {low, high} (either may be null) that comparisons with constants set on a key
     * column, or null when none does. Bounds are rounded to the column's type, which can only widen the range; a
     * bound that does not convert is ignored.
     */
    private static Object[] bounds(List<RexNode> conjuncts, String columnName, TableAccess access,
            ExpressionCompiler compiler) {
        int column = position(access.table().publicColumns(), columnName);
        if (column < 0) {
            return null;
        }
        ColumnInfo info = access.table().columns().get(access.columnIndex(columnName));
        Object low = null;
        Object high = null;
        for (Comparison comparison : comparisons(conjuncts, column, compiler)) {
            Object key;
            try {
                key = TableAccess.toKey(info, Coercion.toColumn(comparison.value(), info));
            } catch (DuetException e) {
                continue;
            }
            if (comparison.kind() == SqlKind.GREATER_THAN || comparison.kind() == SqlKind.GREATER_THAN_OR_EQUAL) {
                low = low == null || Values.compare(key, low) > 0 ? key : low;
            } else {
                high = high == null || Values.compare(key, high) < 0 ? key : high;
            }
        }
        if (low == null && high == null) {
            return null;
        }
        return new Object[] {low, high};
    }

    /** {@code column kind value}: a comparison of a public column with a non-null constant. */
    record Comparison(SqlKind kind, Object value) {
    }

    /** The conjuncts comparing the column with a constant (<, <=, >, >=), written with the column on the left. */
    static List<Comparison> comparisons(List<RexNode> conjuncts, int column, ExpressionCompiler compiler) {
        List<Comparison> comparisons = new ArrayList<>();
        for (RexNode conjunct : conjuncts) {
            SqlKind kind = conjunct.getKind();
            if (kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL && kind != SqlKind.LESS_THAN
                    && kind != SqlKind.LESS_THAN_OR_EQUAL) {
                continue;
            }
            RexNode[] operands = KeyPoints.keyOperands((RexCall) conjunct);
            RexNode left = operands[0];
            RexNode right = operands[1];
            if (KeyPoints.isConstant(left) && right instanceof RexInputRef) {
                RexNode swap = left;
                left = right;
                right = swap;
                kind = kind.reverse();
            }
            if (!(left instanceof RexInputRef input) || input.getIndex() != column || !KeyPoints.isConstant(right)) {
                continue;
            }
            Object value = compiler.compile(right).evaluate(new Object[0]);
            if (value != null) {
                comparisons.add(new Comparison(kind, value));
            }
        }
        return comparisons;
    }

    private static int position(List<ColumnInfo> publicColumns, String name) {
        for (int i = 0; i < publicColumns.size(); i++) {
            if (publicColumns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
