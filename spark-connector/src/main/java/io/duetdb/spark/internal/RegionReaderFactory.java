package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import io.duetdb.proto.kv.ReplicaRead;

/** Sent to the executors: opens a columnar reader of one region with the scan's plan and snapshot. */
record RegionReaderFactory(ConnectorOptions options, byte[] plan, long snapshotTs, ReplicaRead replica,
        StructType readSchema, int outputs) implements PartitionReaderFactory {
    RegionReaderFactory {
        requireNonNull(options, "options is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(replica, "replica is null");
        requireNonNull(readSchema, "readSchema is null");
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException("DuetDB scans are read as columnar batches");
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new RegionReader(this, (RegionPartition) partition);
    }
}
