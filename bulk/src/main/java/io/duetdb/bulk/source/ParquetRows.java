package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The rows of one Parquet file as text fields in MySQL's text forms: integers, decimals at their scale, dates,
 * date-times with microseconds, UTF-8 strings; NULLs as null. Only flat schemas of primitive columns import;
 * nested or repeated columns fail with a clear error before any row is read.
 */
public final class ParquetRows implements RowReader {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private final String file;
    private final long length;
    private final long totalRows;
    private final List<PrimitiveType> columns;
    private final ParquetReader<Group> reader;
    private long rows;

    public ParquetRows(SourceFile file, Configuration configuration) {
        this.file = requireNonNull(file, "file is null").uri();
        this.length = file.length();
        Path path = new Path(file.uri());
        try {
            HadoopInputFile input = HadoopInputFile.fromPath(path, configuration);
            MessageType schema;
            try (ParquetFileReader footer = ParquetFileReader.open(input)) {
                schema = footer.getFooter().getFileMetaData().getSchema();
                totalRows = footer.getRecordCount();
            }
            this.columns = flatColumns(this.file, schema);
            this.reader = ParquetReader.builder(new GroupReadSupport(), path).withConf(configuration).build();
        } catch (IOException | RuntimeException e) {
            throw unreadable(file, e);
        }
    }

    /** The column names of a Parquet file, in order (its fields' names). */
    public static List<String> columnNames(SourceFile file, Configuration configuration) {
        try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(file.uri()),
                configuration))) {
            return flatColumns(file.uri(), footer.getFooter().getFileMetaData().getSchema()).stream()
                    .map(Type::getName).toList();
        } catch (IOException | RuntimeException e) {
            throw unreadable(file, e);
        }
    }

    private static DuetException unreadable(SourceFile file, Exception e) {
        return e instanceof DuetException duet ? duet : new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG,
                "cannot read " + file.uri() + " as Parquet: " + e.getMessage());
    }

    private static List<PrimitiveType> flatColumns(String file, MessageType schema) {
        List<PrimitiveType> columns = new ArrayList<>();
        for (Type field : schema.getFields()) {
            if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
                throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "cannot import " + file + ": column "
                        + field.getName() + " is nested or repeated (" + field + "); only flat columns import");
            }
            columns.add(field.asPrimitiveType());
        }
        return columns;
    }

    @Override
    public Row next() {
        Group group;
        try {
            group = reader.read();
        } catch (IOException | RuntimeException e) {
            throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "cannot read row " + (rows + 1) + " of "
                    + file + ": " + e.getMessage());
        }
        if (group == null) {
            return null;
        }
        rows++;
        String[] fields = new String[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = group.getFieldRepetitionCount(i) == 0 ? null : text(group, i, columns.get(i));
        }
        return new Row(fields, rows);
    }

    private static String text(Group group, int index, PrimitiveType type) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> group.getBoolean(index, 0) ? "1" : "0";
            case INT32 -> {
                int value = group.getInteger(index, 0);
                if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    yield LocalDate.ofEpochDay(value).toString();
                }
                if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                    yield new BigDecimal(BigInteger.valueOf(value), decimal.getScale()).toPlainString();
                }
                if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
                    yield time(value * 1000L);
                }
                if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned()) {
                    yield Integer.toUnsignedString(value);
                }
                yield Integer.toString(value);
            }
            case INT64 -> {
                long value = group.getLong(index, 0);
                if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
                    long micros = switch (timestamp.getUnit()) {
                        case MILLIS -> value * 1000;
                        case MICROS -> value;
                        case NANOS -> Math.floorDiv(value, 1000);
                    };
                    yield dateTime(micros);
                }
                if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                    yield new BigDecimal(BigInteger.valueOf(value), decimal.getScale()).toPlainString();
                }
                if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time) {
                    yield time(time.getUnit() == LogicalTypeAnnotation.TimeUnit.NANOS ? value / 1000 : value);
                }
                if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned()) {
                    yield Long.toUnsignedString(value);
                }
                yield Long.toString(value);
            }
            case FLOAT -> Float.toString(group.getFloat(index, 0));
            case DOUBLE -> Double.toString(group.getDouble(index, 0));
            case INT96 -> {
                // Impala's and Spark's legacy timestamps: nanoseconds of the day, then the Julian day.
                ByteBuffer bytes = group.getInt96(index, 0).toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                long nanos = bytes.getLong();
                long day = bytes.getInt() - JULIAN_EPOCH_DAY;
                yield dateTime(day * 86_400_000_000L + nanos / 1000);
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                Binary binary = group.getBinary(index, 0);
                if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                    yield new BigDecimal(new BigInteger(binary.getBytes()), decimal.getScale()).toPlainString();
                }
                yield binary.toStringUsingUTF8();
            }
        };
    }

    /** A TIME of day (or MySQL's wider TIME) from microseconds: [-]H:MM:SS.ffffff. */
    private static String time(long micros) {
        long magnitude = Math.abs(micros);
        long seconds = magnitude / 1_000_000L;
        return String.format("%s%02d:%02d:%02d.%06d", micros < 0 ? "-" : "", seconds / 3600, seconds / 60 % 60,
                seconds % 60, magnitude % 1_000_000L);
    }

    private static String dateTime(long micros) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        return time.format(DATE_TIME);
    }

    @Override
    public long bytesRead() {
        return totalRows == 0 ? length : length * rows / totalRows;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            // Reading is over.
        }
    }
}
