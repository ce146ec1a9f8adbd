package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Handle;
import io.duetdb.sql.exec.TableAccess;

/**
 * Writes the entries of a new index for a table's existing rows (ADD INDEX's write-reorganization state), reading
 * the rows a page at a time from one snapshot, taken once the index is write-only or later on every server, and
 * indexing up to {@code workers} pages at once (TiDB's {@code tidb_ddl_reorg_worker_cnt}).
 * <p>
 * A non-unique index is written as the snapshot saw it (TiDB's fast reorganization, on by default): each page's
 * entries are committed at the snapshot's timestamp without locks (KvImport), one request per region. Every writer
 * that commits after that timestamp maintains the index itself, and its versions are newer, so an entry of a row
 * changed or deleted since is overridden by that writer's delete; an entry's key holds the row's handle, so no
 * other row's entry can collide.
 * <p>
 * A unique index needs its duplicates found against rows written meanwhile, so each of its pages (and every page
 * with fast reorganization off) is a pessimistic transaction instead: it locks the page's rows and reads their
 * latest versions in one request per region, then locks the entries it writes (and reads them, to find duplicates)
 * in one more. Pages are disjoint, so their transactions never wait for one another. Every backfill of a server
 * shares its {@code slots}: four CREATE INDEX at once (sysbench's prepare) run four pages, not sixteen, which on two
 * cores only queued behind one another.
 */
final class IndexBackfill {
    private static final Logger LOG = LoggerFactory.getLogger(IndexBackfill.class);
    private static final ByteString NON_UNIQUE_ENTRY_VALUE = ByteString.copyFrom(new byte[] {'0'});
    /**
     * Rows per page of an imported (non-unique) index at least: an import costs a scan request and a Raft round
     * whatever its size, and sysbench's four indexes of 50,000 rows took 9.4 s in pages of 256 rows, 5.7 s in pages
     * of 1,024 and 2.8 s in pages of 4,096 here.
     */
    static final int IMPORT_PAGE_ROWS = 4096;

    private final TxnClient client;
    private final DdlExecutor.BackfillObserver observer;
    private final Semaphore slots;

    IndexBackfill(TxnClient client, DdlExecutor.BackfillObserver observer, Semaphore slots) {
        this.client = requireNonNull(client, "client is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.slots = requireNonNull(slots, "slots is null");
    }

    /**
     * Indexes every row of {@code table}, {@code workers} pages at a time, reporting progress to {@code job} as pages
     * commit: with {@code fastReorg} (TiDB's tidb_ddl_enable_fast_reorg) a non-unique index is imported, at least
     * {@link #IMPORT_PAGE_ROWS} rows per page; otherwise each page is a transaction of {@code transactionRows} rows.
     */
    void run(TableInfo table, long indexId, int transactionRows, int workers, boolean fastReorg,
            BooleanSupplier cancelled, DdlJobRecord job) {
        if (transactionRows < 1 || workers < 1) {
            throw new IllegalArgumentException("transactionRows and workers must be positive");
        }
        TableAccess access = new TableAccess(table);
        IndexInfo index = table.indexes().stream().filter(i -> i.id() == indexId).findFirst().orElseThrow();
        boolean imported = fastReorg && !index.unique();
        int batchSize = imported ? Math.max(transactionRows, IMPORT_PAGE_ROWS) : transactionRows;
        ExecutorService pool = Executors.newFixedThreadPool(workers,
                new NamedThreadFactory("sql", "ddl", "backfill-" + table.name() + "-" + index.name()));
        Deque<Future<Integer>> pages = new ArrayDeque<>();
        long rows = 0;
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            long snapshotTs = snapshot.startTs();
            byte[] start = access.recordStart();
            byte[] end = access.recordEnd();
            while (true) {
                if (cancelled.getAsBoolean()) {
                    throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                }
                List<Map.Entry<ByteString, byte[]>> page = snapshot.scan(start, end, batchSize);
                pages.add(pool.submit(() -> indexPage(table, access, index, page, imported, snapshotTs)));
                while (pages.size() >= workers) {
                    rows += committed(pages.poll());
                    job.progress(rows, true);
                }
                if (page.size() < batchSize) {
                    break;
                }
                byte[] last = page.get(page.size() - 1).getKey().toByteArray();
                start = Arrays.copyOf(last, last.length + 1);
            }
            while (!pages.isEmpty()) {
                rows += committed(pages.poll());
            }
        } finally {
            // A failed or cancelled backfill returns only once no page transaction is left running.
            pages.forEach(page -> page.cancel(false));
            pool.shutdown();
            awaitTermination(pool);
        }
        // The last count goes out with the public state's step.
        job.progress(rows, false);
        LOG.info("Backfilled index {} of {}: {} rows", index.name(), table.name(), rows);
    }

    private static int committed(Future<Integer> page) {
        try {
            return page.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new DuetException(ErrorCode.UNKNOWN_ERROR, "index backfill failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
        }
    }

    private static void awaitTermination(ExecutorService pool) {
        try {
            while (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.info("waiting for index backfill transactions to finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Indexes one page in one of the server's slots, imported at {@code snapshotTs} or in a transaction. */
    private int indexPage(TableInfo table, TableAccess access, IndexInfo index, List<Map.Entry<ByteString, byte[]>> page,
            boolean imported, long snapshotTs) throws InterruptedException {
        slots.acquire();
        try {
            if (!imported) {
                try (Transaction transaction = client.begin(TxnMode.PESSIMISTIC, Isolation.REPEATABLE_READ)) {
                    indexPage(transaction, table, access, index, page);
                    transaction.commit();
                }
            } else {
                importPage(access, index, page, snapshotTs);
            }
        } finally {
            slots.release();
        }
        observer.batchCommitted(page.size());
        return page.size();
    }

    /** A non-unique index's entries for the rows of a page as the snapshot read them, committed at its timestamp. */
    private void importPage(TableAccess access, IndexInfo index, List<Map.Entry<ByteString, byte[]>> page,
            long snapshotTs) {
        Map<ByteString, ByteString> entries = new HashMap<>(page.size() * 2);
        for (Map.Entry<ByteString, byte[]> pair : page) {
            Handle handle = access.handleOfRecordKey(pair.getKey().toByteArray());
            byte[] key = access.indexKey(index, access.decode(pair.getValue()), handle);
            entries.put(ByteString.copyFrom(key), NON_UNIQUE_ENTRY_VALUE);
        }
        if (!entries.isEmpty()) {
            client.importCommitted(entries, snapshotTs);
        }
    }

    /** One index entry to write: for a unique entry, the handle is its value and what a duplicate is checked by. */
    private record Entry(byte[] key, Handle handle, boolean unique, Object[] row) {
    }

    private static void indexPage(Transaction transaction, TableInfo table, TableAccess access, IndexInfo index,
            List<Map.Entry<ByteString, byte[]>> page) {
        List<byte[]> rowKeys = new ArrayList<>(page.size());
        for (Map.Entry<ByteString, byte[]> pair : page) {
            rowKeys.add(pair.getKey().toByteArray());
        }
        // The latest versions under lock; a row deleted since the snapshot is missing and needs no entry.
        Map<ByteString, byte[]> latest = rowKeys.isEmpty() ? Map.of() : transaction.getForUpdateAll(rowKeys);
        List<Entry> entries = new ArrayList<>(page.size());
        List<byte[]> uniqueKeys = new ArrayList<>();
        List<byte[]> plainKeys = new ArrayList<>();
        for (Map.Entry<ByteString, byte[]> pair : page) {
            byte[] value = latest.get(pair.getKey());
            if (value == null) {
                continue;
            }
            Handle handle = access.handleOfRecordKey(pair.getKey().toByteArray());
            Object[] row = access.decode(value);
            byte[] key = access.indexKey(index, row, handle);
            boolean unique = access.isUniqueEntry(index, row);
            entries.add(new Entry(key, handle, unique, row));
            (unique ? uniqueKeys : plainKeys).add(key);
        }
        Map<ByteString, byte[]> existing = uniqueKeys.isEmpty() ? Map.of() : transaction.getForUpdateAll(uniqueKeys);
        if (!plainKeys.isEmpty()) {
            transaction.lockKeys(plainKeys);
        }
        // Unique entries this page wrote, so that two rows of one page with the same key are a duplicate too.
        Map<ByteString, Handle> written = new HashMap<>();
        for (Entry entry : entries) {
            if (!entry.unique()) {
                transaction.put(entry.key(), NON_UNIQUE_ENTRY_VALUE.toByteArray());
                continue;
            }
            ByteString key = ByteString.copyFrom(entry.key());
            Handle earlier = written.get(key);
            byte[] other = existing.get(key);
            Handle holder = earlier != null ? earlier : other == null ? entry.handle() : access.handleOfValue(other);
            if (!holder.equals(entry.handle())) {
                throw new DuetException(ErrorCode.DUPLICATE_ENTRY, "Duplicate entry '"
                        + access.indexDisplayValues(index, entry.row()) + "' for key '" + table.name() + "." + index.name()
                        + "'");
            }
            transaction.put(entry.key(), TableAccess.handleValue(entry.handle()));
            written.put(key, entry.handle());
        }
    }
}
