package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeField;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.compute.operator.Batches;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * An operator's rows as Arrow batches of its row type, for vectorized operators above it. A value is written only
 * when its column type holds it exactly: one that does not (a decimal with more digits of scale than its type
 * says) fails the statement rather than being rounded.
 */
final class RowBatches implements BatchOperator {
    private final RelNode node;
    private final Supplier<RowStream> source;
    private final List<FieldType> types;
    private final BufferAllocator allocator;
    private RowStream rows;
    private VectorSchemaRoot current;

    private RowBatches(RelNode node, Supplier<RowStream> source, List<FieldType> types, BufferAllocator allocator) {
        this.node = requireNonNull(node, "node is null");
        this.source = requireNonNull(source, "source is null");
        this.types = List.copyOf(types);
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** Rows the node gave (its inner rows read by lookups, say) as batches of the given types. */
    static RowBatches of(RelNode node, List<FieldType> types, List<Object[]> rows, BufferAllocator allocator) {
        return new RowBatches(node, () -> RowStream.of(rows), types, allocator);
    }

    /** The node's rows as batches, or null when a column's type has no batch form (or is a BOOLEAN). */
    static RowBatches of(RelNode node, VectorizedPlans.Context context, BufferAllocator allocator) {
        List<FieldType> types = new ArrayList<>();
        for (RelDataTypeField field : node.getRowType().getFieldList()) {
            FieldType type = ExpressionTranslator.fieldType(field.getType());
            if (type == null || type.getType() == ValueType.BOOLEAN) {
                return null;
            }
            types.add(type);
        }
        return new RowBatches(node, () -> context.rows(node), types, allocator);
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        closeCurrent();
        if (rows == null) {
            rows = source.get();
        }
        for (List<Object[]> batch = rows.next(); batch != null; batch = rows.next()) {
            if (!batch.isEmpty()) {
                current = batch(batch);
                return current;
            }
        }
        return null;
    }

    private VectorSchemaRoot batch(List<Object[]> batch) {
        VectorSchemaRoot root = Batches.empty(types, allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < types.size(); column++) {
                FieldType type = types.get(column);
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < batch.size(); row++) {
                    VectorValues.set(vector, row, exact(batch.get(row)[column], type));
                }
            }
            root.setRowCount(batch.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private Object exact(Object value, FieldType type) {
        if (value == null) {
            return null;
        }
        Object converted = ComputeValues.toCompute(value, type);
        boolean exact = converted != null && !(converted instanceof BigDecimal decimal && decimal.scale() > type.getScale()
                && decimal.stripTrailingZeros().scale() > type.getScale());
        if (!exact) {
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "internal error: " + node.getRelTypeName() + " gave "
                    + value.getClass().getSimpleName() + " " + value + " for a column of type " + type.getType() + " scale "
                    + type.getScale());
        }
        return converted;
    }

    private void closeCurrent() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    @Override
    public void close() {
        closeCurrent();
        if (rows != null) {
            rows.close();
        }
    }
}
