package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.bulk.source.RowReader;
import io.duetdb.bulk.source.SourceFile;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Physical import of files (CSV, Parquet) into a table's key range (TiDB Lightning's local backend): files are read and encoded
 * in parallel into pairs, the pairs sorted (spilling sorted runs to local disk past the memory budget), then written
 * in key order as committed versions at one timestamp, region by region. Nothing is locked or checked against data
 * already there: the caller writes into a key range no one else reads or writes (a new table id it publishes at the
 * end) and holds GC below the commit timestamp until then.
 */
public final class TableImporter {
    private static final Logger LOG = LoggerFactory.getLogger(TableImporter.class);
    private static final long PROGRESS_LOG_SECONDS = 5;

    private final TxnClient client;
    private final ImportOptions options;

    public TableImporter(TxnClient client, ImportOptions options) {
        this.client = requireNonNull(client, "client is null");
        this.options = requireNonNull(options, "options is null");
    }

    /**
     * Imports the rows of {@code files} into {@code target} (its id is where the pairs go) at {@code commitTs}.
     * {@code columns} names the columns the fields fill, in order (all public columns when empty).
     */
    public ImportResult importFiles(TableInfo target, List<String> columns, List<SourceFile> files,
            Function<SourceFile, RowReader> reader, FieldParser parser, long commitTs, BooleanSupplier cancelled,
            ImportProgress progress) {
        RowEncoder encoder = new RowEncoder(target, columns, parser, LocalDateTime.now(ZoneOffset.UTC),
                target.autoIncrementBase());
        int threads = Math.min(options.threads(), files.size());
        Path work = options.workDirectory().resolve("import-" + target.id() + "-" + commitTs);
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory("bulk", "import", "progress"));
        reporter.scheduleAtFixedRate(() -> LOG.info(progress.describe()), PROGRESS_LOG_SECONDS, PROGRESS_LOG_SECONDS,
                TimeUnit.SECONDS);
        try (ExternalSorter sorter = new ExternalSorter(work, options.sortMemoryBytes(), threads)) {
            long started = System.nanoTime();
            encodeAll(encoder, files, reader, sorter, threads, cancelled, progress);
            long encoded = System.nanoTime();
            LOG.info("import into {}: {} rows encoded into {} pairs in {} ms ({} sorted runs spilled to {})",
                    target.name(), progress.rows(), progress.pairsSorted(), (encoded - started) / 1_000_000,
                    sorter.spilledRuns(), work);
            progress.phase(ImportProgress.Phase.WRITING);
            long pairs;
            KeyValueChecksum checksum = new KeyValueChecksum();
            try (ExternalSorter.Merged merged = sorter.merge()) {
                pairs = new PairWriter(client, commitTs, options.writeConcurrency(), progress).write(merged, checksum,
                        cancelled);
            }
            long written = System.nanoTime();
            progress.phase(ImportProgress.Phase.DONE);
            LOG.info("import into {}: {} pairs written at ts {} in {} ms", target.name(), pairs, commitTs,
                    (written - encoded) / 1_000_000);
            return new ImportResult(progress.rows(), pairs, progress.bytesRead(), encoder.maxAutoIncrement(),
                    encoder.rowIdsUsed(), checksum, encoded - started, written - encoded);
        } finally {
            reporter.shutdownNow();
            deleteQuietly(work);
        }
    }

    private void encodeAll(RowEncoder encoder, List<SourceFile> files, Function<SourceFile, RowReader> reader,
            ExternalSorter sorter,
            int threads, BooleanSupplier cancelled, ImportProgress progress) {
        ExecutorService readers = Executors.newFixedThreadPool(threads, new NamedThreadFactory("bulk", "import", "reader"));
        AtomicInteger nextFile = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                workers.add(readers.submit(() -> {
                    ExternalSorter.Buffer buffer = sorter.newBuffer();
                    for (int index = nextFile.getAndIncrement(); index < files.size(); index = nextFile.getAndIncrement()) {
                        encodeFile(encoder, files.get(index), reader, buffer, cancelled, progress);
                    }
                    buffer.finish();
                }));
            }
            for (Future<?> worker : workers) {
                try {
                    worker.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                } catch (ExecutionException e) {
                    workers.forEach(other -> other.cancel(true));
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            readers.shutdownNow();
        }
    }

    private void encodeFile(RowEncoder encoder, SourceFile file, Function<SourceFile, RowReader> reader,
            ExternalSorter.Buffer buffer, BooleanSupplier cancelled, ImportProgress progress) {
        long reported = 0;
        try (RowReader rows = reader.apply(file)) {
            long count = 0;
            for (RowReader.Row row = rows.next(); row != null; row = rows.next()) {
                long before = buffer.pairs();
                encoder.encode(file.describe(), row.line(), row.fields(), buffer);
                progress.pairsSorted.addAndGet(buffer.pairs() - before);
                if ((++count & 1023) == 0) {
                    progress.rows.addAndGet(1024);
                    long read = rows.bytesRead();
                    progress.bytesRead.addAndGet(read - reported);
                    reported = read;
                    if (cancelled.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                        throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
                    }
                }
            }
            progress.rows.addAndGet(count & 1023);
            progress.bytesRead.addAndGet(file.size() - reported);
        }
    }

    private static void deleteQuietly(Path directory) {
        try (var paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Nothing was spilled (no directory), or a leftover the next import's directory does not meet.
        }
    }
}
