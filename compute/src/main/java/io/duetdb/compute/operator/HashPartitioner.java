package io.duetdb.compute.operator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.compute.UnsupportedExpressionException;
import io.duetdb.compute.expression.VectorExpression;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * Splits batches into partitions by the hash of key expressions, the way an MPP hash exchange sends each row to one
 * receiver: equal keys of one type have equal bytes ({@link KeyEncoder}), so every task that partitions by the same
 * key types sends equal keys to the same partition. Floating point keys are refused (0.0 and -0.0 differ in bytes).
 */
public final class HashPartitioner {
    private final List<VectorExpression> keys;
    private final int partitions;
    private final KeyEncoder encoder = new KeyEncoder();

    public HashPartitioner(List<VectorExpression> keys, int partitions) {
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        this.partitions = partitions;
        for (VectorExpression key : this.keys) {
            if (!HashJoinOperator.sameBytes(key.type(), key.type())) {
                throw new UnsupportedExpressionException("cannot hash-partition by a " + key.type().getType() + " key");
            }
        }
    }

    /** The partition of each row of {@code batch}. */
    public int[] partitionOf(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int[] partition = new int[rows];
        if (keys.isEmpty() || partitions == 1) {
            return partition;
        }
        List<FieldVector> values = new ArrayList<>(keys.size());
        try {
            for (VectorExpression key : keys) {
                values.add(key.evaluate(batch, allocator));
            }
            for (int row = 0; row < rows; row++) {
                int length = encoder.encode(values, row);
                partition[row] = Math.floorMod(hash(encoder.bytes(), length), partitions);
            }
        } finally {
            values.forEach(FieldVector::close);
        }
        return partition;
    }

    /**
     * The rows of {@code batch} in each partition, as new batches the caller closes (null for a partition without
     * rows).
     */
    public VectorSchemaRoot[] split(VectorSchemaRoot batch, List<FieldType> types, BufferAllocator allocator) {
        int[] partition = partitionOf(batch, allocator);
        int[] counts = new int[partitions];
        for (int p : partition) {
            counts[p]++;
        }
        VectorSchemaRoot[] parts = new VectorSchemaRoot[partitions];
        try {
            for (int p = 0; p < partitions; p++) {
                if (counts[p] == 0) {
                    continue;
                }
                int[] rows = new int[counts[p]];
                int next = 0;
                for (int row = 0; row < partition.length; row++) {
                    if (partition[row] == p) {
                        rows[next++] = row;
                    }
                }
                parts[p] = copyRows(batch, types, rows, allocator);
            }
        } catch (RuntimeException e) {
            for (VectorSchemaRoot part : parts) {
                if (part != null) {
                    part.close();
                }
            }
            throw e;
        }
        return parts;
    }

    /** The chosen rows of a batch, in a new batch. */
    public static VectorSchemaRoot copyRows(VectorSchemaRoot batch, List<FieldType> types, int[] rows,
            BufferAllocator allocator) {
        VectorSchemaRoot copy = Batches.empty(types, allocator);
        try {
            for (int column = 0; column < types.size(); column++) {
                FieldVector target = copy.getVector(column);
                target.setInitialCapacity(rows.length);
                target.allocateNew();
                Gather.rows(batch.getVector(column), rows, rows.length, target);
            }
            copy.setRowCount(rows.length);
            return copy;
        } catch (RuntimeException e) {
            copy.close();
            throw e;
        }
    }

    /** Murmur-style mixing of the key bytes: the same function on every learner, whatever its JVM. */
    static int hash(byte[] bytes, int length) {
        int hash = 0x9747b28c;
        for (int i = 0; i < length; i++) {
            hash ^= bytes[i] & 0xff;
            hash *= 0x5bd1e995;
            hash ^= hash >>> 15;
        }
        hash ^= length;
        hash *= 0x85ebca6b;
        return hash ^ (hash >>> 13);
    }
}
