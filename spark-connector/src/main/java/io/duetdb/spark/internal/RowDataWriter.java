package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

import io.duetdb.client.txn.DistributedTransaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.keys.Handle;
import io.duetdb.common.row.RowMutations;
import io.duetdb.proto.kv.Mutation;

/**
 * One task's rows: each becomes its record and index entries (RowMutations), prewritten as secondaries of the job's
 * transaction in batches, one batch prewriting while the next is encoded, so a task holds two batches at most. Nothing is visible until the driver
 * commits the job; a task that fails leaves locks the driver's abort (or any reader, once the primary is gone)
 * rolls back.
 */
final class RowDataWriter implements DataWriter<InternalRow> {
    private static final int BATCH_MUTATIONS = 4096;

    private final RowWriterFactory factory;
    private final TableInfo table;
    private final int partition;
    private final TxnClient transactions;
    private final RowMutations mutations;
    private final List<ColumnInfo> columns;
    private final int[] inputOrdinals;
    private final DataType[] inputTypes;
    private final int autoIncrementColumn;
    private final List<Mutation> pending = new ArrayList<>(BATCH_MUTATIONS + 16);
    private final ExecutorService prewriter;
    private Future<?> inFlight;
    private long rows;
    private long largestExplicitAutoIncrement;

    RowDataWriter(RowWriterFactory factory, TableInfo table, int partition) {
        this.factory = requireNonNull(factory, "factory is null");
        this.table = requireNonNull(table, "table is null");
        this.partition = partition;
        this.transactions = ClusterConnections.of(factory.options()).transactions();
        this.mutations = new RowMutations(table);
        this.columns = table.columns();
        this.inputOrdinals = new int[columns.size()];
        this.inputTypes = new DataType[columns.size()];
        int autoIncrement = -1;
        StructField[] fields = factory.input().fields();
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo column = columns.get(i);
            inputOrdinals[i] = -1;
            for (int j = 0; j < fields.length; j++) {
                if (column.state() == SchemaState.PUBLIC && fields[j].name().toLowerCase(Locale.ROOT)
                        .equals(column.name().toLowerCase(Locale.ROOT))) {
                    inputOrdinals[i] = j;
                    inputTypes[i] = SparkTypes.dataType(column.type());
                }
            }
            if (column.autoIncrement()) {
                autoIncrement = i;
            }
        }
        this.autoIncrementColumn = autoIncrement;
        this.prewriter = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "duet-spark-prewrite-" + partition);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void write(InternalRow row) {
        if (rows >= RowWriterFactory.IDS_PER_TASK) {
            throw new IllegalStateException("a task wrote more than " + RowWriterFactory.IDS_PER_TASK + " rows into "
                    + table.name() + ", whose ids are generated per task: repartition the DataFrame into more partitions");
        }
        Object[] stored = new Object[columns.size()];
        for (int i = 0; i < stored.length; i++) {
            ColumnInfo column = columns.get(i);
            Object value = inputOrdinals[i] >= 0 ? SparkValues.stored(column, inputTypes[i], row, inputOrdinals[i])
                    : missing(column);
            if (i == autoIncrementColumn) {
                if (value == null) {
                    value = generated(factory.autoIncrementBase());
                } else {
                    largestExplicitAutoIncrement = Math.max(largestExplicitAutoIncrement, ((Number) value).longValue());
                }
            }
            if (value == null && column.notNull() && column.state() == SchemaState.PUBLIC) {
                throw new IllegalArgumentException("Column '" + column.name() + "' cannot be null (table " + table.name() + ")");
            }
            stored[i] = value;
        }
        Handle handle = mutations.needsRowId() ? Handle.of(generated(factory.rowIdBase())) : mutations.handleOf(stored);
        mutations.insert(stored, handle, pending);
        rows++;
        if (pending.size() >= BATCH_MUTATIONS) {
            flush();
        }
    }

    /** The value of a column the DataFrame does not give: its default (CURRENT_TIMESTAMP at the write's time). */
    private Object missing(ColumnInfo column) {
        if (column.defaultCurrentTimestamp()) {
            return SparkValues.currentTimestamp(factory.writeMillis());
        }
        return column.originDefault();
    }

    private long generated(long base) {
        return base + 1 + partition * RowWriterFactory.IDS_PER_TASK + rows;
    }

    /**
     * Hands the batch to the prewriting thread after the previous batch's prewrite finished: the task encodes the
     * next batch while the stores take this one.
     */
    private void flush() {
        if (pending.isEmpty()) {
            return;
        }
        awaitPrewrite();
        List<Mutation> batch = List.copyOf(pending);
        pending.clear();
        inFlight = prewriter.submit(() -> DistributedTransaction.prewrite(transactions, factory.ticket(), batch));
    }

    private void awaitPrewrite() {
        if (inFlight == null) {
            return;
        }
        try {
            inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while prewriting rows of " + table.name(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            inFlight = null;
        }
    }

    @Override
    public WriterCommitMessage commit() {
        flush();
        awaitPrewrite();
        return new WrittenRows(partition, rows, largestExplicitAutoIncrement);
    }

    @Override
    public void abort() {
        pending.clear();
    }

    @Override
    public void close() {
        pending.clear();
        prewriter.shutdownNow();
    }
}
