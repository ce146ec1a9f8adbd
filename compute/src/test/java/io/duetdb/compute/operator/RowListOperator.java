package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/** An input of operator tests: lists of rows, each given as one batch. */
final class RowListOperator implements BatchOperator {
    private final List<FieldType> types;
    private final Iterator<List<Object[]>> parts;
    private final BufferAllocator allocator;
    private VectorSchemaRoot current;

    RowListOperator(List<FieldType> types, Iterator<List<Object[]>> parts, BufferAllocator allocator) {
        this.types = List.copyOf(types);
        this.parts = requireNonNull(parts, "parts is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The rows in batches of {@code batchRows}. */
    static RowListOperator of(List<FieldType> types, List<Object[]> rows, int batchRows, BufferAllocator allocator) {
        List<List<Object[]>> split = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += batchRows) {
            split.add(rows.subList(from, Math.min(rows.size(), from + batchRows)));
        }
        return new RowListOperator(types, split.iterator(), allocator);
    }

    @Override
    public List<FieldType> outputTypes() {
        return types;
    }

    @Override
    public VectorSchemaRoot next() {
        close();
        current = parts.hasNext() ? Batches.ofRows(types, parts.next(), allocator) : null;
        return current;
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
