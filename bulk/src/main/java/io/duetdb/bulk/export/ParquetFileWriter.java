package io.duetdb.bulk.export;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter.Mode;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.types.SqlType;

/**
 * Parquet with a column per table column under its name, typed as Spark and DuckDB read them: integers INT64
 * (unsigned ones annotated), DECIMAL on binary, strings UTF-8, DATE, TIMESTAMP and TIME in microseconds (TIMESTAMP
 * columns as instants, DATETIME ones local); NOT NULL columns required. Snappy-compressed.
 */
final class ParquetFileWriter implements RowFileWriter {
    private final MessageType schema;
    private final SimpleGroupFactory groups;
    private final ParquetWriter<Group> writer;
    private final List<ColumnInfo> columns;
    /** The size once closed (the writer cannot tell it then); -1 while open. */
    private long closedBytes = -1;

    ParquetFileWriter(Path file, Configuration configuration, List<ColumnInfo> columns) throws IOException {
        this.columns = columns;
        this.schema = schema(columns);
        this.groups = new SimpleGroupFactory(schema);
        this.writer = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, configuration))
                .withType(schema).withConf(configuration).withWriteMode(Mode.OVERWRITE)
                .withCompressionCodec(CompressionCodecName.SNAPPY).build();
    }

    static MessageType schema(List<ColumnInfo> columns) {
        List<Type> fields = new ArrayList<>();
        for (ColumnInfo column : columns) {
            Type.Repetition repetition = column.notNull() ? Type.Repetition.REQUIRED : Type.Repetition.OPTIONAL;
            SqlType type = column.type();
            PrimitiveType field = switch (type.storageType()) {
                case INT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.intType(64, true)).named(column.name());
                case UINT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.intType(64, false)).named(column.name());
                case FLOAT32 -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(column.name());
                case FLOAT64 -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(column.name());
                case DECIMAL -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.decimalType(type.scale(), type.precision())).named(column.name());
                case STRING -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType()).named(column.name());
                case BYTES -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(column.name());
                case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.dateType()).named(column.name());
                case DATETIME -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(column.name());
                case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(column.name());
                case TIME -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(column.name());
            };
            fields.add(field);
        }
        return new MessageType("row", fields);
    }

    @Override
    public void write(Object[] values) throws IOException {
        Group group = groups.newGroup();
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value == null) {
                continue;
            }
            switch (columns.get(i).type().storageType()) {
                case INT64, UINT64, DATETIME, TIMESTAMP, TIME -> group.append(name(i),
                        ((Number) value).longValue());
                case FLOAT32 -> group.append(name(i), ((Number) value).floatValue());
                case FLOAT64 -> group.append(name(i), ((Number) value).doubleValue());
                case DECIMAL -> group.append(name(i), Binary.fromConstantByteArray(((BigDecimal) value)
                        .setScale(columns.get(i).type().scale(), RoundingMode.HALF_UP).unscaledValue().toByteArray()));
                case STRING -> group.append(name(i), value instanceof byte[] bytes ? Binary.fromConstantByteArray(bytes)
                        : Binary.fromString(value.toString()));
                case BYTES -> group.append(name(i), Binary.fromConstantByteArray(value instanceof byte[] bytes ? bytes
                        : value.toString().getBytes(StandardCharsets.UTF_8)));
                case DATE -> group.append(name(i), (int) ((Number) value).longValue());
            }
        }
        writer.write(group);
    }

    private String name(int index) {
        return schema.getFieldName(index);
    }

    @Override
    public long bytes() {
        return closedBytes >= 0 ? closedBytes : writer.getDataSize();
    }

    @Override
    public void close() throws IOException {
        long size = writer.getDataSize();
        writer.close();
        closedBytes = size;
    }
}
