package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

import io.duetdb.client.txn.DistributedTransaction;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.TableInfo;

/**
 * Sent to the executors: what a task needs to prewrite its rows into the job's transaction. Generated ids (hidden
 * row ids, AUTO_INCREMENT values) of partition p are the base plus p times {@link #IDS_PER_TASK} plus the row's
 * ordinal, so a task attempt that runs again writes the same keys.
 */
record RowWriterFactory(ConnectorOptions options, byte[] tableRecord, StructType input,
        DistributedTransaction.Ticket ticket, long rowIdBase, long autoIncrementBase, long writeMillis)
        implements DataWriterFactory {
    /** The ids reserved for each task: 2^24 rows per task of a table that generates them. */
    static final long IDS_PER_TASK = 1L << 24;

    RowWriterFactory {
        requireNonNull(options, "options is null");
        requireNonNull(tableRecord, "tableRecord is null");
        requireNonNull(input, "input is null");
        requireNonNull(ticket, "ticket is null");
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        TableInfo table = new CatalogRecords().read(tableRecord, TableInfo.class);
        return new RowDataWriter(this, table, partitionId);
    }
}
