package io.duetdb.learner.internal.read;

import java.util.ArrayList;
import java.util.List;

import io.duetdb.compute.Literals;
import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueOrdering;
import io.duetdb.learner.internal.stable.ColumnPack;
import io.duetdb.learner.internal.stable.PackColumn;
import io.duetdb.proto.coprocessor.Call;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Rough filtering of packs (TiFlash's rough set filter): from the selection right after the scan, the
 * conjuncts that compare a scanned column with constants; a pack whose min and max show that no row can satisfy
 * one of them is skipped without reading its columns. Conditions of any other form do not skip anything.
 */
public final class PackFilter {
    public static final PackFilter NONE = new PackFilter(List.of());

    /** column op values: EQUAL and IN test membership in [min, max], the others a bound. */
    private record Bound(int columnId, ScalarFunction function, ValueType type, List<Object> values) {
    }

    private final List<Bound> bounds;

    private PackFilter(List<Bound> bounds) {
        this.bounds = List.copyOf(bounds);
    }

    public static PackFilter of(DagRequest dag) {
        if (dag.getExecutorsCount() < 2 || dag.getExecutors(0).getKindCase() != Executor.KindCase.TABLE_SCAN
                || dag.getExecutors(1).getKindCase() != Executor.KindCase.SELECTION) {
            return NONE;
        }
        TableScan scan = dag.getExecutors(0).getTableScan();
        List<Bound> bounds = new ArrayList<>();
        for (Expression condition : dag.getExecutors(1).getSelection().getConditionsList()) {
            collect(condition, scan, bounds);
        }
        return new PackFilter(bounds);
    }

    public boolean isEmpty() {
        return bounds.isEmpty();
    }

    /** False when no row of the pack can satisfy the conditions. */
    public boolean mayMatch(ColumnPack pack) {
        for (Bound bound : bounds) {
            PackColumn column = pack.column(bound.columnId());
            if (column == null || column.type().getType() != bound.type()) {
                continue;
            }
            if (column.min() == null) {
                // Every value is NULL: no comparison is true.
                return false;
            }
            if (!mayMatch(bound, column.min(), column.max())) {
                return false;
            }
        }
        return true;
    }

    private static boolean mayMatch(Bound bound, Object min, Object max) {
        ValueType type = bound.type();
        return switch (bound.function()) {
            case EQUAL, IN -> {
                for (Object value : bound.values()) {
                    if (ValueOrdering.compare(value, min, type) >= 0 && ValueOrdering.compare(value, max, type) <= 0) {
                        yield true;
                    }
                }
                yield false;
            }
            case LESS -> ValueOrdering.compare(min, bound.values().get(0), type) < 0;
            case LESS_OR_EQUAL -> ValueOrdering.compare(min, bound.values().get(0), type) <= 0;
            case GREATER -> ValueOrdering.compare(max, bound.values().get(0), type) > 0;
            case GREATER_OR_EQUAL -> ValueOrdering.compare(max, bound.values().get(0), type) >= 0;
            default -> true;
        };
    }

    private static void collect(Expression condition, TableScan scan, List<Bound> bounds) {
        if (condition.getKindCase() != Expression.KindCase.CALL) {
            return;
        }
        Call call = condition.getCall();
        List<Expression> arguments = call.getArgumentsList();
        switch (call.getFunction()) {
            case AND -> arguments.forEach(argument -> collect(argument, scan, bounds));
            case EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> {
                if (arguments.size() != 2) {
                    return;
                }
                if (isColumn(arguments.get(0)) && isConstant(arguments.get(1))) {
                    add(bounds, scan, arguments.get(0), call.getFunction(), List.of(arguments.get(1)));
                } else if (isConstant(arguments.get(0)) && isColumn(arguments.get(1))) {
                    add(bounds, scan, arguments.get(1), flip(call.getFunction()), List.of(arguments.get(0)));
                }
            }
            case IN -> {
                if (arguments.size() >= 2 && isColumn(arguments.get(0))
                        && arguments.subList(1, arguments.size()).stream().allMatch(PackFilter::isConstant)) {
                    add(bounds, scan, arguments.get(0), ScalarFunction.IN, arguments.subList(1, arguments.size()));
                }
            }
            default -> {
            }
        }
    }

    private static void add(List<Bound> bounds, TableScan scan, Expression column, ScalarFunction function,
            List<Expression> constants) {
        if (column.getColumn() >= scan.getColumnsCount()) {
            return;
        }
        FieldType type = scan.getColumns(column.getColumn()).getType();
        List<Object> values = new ArrayList<>();
        for (Expression constant : constants) {
            if (constant.getType().getType() != type.getType()) {
                return;
            }
            Object value;
            try {
                value = Literals.value(constant.getLiteral(), constant.getType());
            } catch (UnsupportedExpressionException e) {
                return;
            }
            if (value != null) {
                values.add(value);
            }
        }
        if (values.isEmpty() && function != ScalarFunction.IN && function != ScalarFunction.EQUAL) {
            // A comparison with NULL is never true, but leave that to the selection.
            return;
        }
        bounds.add(new Bound(scan.getColumns(column.getColumn()).getColumnId(), function, type.getType(), values));
    }

    private static ScalarFunction flip(ScalarFunction function) {
        return switch (function) {
            case LESS -> ScalarFunction.GREATER;
            case LESS_OR_EQUAL -> ScalarFunction.GREATER_OR_EQUAL;
            case GREATER -> ScalarFunction.LESS;
            case GREATER_OR_EQUAL -> ScalarFunction.LESS_OR_EQUAL;
            default -> function;
        };
    }

    private static boolean isColumn(Expression expression) {
        return expression.getKindCase() == Expression.KindCase.COLUMN;
    }

    private static boolean isConstant(Expression expression) {
        return expression.getKindCase() == Expression.KindCase.LITERAL;
    }
}
