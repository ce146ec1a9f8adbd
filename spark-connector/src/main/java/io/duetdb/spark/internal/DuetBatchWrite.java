package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.DistributedTransaction;
import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.row.RowMutations;
import io.duetdb.common.time.Timestamp;

/**
 * The job's transaction, driven from the Spark driver: it starts before the tasks (the primary lock, kept alive
 * while they run), reserves each task's block of generated ids, and commits when Spark has every task's commit
 * message (the primary, then the secondaries over the table's key range), or aborts (nothing becomes visible).
 * Tasks write with the commit coordinator: one attempt per partition commits.
 */
final class DuetBatchWrite implements BatchWrite {
    private static final Logger LOG = LoggerFactory.getLogger(DuetBatchWrite.class);

    private final String name;
    private final TableInfo table;
    private final ConnectorOptions options;
    private final StructType input;
    private DistributedTransaction transaction;

    DuetBatchWrite(String name, TableInfo table, ConnectorOptions options, StructType input) {
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
        this.options = requireNonNull(options, "options is null");
        this.input = requireNonNull(input, "input is null");
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        ClusterConnections.Connection connection = ClusterConnections.of(options);
        transaction = DistributedTransaction.start(connection.transactions(), "spark-write:" + name);
        long partitions = Math.max(1, info.numPartitions());
        long rowIdBase = new RowMutations(table).needsRowId()
                ? reserve(connection, CatalogRecords.rowIdCounter(table.id()), partitions) : 0;
        long autoIncrementBase = table.autoIncrementColumn().isPresent()
                ? reserve(connection, CatalogRecords.autoIncrementCounter(table.id()), partitions) : 0;
        long writeMillis = Timestamp.fromPacked(transaction.ticket().startTs()).physical();
        LOG.info("write to {} started: transaction {}, {} tasks", name, transaction.ticket().startTs(), partitions);
        return new RowWriterFactory(options, new CatalogRecords().write(table), input, transaction.ticket(), rowIdBase,
                autoIncrementBase, writeMillis);
    }

    /** Reserves {@code partitions} blocks of ids of a counter; answers the value before the first. */
    private static long reserve(ClusterConnections.Connection connection, String counter, long partitions) {
        try (Transaction reservation = connection.transactions().begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            long before = CatalogRecords.advanceCounter(reservation, counter, partitions * RowWriterFactory.IDS_PER_TASK);
            reservation.commit();
            return before;
        }
    }

    @Override
    public boolean useCommitCoordinator() {
        return true;
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        long rows = 0;
        long explicitAutoIncrement = 0;
        for (WriterCommitMessage message : messages) {
            if (message instanceof WrittenRows written) {
                rows += written.rows();
                explicitAutoIncrement = Math.max(explicitAutoIncrement, written.largestExplicitAutoIncrement());
            }
        }
        if (explicitAutoIncrement > 0) {
            rebase(explicitAutoIncrement);
        }
        long commitTs = transaction.commit(tableRange());
        LOG.info("write to {} committed: {} rows at {}", name, rows, commitTs);
    }

    /** Keeps later AUTO_INCREMENT values above the largest one the job wrote explicitly, as an INSERT does. */
    private void rebase(long largest) {
        ClusterConnections.Connection connection = ClusterConnections.of(options);
        try (Transaction reservation = connection.transactions().begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            String counter = CatalogRecords.autoIncrementCounter(table.id());
            long current = CatalogRecords.advanceCounter(reservation, counter, 0);
            if (largest > current) {
                CatalogRecords.advanceCounter(reservation, counter, largest - current);
            }
            reservation.commit();
        }
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        if (transaction != null) {
            transaction.abort(tableRange());
            LOG.info("write to {} aborted: transaction {} rolled back", name, transaction.ticket().startTs());
        }
    }

    private List<byte[][]> tableRange() {
        return List.<byte[][]>of(new byte[][] {Keys.tablePrefix(table.id()), Keys.tableEnd(table.id())});
    }
}
