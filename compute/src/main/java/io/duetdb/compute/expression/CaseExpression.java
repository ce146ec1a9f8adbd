package io.duetdb.compute.expression;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * CASE WHEN ... THEN ... ELSE ... END: per row, the value of the first branch whose condition is TRUE (not NULL),
 * else the ELSE value (NULL without one). Every branch is evaluated for the whole batch, so the builder accepts
 * only branches that cannot fail (no arithmetic or casts) where MySQL would not evaluate them.
 */
public final class CaseExpression extends ValueExpression {
    private final List<VectorExpression> conditions;
    private final List<VectorExpression> values;
    private final VectorExpression otherwise;

    public CaseExpression(List<VectorExpression> arguments, FieldType type) {
        super("case", type);
        if (arguments.size() < 2) {
            throw new UnsupportedExpressionException("CASE without a WHEN branch");
        }
        this.conditions = new ArrayList<>();
        this.values = new ArrayList<>();
        int pairs = arguments.size() / 2;
        for (int i = 0; i < pairs; i++) {
            VectorExpression condition = arguments.get(2 * i);
            if (!VectorExpressions.isBoolean(condition)) {
                throw new UnsupportedExpressionException("a CASE condition of type " + condition.type().getType());
            }
            conditions.add(condition);
            values.add(checkedValue(arguments.get(2 * i + 1)));
        }
        this.otherwise = arguments.size() % 2 == 1 ? checkedValue(arguments.get(arguments.size() - 1)) : null;
        ValueTypes.arrowType(type);
    }

    private VectorExpression checkedValue(VectorExpression value) {
        if (value.type().getType() != type().getType()) {
            throw new UnsupportedExpressionException("a CASE branch of type " + value.type().getType() + " in a CASE of "
                    + type().getType());
        }
        return value;
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, FieldVector out, int rows) {
        // Which branch gives each row its value (the ELSE is the last, none is -1); the values are then written in
        // row order, as variable-width vectors (strings) must be.
        int[] chosen = new int[rows];
        java.util.Arrays.fill(chosen, -1);
        for (int branch = 0; branch < conditions.size(); branch++) {
            try (FieldVector condition = conditions.get(branch).evaluate(batch, allocator)) {
                BitVector truth = (BitVector) condition;
                for (int row = 0; row < rows; row++) {
                    if (chosen[row] < 0 && !truth.isNull(row) && truth.get(row) != 0) {
                        chosen[row] = branch;
                    }
                }
            }
        }
        List<VectorExpression> branches = new ArrayList<>(values);
        if (otherwise != null) {
            for (int row = 0; row < rows; row++) {
                if (chosen[row] < 0) {
                    chosen[row] = values.size();
                }
            }
            branches.add(otherwise);
        }
        FieldVector[] evaluated = new FieldVector[branches.size()];
        try {
            for (int branch = 0; branch < evaluated.length; branch++) {
                evaluated[branch] = branches.get(branch).evaluate(batch, allocator);
            }
            for (int row = 0; row < rows; row++) {
                VectorValues.set(out, row, chosen[row] < 0 ? null : VectorValues.get(evaluated[chosen[row]], row));
            }
        } finally {
            for (FieldVector vector : evaluated) {
                if (vector != null) {
                    vector.close();
                }
            }
        }
    }
}
