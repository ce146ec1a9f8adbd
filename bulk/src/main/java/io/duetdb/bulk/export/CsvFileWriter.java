package io.duetdb.bulk.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;

import io.duetdb.common.catalog.ColumnInfo;

/**
 * CSV as IMPORT INTO and LOAD DATA read it by default: ',' between fields, '"' around those that need it, '\'
 * escaping, {@code \N} for NULL; values in MySQL's text forms ({@link ValueText}).
 */
final class CsvFileWriter implements RowFileWriter {
    private static final CSVFormat FORMAT = CSVFormat.Builder.create().setDelimiter(',').setQuote('"').setEscape('\\')
            .setQuoteMode(QuoteMode.MINIMAL).setNullString("\\N").setRecordSeparator('\n').get();

    private final List<ColumnInfo> columns;
    private final CountingOutputStream out;
    private final CSVPrinter printer;
    private final String[] record;

    CsvFileWriter(OutputStream stream, List<ColumnInfo> columns) throws IOException {
        this.columns = columns;
        this.out = new CountingOutputStream(stream);
        this.printer = new CSVPrinter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16),
                FORMAT);
        this.record = new String[columns.size()];
    }

    @Override
    public void write(Object[] values) throws IOException {
        for (int i = 0; i < record.length; i++) {
            record[i] = ValueText.format(values[i], columns.get(i).type());
        }
        printer.printRecord((Object[]) record);
    }

    @Override
    public long bytes() {
        return out.count();
    }

    @Override
    public void close() throws IOException {
        printer.close(true);
    }
}
