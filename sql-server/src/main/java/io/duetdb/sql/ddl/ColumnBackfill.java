package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.exec.TableAccess;

/**
 * Computes a column being added (generated, or with an expression default) in the rows a table already holds: ADD
 * COLUMN's write-reorganization state. Every writer computes the column since it became write-only, so only rows
 * written before need it. The backfill completes every row as the session's {@link RowCompletion} says: a generated
 * expression is deterministic, so a row a writer completed gets the same value again; a default is computed only
 * where the row holds none. Rows are found a page at a time from one snapshot; each page is a pessimistic
 * transaction that locks its rows, reads their latest versions, and writes back those that changed, so no
 * concurrent write is lost.
 */
final class ColumnBackfill {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnBackfill.class);

    private final TxnClient client;
    private final DdlExecutor.BackfillObserver observer;

    ColumnBackfill(TxnClient client, DdlExecutor.BackfillObserver observer) {
        this.client = requireNonNull(client, "client is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /** Completes every row of {@code table} (in its reorganizing state) with {@code completion}; the rows read. */
    long run(TableInfo table, Consumer<Object[]> completion, int transactionRows, BooleanSupplier cancelled,
            DdlJobRecord job) {
        if (transactionRows < 1) {
            throw new IllegalArgumentException("transactionRows must be positive");
        }
        TableAccess access = new TableAccess(table);
        long rows = 0;
        long rewritten = 0;
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            byte[] start = access.recordStart();
            byte[] end = access.recordEnd();
            while (true) {
                if (cancelled.getAsBoolean()) {
                    throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                }
                List<Map.Entry<ByteString, byte[]>> page = snapshot.scan(start, end, transactionRows);
                if (page.isEmpty()) {
                    break;
                }
                rewritten += completePage(access, completion, page);
                rows += page.size();
                observer.batchCommitted(page.size());
                job.progress(rows, true);
                if (page.size() < transactionRows) {
                    break;
                }
                byte[] last = page.get(page.size() - 1).getKey().toByteArray();
                start = Arrays.copyOf(last, last.length + 1);
            }
        }
        job.progress(rows, false);
        LOG.info("Backfilled the new column of {}: {} rows read, {} rewritten", table.name(), rows, rewritten);
        return rows;
    }

    /** One page's transaction; the rows it wrote. */
    private int completePage(TableAccess access, Consumer<Object[]> completion,
            List<Map.Entry<ByteString, byte[]>> page) {
        List<byte[]> rowKeys = new ArrayList<>(page.size());
        page.forEach(pair -> rowKeys.add(pair.getKey().toByteArray()));
        int written = 0;
        try (Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
            // The latest versions under lock; a row deleted since the snapshot is missing and needs nothing.
            Map<ByteString, byte[]> latest = transaction.getForUpdateAll(rowKeys);
            for (byte[] rowKey : rowKeys) {
                byte[] value = latest.get(ByteString.copyFrom(rowKey));
                if (value == null) {
                    continue;
                }
                Object[] row = access.decode(value);
                Object[] completed = row.clone();
                completion.accept(completed);
                if (!Arrays.deepEquals(row, completed)) {
                    transaction.put(rowKey, access.encode(completed));
                    written++;
                }
            }
            transaction.commit();
        }
        return written;
    }
}
