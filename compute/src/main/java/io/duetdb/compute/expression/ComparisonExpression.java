package io.duetdb.compute.expression;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.proto.coprocessor.ScalarFunction;
import io.duetdb.proto.coprocessor.ValueType;

/** {@code left op right} for =, <>, <, <=, >, >=: NULL when either side is NULL. */
public final class ComparisonExpression extends BooleanExpression {
    private final ScalarFunction function;
    private final VectorExpression left;
    private final VectorExpression right;
    private final ComparisonDomain domain;

    public ComparisonExpression(ScalarFunction function, VectorExpression left, VectorExpression right) {
        this.function = requireNonNull(function, "function is null");
        this.left = requireNonNull(left, "left is null");
        this.right = requireNonNull(right, "right is null");
        this.domain = ComparisonDomain.of(left.type().getType(), right.type().getType());
        test(0);
    }

    private boolean test(int comparison) {
        return switch (function) {
            case EQUAL -> comparison == 0;
            case NOT_EQUAL -> comparison != 0;
            case LESS -> comparison < 0;
            case LESS_OR_EQUAL -> comparison <= 0;
            case GREATER -> comparison > 0;
            case GREATER_OR_EQUAL -> comparison >= 0;
            default -> throw new UnsupportedExpressionException(function + " is not a comparison");
        };
    }

    @Override
    void fill(VectorSchemaRoot batch, BufferAllocator allocator, BitVector out, int rows) {
        ValueType leftType = left.type().getType();
        ValueType rightType = right.type().getType();
        try (Operand a = ComparisonDomain.aligned(left.operand(batch, allocator), leftType, rightType);
                Operand b = ComparisonDomain.aligned(right.operand(batch, allocator), rightType, leftType)) {
            boolean exactLongs = domain == ComparisonDomain.DECIMAL && a.scale() != Operand.NO_SCALE
                    && b.scale() != Operand.NO_SCALE;
            int scale = exactLongs ? Math.max(a.scale(), b.scale()) : 0;
            TruthBits results = new TruthBits(rows);
            for (int row = 0; row < rows; row++) {
                if (a.isNull(row) || b.isNull(row)) {
                    continue;
                }
                int comparison = switch (domain) {
                    case SIGNED -> Long.compare(a.getLong(row), b.getLong(row));
                    case UNSIGNED -> Long.compareUnsigned(a.getLong(row), b.getLong(row));
                    case DOUBLE -> Double.compare(a.getDouble(row), b.getDouble(row));
                    case DECIMAL -> exactLongs ? compareDecimals(a, b, row, scale)
                            : a.getDecimal(row).compareTo(b.getDecimal(row));
                    case BYTES -> Arrays.compareUnsigned(a.getBytes(row), b.getBytes(row));
                };
                results.set(row, test(comparison));
            }
            results.writeTo(out, rows);
        }
    }

    /** Two exact numbers compared as longs at a common scale where they fit, else as BigDecimals. */
    private static int compareDecimals(Operand a, Operand b, int row, int scale) {
        long x = UnscaledLongs.scaleUp(a.unscaled(row), scale - a.scale());
        long y = UnscaledLongs.scaleUp(b.unscaled(row), scale - b.scale());
        if (x == Operand.NOT_A_LONG || y == Operand.NOT_A_LONG) {
            return a.getDecimal(row).compareTo(b.getDecimal(row));
        }
        return Long.compare(x, y);
    }
}
