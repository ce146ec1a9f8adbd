package io.duetdb.cli.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import io.duetdb.bulk.export.ExportMetadata;
import io.duetdb.bulk.export.TableExport;
import io.duetdb.bulk.source.SourceFiles;
import io.duetdb.bulk.source.SqlScript;
import io.duetdb.cli.HostAndPortConverter;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * bin/duet import: an export directory (bin/duet export's, or Dumpling's layout) into a running cluster through a SQL
 * server, as TiDB Lightning does: each database and table is created from its schema file, each table's data files
 * are imported with IMPORT INTO (the physical backend: empty tables, visible at once when done) or as batched INSERTs
 * (the logical backend, {@link LogicalTableImport}), and, when the directory has a metadata.json, each table's rows and
 * checksum are compared with the export's. Run again after a failure, the physical backend skips the tables that
 * already hold the export's rows (the same checksum) and imports the rest.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Import an export directory (schema and data files; local path, file:// or hdfs:// URI) through a SQL server.")
public final class ImportCommand implements Callable<Integer> {
    private static final int TABLE_EXISTS = 1050;

    @Option(names = "--sql", defaultValue = "127.0.0.1:4000", converter = HostAndPortConverter.class,
            paramLabel = "HOST:PORT", description = "the SQL server (default: ${DEFAULT-VALUE})")
    HostAndPort sql;

    @Option(names = {"-u", "--user"}, defaultValue = "root", description = "the account (default: ${DEFAULT-VALUE})")
    String user;

    @Option(names = {"-p", "--password"}, defaultValue = "", description = "its password (default: none)")
    String password;

    @Option(names = "--input", required = true, description = "the export directory: a local path, file:// or hdfs:// URI")
    String input;

    @Option(names = "--database", description = "import into this database instead of the one the files name"
            + " (the directory must hold one database)")
    String database;

    @Option(names = "--tables", split = ",", description = "tables to import (default: all the directory holds)")
    List<String> tables;

    @Option(names = "--threads", defaultValue = "1", description = "tables imported at once (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--no-schema", description = "the tables exist already: do not run the schema files")
    boolean noSchema;

    @Option(names = "--csv-header", description = "CSV files begin with a line of column names (Dumpling's"
            + " --csv-header; bin/duet export writes none)")
    boolean csvHeader;

    @Option(names = "--backend", defaultValue = "physical", description = "physical (IMPORT INTO: empty tables, rows"
            + " visible at once when done; the default) or logical (batched INSERTs: tables may hold rows and stay"
            + " writable)")
    String backend;

    @Option(names = "--on-duplicate", defaultValue = "error", description = "logical backend: a row whose key is"
            + " taken fails the import (error, the default), replaces the old row (replace) or is skipped (ignore)")
    String onDuplicate;

    @Override
    public Integer call() throws Exception {
        if (threads < 1) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "--threads must be positive");
        }
        boolean logical = switch (backend.toLowerCase(Locale.ROOT)) {
            case "logical" -> true;
            case "physical" -> false;
            default -> throw new DuetException(ErrorCode.INVALID_CONFIG, "--backend takes physical or logical, not '"
                    + backend + "'");
        };
        LogicalTableImport.OnDuplicate duplicates = LogicalTableImport.OnDuplicate.of(onDuplicate);
        if (!logical && duplicates != LogicalTableImport.OnDuplicate.ERROR) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "--on-duplicate " + onDuplicate
                    + " needs --backend logical (a physical import fails on duplicate keys)");
        }
        PrintStream out = System.out;
        SourceFiles files = SourceFiles.withDefaultConfiguration();
        Path directory = SourceFiles.outputPath(input);
        FileSystem fileSystem = directory.getFileSystem(files.configuration());
        if (!fileSystem.getFileStatus(directory).isDirectory()) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, input + " is not a directory");
        }
        ExportLayout layout = ExportLayout.of(fileSystem, directory);
        Optional<ExportMetadata> metadata = ExportMetadata.read(fileSystem, directory);
        List<ExportLayout.Table> selected = select(layout);
        if (database != null && selected.stream().map(ExportLayout.Table::database).distinct().count() > 1) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "--database renames one database, and " + input
                    + " holds tables of several");
        }
        long expectedRows = selected.stream().mapToLong(table -> metadata.flatMap(found -> found.table(table.database(),
                table.name())).map(TableExport::rows).orElse(0L)).sum();
        out.printf("importing %d table%s from %s through %s (%s backend)%s%n", selected.size(),
                selected.size() == 1 ? "" : "s", fileSystem.makeQualified(directory), sql, logical ? "logical" : "physical",
                metadata.map(found -> " (exported at ts " + found.ts() + ")").orElse(""));
        Map<String, Long> importedRows = new ConcurrentHashMap<>();
        AtomicLong inserted = new AtomicLong();
        LogicalTableImport logicalImport = logical ? new LogicalTableImport(files, duplicates, csvHeader ? 1 : 0) : null;
        List<TableResult> results = new ArrayList<>();
        long started = System.nanoTime();
        try (Connection monitor = connect();
                ImportJobProgress jobs = new ImportJobProgress(monitor, importedRows, inserted);
                TerminalProgress progress = new TerminalProgress("import", jobs::rows, expectedRows, out)) {
            if (!noSchema) {
                createDatabases(fileSystem, selected);
            }
            ExecutorService workers = Executors.newFixedThreadPool(Math.min(threads, Math.max(1, selected.size())));
            try {
                List<Future<TableResult>> running = new ArrayList<>();
                for (ExportLayout.Table table : selected) {
                    Optional<TableExport> exported = metadata.flatMap(found -> found.table(table.database(), table.name()));
                    running.add(workers.submit(() -> importTable(fileSystem, table, exported, importedRows,
                            logicalImport, inserted)));
                }
                for (Future<TableResult> table : running) {
                    results.add(await(table));
                }
            } finally {
                workers.shutdownNow();
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long rows = 0;
        List<String> mismatches = new ArrayList<>();
        for (TableResult result : results) {
            rows += result.rows();
            Optional<TableExport> exported = metadata.flatMap(found -> found.table(result.table().database(),
                    result.table().name()));
            String verdict = !result.comparable() ? "not compared: the table held rows before"
                    : exported.map(entry -> entry.checksum().crc64Xor() == result.checksum()
                    && entry.checksum().totalKvs() == result.totalKvs() && entry.rows() == result.rows()
                            ? "matches the export" : "DIFFERS from the export's " + Long.toUnsignedString(
                                    entry.checksum().crc64Xor()) + " (" + entry.checksum().totalKvs() + " kvs, "
                                    + entry.rows() + " rows)").orElse("no export checksum to compare");
            if (verdict.startsWith("DIFFERS")) {
                mismatches.add(result.target());
            }
            out.printf("  %s: %,d rows, checksum %s (%d kvs) %s%s%n", result.target(), result.rows(),
                    Long.toUnsignedString(result.checksum()), result.totalKvs(), verdict,
                    result.skipped() ? " (imported by an earlier run: skipped)" : "");
        }
        out.printf("imported %,d rows in %.1f s = %,.0f rows/s%n", rows, seconds, rows / Math.max(seconds, 1e-3));
        if (!mismatches.isEmpty()) {
            throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "the checksum of " + String.join(", ", mismatches)
                    + " differs from the export's");
        }
        return 0;
    }

    private List<ExportLayout.Table> select(ExportLayout layout) {
        if (tables == null || tables.isEmpty()) {
            if (layout.tables().isEmpty()) {
                throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, input + " holds no table's data or schema files");
            }
            return layout.tables();
        }
        List<ExportLayout.Table> selected = new ArrayList<>();
        for (String name : tables) {
            selected.add(layout.tables().stream().filter(table -> table.name().equalsIgnoreCase(name.strip()))
                    .findFirst().orElseThrow(() -> new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, input
                            + " holds no files of table " + name.strip())));
        }
        return selected;
    }

    private void createDatabases(FileSystem fileSystem, List<ExportLayout.Table> selected) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String name : selected.stream().map(ExportLayout.Table::database).distinct().toList()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + CreateTableText.quoted(target(name)));
            }
        }
    }

    private TableResult importTable(FileSystem fileSystem, ExportLayout.Table table, Optional<TableExport> exported,
            Map<String, Long> importedRows, LogicalTableImport logicalImport, AtomicLong inserted)
            throws SQLException, IOException {
        String targetDatabase = target(table.database());
        String target = CreateTableText.quoted(targetDatabase) + "." + CreateTableText.quoted(table.name());
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("USE " + CreateTableText.quoted(targetDatabase));
            if (!noSchema) {
                if (table.schemaFile() == null) {
                    throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "no schema file for " + table.database()
                            + "." + table.name() + " in " + input + " (create the table and use --no-schema)");
                }
                runSchema(statement, fileSystem, table);
            }
            if (table.dataPattern() == null) {
                importedRows.put(target, 0L);
                return new TableResult(table, target, 0, 0, 0, true, false);
            }
            boolean empty;
            try (ResultSet any = statement.executeQuery("SELECT 1 FROM " + target + " LIMIT 1")) {
                empty = !any.next();
            }
            if (logicalImport != null) {
                long rows = logicalImport.run(connection, target, table.dataPattern(), table.format(), inserted);
                TableResult stored = stored(statement, table, target, rows);
                return new TableResult(table, target, rows, stored.checksum(), stored.totalKvs(), empty, false);
            }
            if (!empty && exported.isPresent()) {
                // A run that stopped after some tables: those already holding the export's rows are done.
                TableResult stored = stored(statement, table, target, exported.get().rows());
                if (stored.checksum() == exported.get().checksum().crc64Xor()
                        && stored.totalKvs() == exported.get().checksum().totalKvs()) {
                    importedRows.put(target, stored.rows());
                    return new TableResult(table, target, stored.rows(), stored.checksum(), stored.totalKvs(), true,
                            true);
                }
            }
            statement.execute("IMPORT INTO " + target + " FROM '" + table.dataPattern().replace("'", "''")
                    + "' FORMAT '" + table.format() + "'"
                    + (csvHeader && table.format().equals("csv") ? " WITH SKIP_ROWS=1" : ""));
            try (ResultSet result = statement.getResultSet()) {
                result.next();
                long rows = result.getLong("Imported_Rows");
                importedRows.put(target, rows);
                return new TableResult(table, target, rows, Long.parseUnsignedLong(result.getString("Checksum_crc64_xor")),
                        result.getLong("Total_kvs"), true, false);
            }
        }
    }

    /** The stores' checksum of the table as it is now (ADMIN CHECKSUM TABLE). */
    private static TableResult stored(Statement statement, ExportLayout.Table table, String target, long rows)
            throws SQLException {
        statement.execute("ADMIN CHECKSUM TABLE " + target);
        try (ResultSet checksum = statement.getResultSet()) {
            checksum.next();
            return new TableResult(table, target, rows, Long.parseUnsignedLong(checksum.getString("Checksum_crc64_xor")),
                    checksum.getLong("Total_kvs"), true, false);
        }
    }

    private static void runSchema(Statement statement, FileSystem fileSystem, ExportLayout.Table table)
            throws IOException, SQLException {
        String script;
        try (InputStream in = fileSystem.open(table.schemaFile())) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String sql : SqlScript.statements(script)) {
            try {
                statement.execute(sql);
            } catch (SQLException e) {
                if (e.getErrorCode() != TABLE_EXISTS) {
                    throw e;
                }
                // An existing table is imported into if empty: IMPORT INTO checks that.
            }
        }
    }

    private String target(String sourceDatabase) {
        return database != null ? database : sourceDatabase;
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        // DuetDB's SQL servers speak no TLS yet; caching_sha2_password then needs the server's public key.
        properties.setProperty("sslMode", "DISABLED");
        properties.setProperty("allowPublicKeyRetrieval", "true");
        return DriverManager.getConnection("jdbc:mysql://" + sql.host() + ":" + sql.port() + "/", properties);
    }

    private static TableResult await(Future<TableResult> table) throws InterruptedException, SQLException {
        try {
            return table.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sqlError) {
                throw sqlError;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * One imported table: its qualified target name, rows and the stores' checksum after the import; comparable with
     * the export's when the table held nothing before; skipped when an earlier run had imported it.
     */
    private record TableResult(ExportLayout.Table table, String target, long rows, long checksum, long totalKvs,
            boolean comparable, boolean skipped) {
    }
}
