package io.duetdb.compute.operator;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.proto.coprocessor.FieldType;

/** One step of a coprocessor plan, pulled a batch at a time. */
public interface BatchOperator extends AutoCloseable {
    List<FieldType> outputTypes();

    /** The next non-empty batch, or null at the end. The batch stays the operator's and is valid until the next call. */
    VectorSchemaRoot next();

    @Override
    void close();
}
