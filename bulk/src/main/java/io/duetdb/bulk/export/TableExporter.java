package io.duetdb.bulk.export;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.CoprocessorStream;
import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.compute.Literals;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.VectorValues;
import io.duetdb.compute.operator.DagPipeline;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ScanColumn;
import io.duetdb.proto.coprocessor.TableScan;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * Exports one table at a transaction's read timestamp: a coprocessor scan of every column, region after region in
 * key order (several regions read ahead at once), written as {@code <db>.<table>.<n>.<format>} files cut at
 * {@code fileBytes}, in a format IMPORT INTO reads back (CSV as LOAD DATA reads it by default, Parquet, or SQL
 * INSERT statements), beside a {@code <db>.<table>-schema.sql} file with its CREATE TABLE statement. The
 * stores' checksum of the table at the same timestamp comes with it, so a re-import can be verified.
 */
public final class TableExporter {
    private static final Logger LOG = LoggerFactory.getLogger(TableExporter.class);
    private static final int READ_AHEAD = 4;

    private final FileSystem fileSystem;
    private final Path directory;
    private final ExportFormat format;
    private final long fileBytes;
    private final BufferAllocator allocator;

    public TableExporter(FileSystem fileSystem, Path directory, ExportFormat format, long fileBytes,
            BufferAllocator allocator) {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.format = requireNonNull(format, "format is null");
        if (fileBytes < 1) {
            throw new IllegalArgumentException("fileBytes must be positive: " + fileBytes);
        }
        this.fileBytes = fileBytes;
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /**
     * Writes the table's rows; {@code rows} (which other tables' exports may share) counts them as they go, for
     * progress.
     */
    public TableExport export(Transaction transaction, String database, TableInfo table, AtomicLong rows) {
        List<ColumnInfo> columns = table.publicColumns();
        byte[] plan = plan(table, columns);
        String schemaFile = writeSchema(database, table);
        List<String> files = new ArrayList<>();
        long[] bytes = {0};
        long started = System.nanoTime();
        long[] written = {0};
        FileWriter writer = new FileWriter(database, table.name(), columns, files, bytes);
        try (CoprocessorStream stream = transaction.coprocessorStream(plan, Keys.recordPrefix(table.id()),
                Keys.recordEnd(table.id()), 0, READ_AHEAD)) {
            for (byte[] answer = stream.next(); answer != null; answer = stream.next()) {
                ArrowIpc.read(answer, allocator, batch -> {
                    List<FieldVector> vectors = batch.getFieldVectors();
                    Object[] values = new Object[columns.size()];
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        for (int column = 0; column < values.length; column++) {
                            values[column] = VectorValues.get(vectors.get(column), row);
                        }
                        writer.write(values);
                    }
                    written[0] += batch.getRowCount();
                    rows.addAndGet(batch.getRowCount());
                });
            }
        } finally {
            writer.close();
        }
        KeyValueChecksum checksum = transaction.checksum(Keys.tablePrefix(table.id()), Keys.tableEnd(table.id()));
        long exported = written[0];
        LOG.info("exported {}.{}: {} rows in {} files ({} bytes) in {} ms", database, table.name(), exported,
                files.size(), bytes[0], (System.nanoTime() - started) / 1_000_000);
        return new TableExport(database, table.name(), exported, schemaFile, files, bytes[0], checksum);
    }

    /** {@code <db>-schema-create.sql}: the CREATE DATABASE statement an import runs first (Dumpling's layout). */
    public String writeDatabaseSchema(String database) {
        return writeText(new Path(directory, database + "-schema-create.sql"),
                "CREATE DATABASE IF NOT EXISTS " + CreateTableText.quoted(database) + ";\n", database);
    }

    /** {@code <db>.<table>-schema.sql}: the table's CREATE TABLE statement, as SHOW CREATE TABLE prints it. */
    private String writeSchema(String database, TableInfo table) {
        return writeText(new Path(directory, database + "." + table.name() + "-schema.sql"),
                "/*!40101 SET NAMES binary*/;\n" + CreateTableText.of(table, database) + ";\n", database + "." + table.name());
    }

    private String writeText(Path file, String text, String what) {
        try (OutputStream out = fileSystem.create(file, true)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "could not write the schema of " + what + " to "
                    + file + ": " + e.getMessage());
        }
        return fileSystem.makeQualified(file).toString();
    }

    /** A scan of the columns in their order; unsigned BIGINT travels as UINT64. */
    static byte[] plan(TableInfo table, List<ColumnInfo> columns) {
        TableScan.Builder scan = TableScan.newBuilder().setTableId(table.id());
        for (ColumnInfo column : columns) {
            FieldType stored = StoredValues.columnType(column.type());
            FieldType type = stored != null ? stored : ValueTypes.of(ValueType.UINT64);
            ScanColumn.Builder scanColumn = ScanColumn.newBuilder().setColumnId(column.id()).setType(type);
            Object origin = column.originDefault();
            if (origin != null) {
                scanColumn.setDefaultValue(Literals.of(StoredValues.toCompute(origin, type)));
            }
            scan.addColumns(scanColumn);
        }
        DagRequest request = DagRequest.newBuilder().addExecutors(Executor.newBuilder().setTableScan(scan)).build();
        DagPipeline.check(request);
        return request.toByteArray();
    }

    /** Writes rows to the current file, starting the next one past the size limit. */
    private final class FileWriter implements AutoCloseable {
        private final String database;
        private final String table;
        private final List<ColumnInfo> columns;
        private final List<String> files;
        private final long[] bytes;
        private RowFileWriter current;

        FileWriter(String database, String table, List<ColumnInfo> columns, List<String> files, long[] bytes) {
            this.database = database;
            this.table = table;
            this.columns = columns;
            this.files = files;
            this.bytes = bytes;
        }

        void write(Object[] values) {
            try {
                if (current == null || current.bytes() >= fileBytes) {
                    next();
                }
                current.write(values);
            } catch (IOException e) {
                throw failure(e);
            }
        }

        private void next() throws IOException {
            closeFile();
            Path file = new Path(directory, String.format("%s.%s.%09d.%s", database, table, files.size(),
                    format.extension()));
            current = format.open(fileSystem, file, table, columns);
            files.add(fileSystem.makeQualified(file).toString());
        }

        private void closeFile() throws IOException {
            if (current != null) {
                current.close();
                bytes[0] += current.bytes();
                current = null;
            }
        }

        @Override
        public void close() {
            try {
                closeFile();
            } catch (IOException e) {
                throw failure(e);
            }
        }

        private DuetException failure(IOException e) {
            return new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "could not write the export of " + database + "."
                    + table + " to " + directory + ": " + e.getMessage());
        }
    }
}
