package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * Projections applied to batches of rows, compiled once: projections that only pick fields copy them (or pass the
 * rows on when they are all the fields in order); others are evaluated per row.
 */
final class Projection implements UnaryOperator<List<Object[]>> {
    private final int[] fields;
    private final List<RexNode> projects;
    private final ExpressionCompiler compiler;
    private final boolean identity;
    /** Compiled on the first batch: a plan only explained never compiles them. */
    private List<RowExpression> expressions;

    private Projection(int[] fields, List<RexNode> projects, ExpressionCompiler compiler, boolean identity) {
        this.fields = fields;
        this.projects = projects;
        this.compiler = compiler;
        this.identity = identity;
    }

    /** The projection of rows {@code inputWidth} fields wide. */
    static Projection of(List<RexNode> projects, int inputWidth, ExpressionCompiler compiler) {
        int[] fields = new int[projects.size()];
        boolean identity = fields.length == inputWidth;
        for (int i = 0; i < fields.length; i++) {
            if (!(projects.get(i) instanceof RexInputRef reference)) {
                return new Projection(null, List.copyOf(projects), compiler, false);
            }
            fields[i] = reference.getIndex();
            identity &= fields[i] == i;
        }
        return new Projection(fields, null, compiler, identity);
    }

    @Override
    public List<Object[]> apply(List<Object[]> rows) {
        if (identity) {
            return rows;
        }
        if (fields == null && expressions == null) {
            List<RowExpression> compiled = new ArrayList<>();
            for (RexNode project : projects) {
                compiled.add(compiler.compile(project));
            }
            expressions = compiled;
        }
        List<Object[]> output = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] values;
            if (fields != null) {
                values = new Object[fields.length];
                for (int i = 0; i < fields.length; i++) {
                    values[i] = row[fields[i]];
                }
            } else {
                values = new Object[expressions.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = expressions.get(i).evaluate(row);
                }
            }
            output.add(values);
        }
        return output;
    }
}
