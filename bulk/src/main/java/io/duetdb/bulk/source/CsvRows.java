package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** The rows of one CSV file, as text fields (null for the NULL marker), with the line each starts on. */
public final class CsvRows implements RowReader {
    private final String file;
    private final CsvOptions options;
    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final CountingInputStream counted;

    public CsvRows(String file, InputStream input, CsvOptions options) {
        this.file = requireNonNull(file, "file is null");
        this.options = requireNonNull(options, "options is null");
        this.counted = new CountingInputStream(requireNonNull(input, "input is null"));
        Reader reader = new InputStreamReader(counted, options.charset());
        CSVFormat format = CSVFormat.Builder.create()
                .setDelimiter(options.fieldsTerminatedBy())
                .setQuote(options.fieldsEnclosedBy())
                .setEscape(options.fieldsEscapedBy())
                .setRecordSeparator('\n')
                .setIgnoreEmptyLines(true)
                .setDuplicateHeaderMode(DuplicateHeaderMode.ALLOW_ALL)
                .get();
        try {
            this.parser = CSVParser.builder().setReader(reader).setFormat(format).get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.records = parser.iterator();
    }

    @Override
    public Row next() {
        try {
            while (records.hasNext()) {
                CSVRecord record = records.next();
                if (record.getRecordNumber() <= options.skipRows()) {
                    continue;
                }
                String[] fields = record.values();
                for (int i = 0; i < fields.length; i++) {
                    if (fields[i].equals(options.nullMarker())) {
                        fields[i] = null;
                    }
                }
                return new Row(fields, record.getRecordNumber() == 0 ? 0 : parser.getCurrentLineNumber());
            }
            return null;
        } catch (UncheckedIOException e) {
            throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "malformed CSV in " + file + " near line "
                    + parser.getCurrentLineNumber() + ": " + e.getCause().getMessage());
        }
    }

    @Override
    public long bytesRead() {
        return counted.count();
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
