package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import io.duetdb.client.txn.CoprocessorStream;
import io.duetdb.client.txn.Transaction;

/**
 * Reads one region's answers at the scan's snapshot and hands each Arrow batch to Spark as a ColumnarBatch whose
 * columns read the Arrow buffers in place. At most the reader memory option's bytes of answers wait unread; a batch
 * stays valid until the next call to {@link #next()}.
 */
final class RegionReader implements PartitionReader<ColumnarBatch> {
    private final RegionReaderFactory factory;
    private final BufferAllocator allocator;
    private final Transaction transaction;
    private final CoprocessorStream answers;
    private ArrowStreamReader current;
    private ColumnarBatch batch;

    RegionReader(RegionReaderFactory factory, RegionPartition partition) {
        this.factory = requireNonNull(factory, "factory is null");
        ClusterConnections.Connection connection = ClusterConnections.of(factory.options());
        this.allocator = new RootAllocator(Long.MAX_VALUE);
        Transaction opened = null;
        try {
            opened = connection.transactions().beginAt(factory.snapshotTs());
            this.answers = opened.coprocessorStream(factory.plan(), partition.start(), partition.end(),
                    factory.options().readerMemoryBytes(), 1, factory.replica());
        } catch (RuntimeException e) {
            if (opened != null) {
                opened.close();
            }
            allocator.close();
            throw e;
        }
        this.transaction = opened;
    }

    @Override
    public boolean next() throws IOException {
        closeCurrent();
        while (true) {
            byte[] answer = answers.next();
            if (answer == null) {
                return false;
            }
            current = new ArrowStreamReader(new ByteArrayInputStream(answer), allocator);
            if (current.loadNextBatch() && current.getVectorSchemaRoot().getRowCount() > 0) {
                batch = columns(current.getVectorSchemaRoot());
                return true;
            }
            closeCurrent();
        }
    }

    private ColumnarBatch columns(VectorSchemaRoot root) {
        StructField[] fields = factory.readSchema().fields();
        ColumnVector[] columns = new ColumnVector[factory.outputs()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new ArrowColumn(fields[i].dataType(), root.getVector(i));
        }
        return new ColumnarBatch(columns, root.getRowCount());
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    private void closeCurrent() {
        batch = null;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                current = null;
            }
        }
    }

    @Override
    public void close() {
        try {
            closeCurrent();
        } finally {
            try {
                answers.close();
            } finally {
                transaction.close();
                allocator.close();
            }
        }
    }
}
