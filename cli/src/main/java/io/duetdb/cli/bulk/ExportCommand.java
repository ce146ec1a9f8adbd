package io.duetdb.cli.bulk;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import io.duetdb.bulk.export.ExportFormat;
import io.duetdb.bulk.export.ExportMetadata;
import io.duetdb.bulk.export.TableExport;
import io.duetdb.bulk.export.TableExporter;
import io.duetdb.bulk.source.SourceFiles;
import io.duetdb.cli.HostAndPortConverter;
import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.CatalogRecords;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.time.Timestamp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * bin/duet export: tables of a database at one timestamp to CSV, Parquet or SQL files on a local path or any Hadoop file
 * system (TiDB's Dumpling, and its layout: schema files beside the data), with a metadata.json file recording the
 * timestamp, the files, and each table's row count and checksum. The read transaction holds GC below its timestamp while the export runs.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export tables at one consistent timestamp to CSV, Parquet or SQL files (local path, file:// or hdfs:// URI).")
public final class ExportCommand implements Callable<Integer> {
    @Option(names = "--pd", split = ",", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:2379",
            converter = HostAndPortConverter.class, description = "placement members (default: ${DEFAULT-VALUE})")
    List<HostAndPort> pd;

    @Option(names = "--database", required = true, description = "the database to export")
    String database;

    @Option(names = "--tables", split = ",", description = "tables to export (default: all of the database's)")
    List<String> tables;

    @Option(names = "--output", required = true, description = "a directory: a local path, file:// or hdfs:// URI")
    String output;

    @Option(names = "--format", defaultValue = "csv", description = "file format: csv (default), parquet or sql (INSERT statements)")
    String format;

    @Option(names = "--file-size", defaultValue = "256MiB", description = "bytes per file before the next one starts (default: ${DEFAULT-VALUE})")
    String fileSize;

    @Option(names = "--threads", defaultValue = "2", description = "tables exported at once (default: ${DEFAULT-VALUE})")
    int threads;

    @Override
    public Integer call() throws Exception {
        ExportFormat fileFormat = ExportFormat.of(format);
        if (threads < 1) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "--threads must be positive");
        }
        long fileBytes = DataSize.parse(fileSize).bytes();
        PrintStream out = System.out;
        SourceFiles files = SourceFiles.withDefaultConfiguration();
        Path directory = SourceFiles.outputPath(output);
        FileSystem fileSystem = directory.getFileSystem(files.configuration());
        // No .crc files beside local exports: the metadata's checksums verify a round trip.
        fileSystem.setWriteChecksum(false);
        try (PlacementClient placement = new GrpcPlacementClient(PlacementClientConfig.of(pd), "export");
                TxnClient client = new TxnClient(placement);
                BufferAllocator allocator = new RootAllocator();
                Transaction snapshot = client.begin()) {
            long ts = snapshot.startTs();
            CatalogRecords records = new CatalogRecords();
            DatabaseInfo db = records.databases(snapshot).stream()
                    .filter(candidate -> candidate.name().equalsIgnoreCase(database)).findFirst()
                    .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + database + "'"));
            List<TableInfo> selected = selectTables(records.tables(snapshot, db.id()));
            long estimate = 0;
            for (TableInfo table : selected) {
                estimate += records.analyzedRowCount(snapshot, table.id()).orElse(0L);
            }
            if (!fileSystem.mkdirs(directory)) {
                throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "could not create " + directory);
            }
            out.printf("exporting %d tables of %s at ts %d (%s) to %s%n", selected.size(), db.name(), ts,
                    Timestamp.fromPacked(ts).physicalInstant(), fileSystem.makeQualified(directory));
            AtomicLong rows = new AtomicLong();
            long started = System.nanoTime();
            List<TableExport> exports = new ArrayList<>();
            TableExporter exporter = new TableExporter(fileSystem, directory, fileFormat, fileBytes, allocator);
            String databaseSchema = exporter.writeDatabaseSchema(db.name());
            ExecutorService workers = Executors.newFixedThreadPool(Math.min(threads, Math.max(1, selected.size())));
            try (TerminalProgress progress = new TerminalProgress("export " + db.name(), rows::get, estimate, out)) {
                List<Future<TableExport>> running = new ArrayList<>();
                for (TableInfo table : selected) {
                    running.add(workers.submit(() -> {
                        try (Transaction transaction = client.beginAt(ts)) {
                            return exporter.export(transaction, db.name(), table, rows);
                        }
                    }));
                }
                for (Future<TableExport> table : running) {
                    exports.add(await(table));
                }
            } finally {
                workers.shutdownNow();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            new ExportMetadata(ts, Timestamp.fromPacked(ts).physicalInstant().toString(), fileFormat.extension(),
                    databaseSchema, exports).write(fileSystem, directory);
            long bytes = exports.stream().mapToLong(TableExport::bytes).sum();
            for (TableExport table : exports) {
                out.printf("  %s.%s: %,d rows, %d files, checksum %s (%d kvs)%n", table.database(), table.table(),
                        table.rows(), table.files().size(), Long.toUnsignedString(table.checksum().crc64Xor()),
                        table.checksum().totalKvs());
            }
            out.printf("exported %,d rows (%,d MiB) in %.1f s = %,.0f rows/s; metadata in %s%n", rows.get(), bytes >> 20,
                    seconds, rows.get() / Math.max(seconds, 1e-3), new Path(directory, ExportMetadata.FILE_NAME));
        }
        return 0;
    }

    private List<TableInfo> selectTables(List<TableInfo> all) {
        List<TableInfo> bases = all.stream().filter(table -> table.view() == null).toList();
        if (tables == null || tables.isEmpty()) {
            return bases;
        }
        List<TableInfo> selected = new ArrayList<>();
        for (String name : tables) {
            selected.add(bases.stream().filter(table -> table.name().equalsIgnoreCase(name.strip())).findFirst()
                    .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + database + "." + name.strip()
                            + "' doesn't exist")));
        }
        return selected;
    }

    private static TableExport await(Future<TableExport> table) throws InterruptedException {
        try {
            return table.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
