package io.duetdb.cli.bulk;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.duetdb.bulk.source.CsvOptions;
import io.duetdb.bulk.source.CsvRows;
import io.duetdb.bulk.source.ParquetRows;
import io.duetdb.bulk.source.RowReader;
import io.duetdb.bulk.source.SourceFile;
import io.duetdb.bulk.source.SourceFiles;
import io.duetdb.bulk.source.SqlDumpRows;
import io.duetdb.common.catalog.CreateTableText;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * TiDB Lightning's logical backend: a table's data files as multi-row INSERT statements (REPLACE or INSERT IGNORE
 * for {@code --on-duplicate}), each batch its own transaction, so the table stays open to other writers and may
 * already hold rows. The fields go as text; the SQL server converts them as INSERT does.
 */
final class LogicalTableImport {
    /** What a row whose key is already taken does, as Lightning's on-duplicate names it. */
    enum OnDuplicate {
        ERROR("INSERT"),
        REPLACE("REPLACE"),
        IGNORE("INSERT IGNORE");

        private final String verb;

        OnDuplicate(String verb) {
            this.verb = verb;
        }

        static OnDuplicate of(String name) {
            for (OnDuplicate value : values()) {
                if (value.name().equalsIgnoreCase(name)) {
                    return value;
                }
            }
            throw new DuetException(ErrorCode.INVALID_CONFIG, "--on-duplicate takes error, replace or ignore, not '"
                    + name + "'");
        }
    }

    /** Rows per INSERT statement (and fewer when the table is wide: at most this many values). */
    private static final int BATCH_ROWS = 1_000;
    private static final int BATCH_VALUES = 60_000;

    private final SourceFiles sources;
    private final OnDuplicate onDuplicate;
    private final CsvOptions csv;

    /** {@code csvHeaderLines}: lines of column names each CSV file begins with, skipped. */
    LogicalTableImport(SourceFiles sources, OnDuplicate onDuplicate, int csvHeaderLines) {
        this.sources = requireNonNull(sources, "sources is null");
        this.onDuplicate = requireNonNull(onDuplicate, "onDuplicate is null");
        this.csv = CsvOptions.DEFAULT.withSkipRows(csvHeaderLines);
    }

    /**
     * Inserts the rows of the files matching {@code pattern} (of {@code format}) into {@code target}; answers the rows
     * read, adding them to {@code progress} as batches commit.
     */
    long run(Connection connection, String target, String pattern, String format, AtomicLong progress)
            throws SQLException {
        List<SourceFile> files = sources.resolve(pattern);
        long rows = 0;
        for (SourceFile file : files) {
            List<String> columns = List.of();
            Function<SourceFile, RowReader> reader;
            switch (format.toLowerCase(Locale.ROOT)) {
                case "csv" -> reader = source -> new CsvRows(source.describe(), sources.open(source), csv);
                case "parquet" -> {
                    columns = ParquetRows.columnNames(file, sources.configuration());
                    reader = source -> new ParquetRows(source, sources.configuration());
                }
                case "sql" -> {
                    try (SqlDumpRows first = new SqlDumpRows(file.describe(), sources.open(file))) {
                        columns = first.columns();
                    }
                    reader = source -> new SqlDumpRows(source.describe(), sources.open(source));
                }
                default -> throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_FORMAT, "The FORMAT '" + format
                        + "' is not supported");
            }
            try (RowReader rowReader = reader.apply(file)) {
                rows += insertAll(connection, target, columns, rowReader, progress);
            }
        }
        return rows;
    }

    private long insertAll(Connection connection, String target, List<String> columns, RowReader reader,
            AtomicLong progress) throws SQLException {
        List<String[]> batch = new ArrayList<>();
        long rows = 0;
        int width = -1;
        for (RowReader.Row row = reader.next(); row != null; row = reader.next()) {
            if (width < 0) {
                width = row.fields().length;
            } else if (row.fields().length != width) {
                throw new DuetException(ErrorCode.TOO_MANY_RECORDS, "Row " + row.line() + " has " + row.fields().length
                        + " fields, the rows before it " + width);
            }
            batch.add(row.fields());
            if (batch.size() >= Math.max(1, Math.min(BATCH_ROWS, BATCH_VALUES / Math.max(1, width)))) {
                rows += insert(connection, target, columns, batch, progress);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            rows += insert(connection, target, columns, batch, progress);
        }
        return rows;
    }

    private int insert(Connection connection, String target, List<String> columns, List<String[]> batch,
            AtomicLong progress) throws SQLException {
        int width = batch.get(0).length;
        StringBuilder sql = new StringBuilder(onDuplicate.verb).append(" INTO ").append(target);
        if (!columns.isEmpty()) {
            sql.append(" (");
            for (int i = 0; i < columns.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(CreateTableText.quoted(columns.get(i)));
            }
            sql.append(')');
        }
        sql.append(" VALUES ");
        String row = "(" + "?, ".repeat(width - 1) + "?)";
        for (int i = 0; i < batch.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(row);
        }
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            int index = 1;
            for (String[] fields : batch) {
                for (String field : fields) {
                    if (field == null) {
                        statement.setNull(index++, Types.VARCHAR);
                    } else {
                        statement.setString(index++, field);
                    }
                }
            }
            statement.executeUpdate();
        }
        progress.addAndGet(batch.size());
        return batch.size();
    }
}
