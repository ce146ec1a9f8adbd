package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * How a CSV file is written, with MySQL's LOAD DATA defaults where TiDB's IMPORT INTO has them: fields terminated by
 * ',' and enclosed by '"', '\' as the escape, {@code \N} for NULL, UTF-8; {@code skipRows} header lines to skip.
 */
public record CsvOptions(String fieldsTerminatedBy, Character fieldsEnclosedBy, Character fieldsEscapedBy,
        String nullMarker, Charset charset, long skipRows) {
    public static final CsvOptions DEFAULT = new CsvOptions(",", '"', '\\', "\\N", StandardCharsets.UTF_8, 0);

    public CsvOptions {
        requireNonNull(fieldsTerminatedBy, "fieldsTerminatedBy is null");
        requireNonNull(nullMarker, "nullMarker is null");
        requireNonNull(charset, "charset is null");
        if (fieldsTerminatedBy.isEmpty()) {
            throw new IllegalArgumentException("the field terminator is empty");
        }
        if (skipRows < 0) {
            throw new IllegalArgumentException("skipRows is negative: " + skipRows);
        }
    }

    public CsvOptions withFieldsTerminatedBy(String value) {
        return new CsvOptions(value, fieldsEnclosedBy, fieldsEscapedBy, nullMarker, charset, skipRows);
    }

    public CsvOptions withFieldsEnclosedBy(Character value) {
        return new CsvOptions(fieldsTerminatedBy, value, fieldsEscapedBy, nullMarker, charset, skipRows);
    }

    public CsvOptions withFieldsEscapedBy(Character value) {
        return new CsvOptions(fieldsTerminatedBy, fieldsEnclosedBy, value, nullMarker, charset, skipRows);
    }

    public CsvOptions withNullMarker(String value) {
        return new CsvOptions(fieldsTerminatedBy, fieldsEnclosedBy, fieldsEscapedBy, value, charset, skipRows);
    }

    public CsvOptions withCharset(Charset value) {
        return new CsvOptions(fieldsTerminatedBy, fieldsEnclosedBy, fieldsEscapedBy, nullMarker, value, skipRows);
    }

    public CsvOptions withSkipRows(long value) {
        return new CsvOptions(fieldsTerminatedBy, fieldsEnclosedBy, fieldsEscapedBy, nullMarker, charset, value);
    }
}
