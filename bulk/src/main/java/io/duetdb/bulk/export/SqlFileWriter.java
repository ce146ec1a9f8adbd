package io.duetdb.bulk.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.CreateTableText;

/**
 * SQL dump files as mysqldump and Dumpling write them: multi-row {@code INSERT INTO `t` VALUES (...),(...);}
 * statements of about {@value #STATEMENT_BYTES} bytes each, values as MySQL literals. The mysql client replays them,
 * and IMPORT INTO ... FORMAT 'sql' reads them back.
 */
final class SqlFileWriter implements RowFileWriter {
    static final int STATEMENT_BYTES = 1 << 20;
    private static final String HEADER = "/*!40101 SET NAMES binary*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n";

    private final List<ColumnInfo> columns;
    private final String insert;
    private final CountingOutputStream out;
    private final Writer writer;
    private final StringBuilder row = new StringBuilder();
    private long statementBytes = -1;
    private long written;
    private boolean closed;

    SqlFileWriter(OutputStream stream, String table, List<ColumnInfo> columns) throws IOException {
        this.columns = columns;
        StringBuilder names = new StringBuilder("INSERT INTO ").append(CreateTableText.quoted(table)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            names.append(i == 0 ? "" : ",").append(CreateTableText.quoted(columns.get(i).name()));
        }
        this.insert = names.append(") VALUES\n").toString();
        this.out = new CountingOutputStream(stream);
        this.writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        writer.write(HEADER);
        written = HEADER.length();
    }

    @Override
    public void write(Object[] values) throws IOException {
        row.setLength(0);
        row.append('(');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                row.append(',');
            }
            SqlLiteral.append(row, values[i], columns.get(i).type());
        }
        row.append(')');
        if (statementBytes < 0) {
            writer.write(insert);
            statementBytes = insert.length();
            written += insert.length();
        } else if (statementBytes + row.length() > STATEMENT_BYTES) {
            writer.write(";\n");
            writer.write(insert);
            statementBytes = insert.length();
            written += insert.length() + 2;
        } else {
            writer.write(",\n");
        }
        writer.append(row);
        statementBytes += row.length() + 2;
        written += row.length() + 2;
    }

    @Override
    public long bytes() {
        // Characters until closed (the writer buffers), then the file's bytes.
        return closed ? out.count() : written;
    }

    @Override
    public void close() throws IOException {
        if (statementBytes >= 0) {
            writer.write(";\n");
        }
        writer.close();
        closed = true;
    }
}
