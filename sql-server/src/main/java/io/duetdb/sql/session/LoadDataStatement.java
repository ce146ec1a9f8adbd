package io.duetdb.sql.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlNode;

import io.duetdb.bulk.source.CsvOptions;
import io.duetdb.bulk.source.CsvRows;
import io.duetdb.bulk.source.RowReader;
import io.duetdb.bulk.source.SourceFile;
import io.duetdb.bulk.source.SourceFiles;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.parser.bulk.SqlLoadData;

/**
 * LOAD DATA [LOCAL] INFILE: a file's rows inserted as INSERT (REPLACE, IGNORE) inserts them, in batches. LOCAL
 * files come from the client over the connection; others are read on the SQL server's machine (or any Hadoop file
 * system) by an account with SUPER. In autocommit mode each batch of {@link #BATCH_ROWS} rows commits on its own,
 * as TiDB's LOAD DATA does; inside a transaction all rows belong to it.
 */
final class LoadDataStatement {
    static final int BATCH_ROWS = 20_000;
    /** Rows per INSERT ... SELECT when SET expressions transform them (each batch is planned as a query). */
    static final int TRANSFORMED_BATCH_ROWS = 2_000;

    private LoadDataStatement() {
    }

    static UpdateResult execute(Session session, SqlLoadData load) {
        String[] name = session.qualifiedName(load.table());
        TableInfo table = session.schema().table(name[0], name[1])
                .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + name[0] + "." + name[1]
                        + "' doesn't exist"));
        if (table.view() != null) {
            throw new DuetException(ErrorCode.NON_INSERTABLE_TABLE, "The target table " + table.name()
                    + " of the LOAD is not insertable-into");
        }
        session.require(Privilege.INSERT, name[0], table.name());
        if (load.replace()) {
            session.require(Privilege.DELETE, name[0], table.name());
        }
        if (load.linesStartingBy() != null && !load.linesStartingBy().isEmpty()) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support 'LOAD DATA"
                    + " with LINES STARTING BY'");
        }
        String lines = load.linesTerminatedBy();
        if (lines != null && !lines.equals("\n") && !lines.equals("\r\n")) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support 'LOAD DATA"
                    + " with LINES TERMINATED BY other than '\\n' or '\\r\\n''");
        }
        List<SqlLoadData.Field> listed = load.fields();
        // No field list: the fields fill the table's columns in order.
        List<SqlLoadData.Field> fields = !listed.isEmpty() ? listed : table.publicColumns().stream()
                .map(column -> new SqlLoadData.Field(column.name(), false)).toList();
        List<ColumnInfo> targets = targets(table, fields.stream().filter(field -> !field.variable())
                .map(SqlLoadData.Field::name).toList());
        for (Map.Entry<String, SqlNode> assignment : load.assignments()) {
            targets(table, List.of(assignment.getKey()));
        }
        // User variables or SET expressions: rows go through INSERT ... SELECT over the batch's VALUES.
        LoadDataTransform transform = load.hasAssignments() || fields.stream().anyMatch(SqlLoadData.Field::variable)
                ? new LoadDataTransform(load.table(), fields, load.assignments()) : null;
        int width = fields.size();
        int batchRows = transform == null ? BATCH_ROWS : TRANSFORMED_BATCH_ROWS;
        CsvOptions csv = options(load);
        long affected = 0;
        long records = 0;
        int warningsBefore = session.warningCount();
        try (InputStream input = open(session, load); CsvRows rows = new CsvRows(load.file(), input, csv)) {
            List<Object[]> batch = new ArrayList<>();
            for (RowReader.Row row = rows.next(); row != null; row = rows.next()) {
                batch.add(values(row, width, load.file()));
                records++;
                if (batch.size() >= batchRows) {
                    affected += insert(session, table, targets, transform, batch, load);
                    batch = new ArrayList<>();
                }
            }
            if (!batch.isEmpty()) {
                affected += insert(session, table, targets, transform, batch, load);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deleted = load.replace() ? Math.max(0, affected - records) : 0;
        long skipped = load.ignore() ? Math.max(0, records - affected) : 0;
        int warnings = session.warningCount() - warningsBefore;
        return new UpdateResult(affected, 0, "Records: " + records + "  Deleted: " + deleted + "  Skipped: " + skipped
                + "  Warnings: " + warnings);
    }

    private static long insert(Session session, TableInfo table, List<ColumnInfo> targets, LoadDataTransform transform,
            List<Object[]> batch, SqlLoadData load) {
        if (session.killed()) {
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
        }
        if (transform != null) {
            return session.insertStatement(transform.insert(batch, load.replace(), load.ignore())).affectedRows();
        }
        return session.insertLoadedRows(table, targets, batch, load.replace(), load.ignore()).affectedRows();
    }

    private static InputStream open(Session session, SqlLoadData load) {
        if (load.local()) {
            return session.localFiles().open(load.file());
        }
        // A file on the SQL server's machine: an administrator's (MySQL asks for FILE; the closest here).
        session.requireGlobal(Privilege.SUPER);
        SourceFiles sources = SourceFiles.withDefaultConfiguration();
        List<SourceFile> files = sources.resolve(load.file());
        if (files.size() != 1) {
            throw new DuetException(ErrorCode.IMPORT_INVALID_URI, "LOAD DATA reads one file; '" + load.file()
                    + "' names " + files.size());
        }
        return sources.open(files.get(0));
    }

    /** A row's fields as INSERT values (text, or null for \N); the count must match the columns. */
    private static Object[] values(RowReader.Row row, int width, String file) {
        String[] fields = row.fields();
        if (fields.length < width) {
            throw new DuetException(ErrorCode.TOO_FEW_RECORDS, "Row " + row.line() + " doesn't contain data for all"
                    + " columns (" + file + ")");
        }
        if (fields.length > width) {
            throw new DuetException(ErrorCode.TOO_MANY_RECORDS, "Row " + row.line() + " was truncated; it contained"
                    + " more data than there were input columns (" + file + ")");
        }
        return fields.clone();
    }

    private static List<ColumnInfo> targets(TableInfo table, List<String> names) {
        if (names.isEmpty()) {
            return table.publicColumns();
        }
        List<ColumnInfo> targets = new ArrayList<>();
        for (String column : names) {
            targets.add(table.publicColumns().stream().filter(candidate -> candidate.name().equalsIgnoreCase(column))
                    .findFirst().orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '"
                            + column + "' in 'field list'")));
        }
        return targets;
    }

    /** MySQL's defaults: tab-separated, nothing enclosing, '\' escaping, \N for NULL. */
    private static CsvOptions options(SqlLoadData load) {
        CsvOptions csv = CsvOptions.DEFAULT.withFieldsTerminatedBy("\t").withFieldsEnclosedBy(null)
                .withSkipRows(load.ignoreLines());
        if (load.fieldsTerminatedBy() != null) {
            if (load.fieldsTerminatedBy().isEmpty()) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support"
                        + " 'LOAD DATA with empty FIELDS TERMINATED BY'");
            }
            csv = csv.withFieldsTerminatedBy(load.fieldsTerminatedBy());
        }
        if (load.enclosedBy() != null) {
            csv = csv.withFieldsEnclosedBy(single("ENCLOSED BY", load.enclosedBy()));
        }
        if (load.escapedBy() != null) {
            csv = csv.withFieldsEscapedBy(single("ESCAPED BY", load.escapedBy()));
        }
        if (load.charset() != null) {
            csv = BulkStatements.csvOptions(Map.of("CHARACTER_SET", load.charset())).withFieldsTerminatedBy(
                    csv.fieldsTerminatedBy()).withFieldsEnclosedBy(csv.fieldsEnclosedBy())
                    .withFieldsEscapedBy(csv.fieldsEscapedBy()).withSkipRows(csv.skipRows());
        }
        return csv;
    }

    private static Character single(String clause, String value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.length() != 1) {
            throw new DuetException(ErrorCode.WRONG_FIELD_SPEC, "Field separator argument is not what is expected;"
                    + " check the manual (" + clause + " takes one character)");
        }
        return value.charAt(0);
    }
}
