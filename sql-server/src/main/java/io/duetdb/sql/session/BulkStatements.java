package io.duetdb.sql.session;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.apache.calcite.sql.SqlIdentifier;

import io.duetdb.bulk.importer.FieldParser;
import io.duetdb.bulk.importer.ImportOptions;
import io.duetdb.bulk.importer.ImportProgress;
import io.duetdb.bulk.importer.ImportResult;
import io.duetdb.bulk.importer.TableImporter;
import io.duetdb.bulk.source.CsvOptions;
import io.duetdb.bulk.source.CsvRows;
import io.duetdb.bulk.source.ParquetRows;
import io.duetdb.bulk.source.RowReader;
import io.duetdb.bulk.source.SourceFile;
import io.duetdb.bulk.source.SourceFiles;
import io.duetdb.bulk.source.SqlDumpRows;
import io.duetdb.client.txn.Transaction;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.checksum.KeyValueChecksum;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.exec.Coercion;
import io.duetdb.sql.exec.TableAccess;
import io.duetdb.sql.parser.bulk.SqlAdminChecksumTable;
import io.duetdb.sql.parser.bulk.SqlImportInto;

/**
 * TiDB's bulk statements: ADMIN CHECKSUM TABLE and IMPORT INTO (physical import of CSV, Parquet or SQL dump files into
 * an empty table).
 */
final class BulkStatements {
    private static final String ROW_SUFFIX = " at row 1";
    private static final long SPLIT_PART_MIN_BYTES = 16L << 20;

    private BulkStatements() {
    }

    /** ADMIN CHECKSUM TABLE: the stores' checksum of each table's records and index entries at one timestamp. */
    static QueryResult checksum(Session session, SqlAdminChecksumTable statement) {
        List<Object[]> rows = new ArrayList<>();
        for (SqlIdentifier name : statement.tables()) {
            String[] qualified = session.qualifiedName(name);
            TableInfo table = baseTable(session, qualified);
            session.require(Privilege.SELECT, qualified[0], table.name());
            KeyValueChecksum checksum;
            try (Transaction transaction = session.manager().client().begin()) {
                checksum = checksum(transaction, table);
            }
            rows.add(new Object[] {qualified[0], table.name(), checksum.crc64Xor(), checksum.totalKvs(),
                    checksum.totalBytes()});
        }
        SqlType name = SqlType.varchar(64);
        return new QueryResult(List.of(ResultColumn.computed("Db_name", name), ResultColumn.computed("Table_name", name),
                ResultColumn.computed("Checksum_crc64_xor", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Total_kvs", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Total_bytes", SqlType.BIGINT_UNSIGNED)), rows);
    }

    /**
     * IMPORT INTO t [(columns)] FROM 'location' [FORMAT 'csv'|'parquet'|'sql'] [WITH ...]: the files' rows become the table's, all
     * visible at once; the answer says how many and their checksum, which the stores' checksum must match.
     */
    static QueryResult importInto(Session session, SqlImportInto statement) {
        String[] name = session.qualifiedName(statement.table());
        TableInfo table = baseTable(session, name);
        session.require(Privilege.INSERT, name[0], table.name());
        session.require(Privilege.ALTER, name[0], table.name());
        String format = statement.format();
        if (!format.equals("csv") && !format.equals("parquet") && !format.equals("sql")) {
            throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_FORMAT, "The FORMAT '" + format + "' is not supported");
        }
        Map<String, String> options = statement.options();
        if (!format.equals("csv")) {
            for (String csvOnly : List.of("FIELDS_TERMINATED_BY", "FIELDS_ENCLOSED_BY", "FIELDS_ESCAPED_BY",
                    "FIELDS_DEFINED_NULL_BY", "LINES_TERMINATED_BY", "SKIP_ROWS", "CHARACTER_SET")) {
                if (options.containsKey(csvOnly)) {
                    throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_OPTION, "Unsupported option " + csvOnly
                            + " for non-CSV format");
                }
            }
        }
        CsvOptions csv = csvOptions(options);
        int threads = (int) Math.min(64, longOption(options, "THREAD", Math.max(1, Runtime.getRuntime().availableProcessors())));
        boolean verify = checksumRequired(options);
        boolean split = options.containsKey("SPLIT_FILE") && !"false".equalsIgnoreCase(options.get("SPLIT_FILE"));
        if (split && !format.equals("csv")) {
            throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_OPTION, "Unsupported option SPLIT_FILE for non-CSV format");
        }
        options.keySet().removeAll(List.of("CHARACTER_SET", "FIELDS_TERMINATED_BY", "FIELDS_ENCLOSED_BY",
                "FIELDS_ESCAPED_BY", "FIELDS_DEFINED_NULL_BY", "LINES_TERMINATED_BY", "SKIP_ROWS", "THREAD",
                "CHECKSUM_TABLE", "SPLIT_FILE"));
        if (!options.isEmpty()) {
            throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_OPTION, "Unsupported option "
                    + options.keySet().iterator().next() + " for IMPORT INTO");
        }
        SourceFiles sources = SourceFiles.withDefaultConfiguration();
        String location = statement.location();
        if (!location.matches("(?i)^[a-z][a-z0-9+.-]*://.*") || location.toLowerCase(Locale.ROOT).startsWith("file:")) {
            // Files on the SQL server's own machine: an administrator's (MySQL asks for FILE; the closest here).
            session.requireGlobal(Privilege.SUPER);
        }
        List<SourceFile> resolved = sources.resolve(location);
        long totalBytes = resolved.stream().mapToLong(SourceFile::length).sum();
        // TiDB's SPLIT_FILE: large files read in parts by several threads (fields must hold no line breaks).
        long partBytes = Math.max(SPLIT_PART_MIN_BYTES, totalBytes / (threads * 4L) + 1);
        List<SourceFile> files = split ? resolved.stream().flatMap(file -> file.split(partBytes).stream()).toList()
                : resolved;
        ImportOptions importOptions = ImportOptions.defaults(Path.of(System.getProperty("java.io.tmpdir"), "duetdb-import"))
                .withThreads(threads);
        TableImporter importer = new TableImporter(session.manager().client(), importOptions);
        List<String> columns = statement.columns();
        Function<SourceFile, RowReader> reader;
        if (format.equals("parquet")) {
            List<String> fileColumns = ParquetRows.columnNames(files.get(0), sources.configuration());
            for (SourceFile file : files.subList(1, files.size())) {
                if (!ParquetRows.columnNames(file, sources.configuration()).equals(fileColumns)) {
                    throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "PreCheck failed: " + file.uri()
                            + " has other columns than " + files.get(0).uri());
                }
            }
            if (columns.isEmpty()) {
                // Parquet names its columns: they fill the table's columns of those names (1054 for others).
                columns = fileColumns;
            } else if (columns.size() != fileColumns.size()) {
                throw new DuetException(ErrorCode.WRONG_VALUE_COUNT, "Column count doesn't match value count: "
                        + columns.size() + " columns for the " + fileColumns.size() + " of " + files.get(0).uri());
            }
            reader = file -> new ParquetRows(file, sources.configuration());
        } else if (format.equals("sql")) {
            if (columns.isEmpty()) {
                // The dump's INSERTs may name their columns (mysqldump --complete-insert, our export): those, in order.
                try (SqlDumpRows first = new SqlDumpRows(files.get(0).describe(), sources.open(files.get(0)))) {
                    columns = first.columns();
                }
            }
            reader = file -> new SqlDumpRows(file.describe(), sources.open(file));
        } else {
            reader = file -> new CsvRows(file.describe(), sources.open(file), file.start() > 0 ? csv.withSkipRows(0) : csv);
        }
        List<String> targetColumns = columns;
        ImportProgress progress = new ImportProgress(name[0] + "." + table.name(), totalBytes);
        FieldParser parser = BulkStatements::parseField;
        long started = System.nanoTime();
        KeyValueChecksum[] written = new KeyValueChecksum[1];
        long[] checksumNanos = {0};
        ImportResult result = session.manager().ddl().tableImport().run(name, (target, commitTs) -> {
            ImportResult imported = importer.importFiles(target, targetColumns, files, reader, parser, commitTs,
                    session::killed, progress);
            written[0] = imported.checksum();
            if (verify) {
                long checksumStarted = System.nanoTime();
                try (Transaction transaction = session.manager().client().beginAt(commitTs)) {
                    KeyValueChecksum stored = checksum(transaction, target);
                    if (stored.crc64Xor() != imported.checksum().crc64Xor() || stored.totalKvs() != imported.pairs()) {
                        throw new DuetException(ErrorCode.IMPORT_PRECHECK_FAILED, "checksum mismatched: the stores hold "
                                + stored.totalKvs() + " pairs with checksum " + Long.toUnsignedString(stored.crc64Xor())
                                + ", the import wrote " + imported.pairs() + " with "
                                + Long.toUnsignedString(imported.checksum().crc64Xor()) + "; nothing was imported");
                    }
                }
                checksumNanos[0] = System.nanoTime() - checksumStarted;
            }
            return imported;
        }, progress::rows);
        long analyzeStarted = System.nanoTime();
        session.analyzeAfterImport(name[0], table.name());
        long analyzeNanos = System.nanoTime() - analyzeStarted;
        double seconds = (System.nanoTime() - started) / 1e9;
        String message = String.format(Locale.ROOT, "read and encoded %d rows in %.2f s, wrote %d pairs in %.2f s,"
                + " %s, analyzed in %.2f s", result.rows(), result.encodeNanos() / 1e9, result.pairs(),
                result.writeNanos() / 1e9, verify ? String.format(Locale.ROOT, "checksum verified in %.2f s",
                        checksumNanos[0] / 1e9) : "checksum not verified", analyzeNanos / 1e9);
        SqlType text = SqlType.varchar(256);
        return new QueryResult(List.of(ResultColumn.computed("Data_Source", text),
                ResultColumn.computed("Target_Table", text), ResultColumn.computed("Status", text),
                ResultColumn.computed("Source_File_Size", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Imported_Rows", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Checksum_crc64_xor", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Total_kvs", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Total_bytes", SqlType.BIGINT_UNSIGNED),
                ResultColumn.computed("Seconds", SqlType.DOUBLE), ResultColumn.computed("Result_Message", text)),
                List.<Object[]>of(new Object[] {location, "`" + name[0] + "`.`" + table.name() + "`", "finished",
                        result.sourceBytes(), result.rows(), written[0].crc64Xor(), written[0].totalKvs(),
                        written[0].totalBytes(), Math.round(seconds * 1000) / 1000.0, message}));
    }

    private static KeyValueChecksum checksum(Transaction transaction, TableInfo table) {
        return transaction.checksum(Keys.tablePrefix(table.id()), Keys.tableEnd(table.id()));
    }

    /** A field's text as INSERT would store it, strictly. */
    private static Object parseField(ColumnInfo column, String text) {
        try {
            return TableAccess.toStorage(column, Coercion.toColumn(text, column));
        } catch (DuetException e) {
            String message = e.getMessage();
            throw new DuetException(e.code(), message.endsWith(ROW_SUFFIX)
                    ? message.substring(0, message.length() - ROW_SUFFIX.length()) : message);
        }
    }

    private static TableInfo baseTable(Session session, String[] name) {
        TableInfo table = session.manager().latestInfoSchema().table(name[0], name[1])
                .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + name[0] + "." + name[1]
                        + "' doesn't exist"));
        if (table.view() != null) {
            throw new DuetException(ErrorCode.WRONG_OBJECT, "'" + name[0] + "." + table.name() + "' is not BASE TABLE");
        }
        return table;
    }

    static CsvOptions csvOptions(Map<String, String> options) {
        CsvOptions csv = CsvOptions.DEFAULT;
        String value;
        if ((value = options.get("CHARACTER_SET")) != null) {
            csv = csv.withCharset(charset(value));
        }
        if ((value = options.get("FIELDS_TERMINATED_BY")) != null) {
            if (value.isEmpty()) {
                throw wrongFormat("FIELDS_TERMINATED_BY must not be empty");
            }
            csv = csv.withFieldsTerminatedBy(value);
        }
        if ((value = options.get("FIELDS_ENCLOSED_BY")) != null) {
            csv = csv.withFieldsEnclosedBy(singleCharacter("FIELDS_ENCLOSED_BY", value));
        }
        if ((value = options.get("FIELDS_ESCAPED_BY")) != null) {
            csv = csv.withFieldsEscapedBy(singleCharacter("FIELDS_ESCAPED_BY", value));
        }
        if ((value = options.get("FIELDS_DEFINED_NULL_BY")) != null) {
            csv = csv.withNullMarker(value);
        }
        if ((value = options.get("LINES_TERMINATED_BY")) != null && !value.equals("\n") && !value.equals("\r\n")) {
            throw wrongFormat("LINES_TERMINATED_BY must be '\\n' or '\\r\\n'");
        }
        csv = csv.withSkipRows(longOption(options, "SKIP_ROWS", 0));
        return csv;
    }

    private static boolean checksumRequired(Map<String, String> options) {
        String value = options.getOrDefault("CHECKSUM_TABLE", "required").toLowerCase(Locale.ROOT);
        return switch (value) {
            case "required", "optional" -> true;
            case "off" -> false;
            default -> throw wrongFormat("CHECKSUM_TABLE must be 'required', 'optional' or 'off', not '" + value + "'");
        };
    }

    private static Character singleCharacter(String option, String value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.length() != 1) {
            throw wrongFormat(option + " must be one character, not '" + value + "'");
        }
        return value.charAt(0);
    }

    private static long longOption(Map<String, String> options, String name, long defaultValue) {
        String value = options.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            long parsed = Long.parseLong(value.strip());
            if (parsed < 0 || (name.equals("THREAD") && parsed == 0)) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw wrongFormat(name + " must be a " + (name.equals("THREAD") ? "positive" : "non-negative")
                    + " integer, not '" + value + "'");
        }
    }

    private static Charset charset(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8", "utf8mb3", "utf-8" -> StandardCharsets.UTF_8;
            case "latin1" -> Charset.forName("windows-1252");
            case "ascii" -> StandardCharsets.US_ASCII;
            case "binary" -> StandardCharsets.ISO_8859_1;
            case "gbk" -> Charset.forName("GBK");
            default -> throw wrongFormat("CHARACTER_SET '" + name + "' is not supported");
        };
    }

    private static DuetException wrongFormat(String message) {
        return new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "Invalid option: " + message);
    }
}
