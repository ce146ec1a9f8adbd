package io.duetdb.spark.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.ColumnDefaultValue;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.types.ColumnType;
import io.duetdb.common.types.SqlType;
import io.duetdb.compute.ValueTypes;
import io.duetdb.compute.scan.StoredValues;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.coprocessor.ValueType;

/**
 * MySQL column types as Spark sees them. Integers keep their width (unsigned ones widen to the next type, BIGINT
 * UNSIGNED to DECIMAL(20,0)); DECIMAL keeps precision and scale up to Spark's 38 digits, wider ones read as
 * strings; DATETIME is a TIMESTAMP_NTZ (no zone, as MySQL's DATETIME) and TIMESTAMP a Spark TIMESTAMP (an instant,
 * shown in the session time zone: DuetDB keeps TIMESTAMP values in UTC); TIME is a day-time interval; strings and
 * binary strings map to string and binary. Each field's metadata keeps the MySQL type (for DESCRIBE).
 */
public final class SparkTypes {
    public static final String MYSQL_TYPE = "duet.mysql_type";
    private static final String CURRENT_DEFAULT = "CURRENT_DEFAULT";
    private static final String EXISTS_DEFAULT = "EXISTS_DEFAULT";
    private static final int SPARK_MAX_DECIMAL_PRECISION = 38;

    private SparkTypes() {
    }

    /** The Spark schema of a table's public columns, in position order. */
    public static StructType schema(TableInfo table) {
        List<StructField> fields = new ArrayList<>();
        for (ColumnInfo column : table.publicColumns()) {
            fields.add(field(column));
        }
        return new StructType(fields.toArray(StructField[]::new));
    }

    /**
     * The same columns as a schema: each field's metadata also carries the DEFAULT as Spark SQL text (the keys Spark
     * reads column defaults from), for writes through {@code format("duet")}.
     */
    public static StructType writeSchema(TableInfo table) {
        List<StructField> fields = new ArrayList<>();
        for (Column column : columns(table)) {
            MetadataBuilder metadata = new MetadataBuilder().withMetadata(Metadata.fromJson(column.metadataInJSON()));
            if (column.defaultValue() != null) {
                metadata.putString(CURRENT_DEFAULT, column.defaultValue().getSql())
                        .putString(EXISTS_DEFAULT, column.defaultValue().getSql());
            }
            StructField field = new StructField(column.name(), column.dataType(), column.nullable(), metadata.build());
            fields.add(column.comment() == null ? field : field.withComment(column.comment()));
        }
        return new StructType(fields.toArray(StructField[]::new));
    }

    /**
     * The table's public columns as Spark's catalog describes them for writes: each column's DEFAULT, so that a
     * write that leaves a column out stores its default; an AUTO_INCREMENT column is nullable (a NULL gets a
     * generated value, as in MySQL).
     */
    public static Column[] columns(TableInfo table) {
        List<Column> columns = new ArrayList<>();
        for (ColumnInfo info : table.publicColumns()) {
            StructField field = field(info);
            columns.add(Column.create(info.name(), field.dataType(), !info.notNull() || info.autoIncrement(),
                    info.comment().isEmpty() ? null : info.comment(), defaultValue(info, field.dataType()),
                    field.metadata().json()));
        }
        return columns.toArray(Column[]::new);
    }

    /** The column's DEFAULT as Spark SQL text and value, or null when it has none (or is AUTO_INCREMENT). */
    static ColumnDefaultValue defaultValue(ColumnInfo column, DataType type) {
        if (column.autoIncrement() || !column.hasDefault() && !column.defaultCurrentTimestamp()) {
            return null;
        }
        if (column.defaultCurrentTimestamp()) {
            long micros = Instant.now().toEpochMilli() * 1000;
            return new ColumnDefaultValue("CURRENT_TIMESTAMP", new LiteralValue<>(micros, type));
        }
        Object stored = column.originDefault();
        if (stored == null) {
            return new ColumnDefaultValue("NULL", new LiteralValue<>(null, type));
        }
        Object value;
        String sql;
        switch (column.type().storageType()) {
            case INT64, UINT64 -> {
                long number = (Long) stored;
                sql = column.type().storageType() == ColumnType.UINT64 ? Long.toUnsignedString(number) : Long.toString(number);
                value = internalInteger(new BigDecimal(sql), type);
            }
            case FLOAT32 -> {
                value = (Float) stored;
                sql = "CAST(" + stored + " AS FLOAT)";
            }
            case FLOAT64 -> {
                value = (Double) stored;
                sql = "CAST(" + stored + " AS DOUBLE)";
            }
            case DECIMAL -> {
                BigDecimal decimal = (BigDecimal) stored;
                sql = "CAST(" + decimal.toPlainString() + " AS " + type.sql() + ")";
                value = type instanceof DecimalType decimalType
                        ? Decimal.apply(decimal, decimalType.precision(), decimalType.scale())
                        : UTF8String.fromString(decimal.toPlainString());
            }
            case STRING -> {
                sql = "'" + ((String) stored).replace("\\", "\\\\").replace("'", "\\'") + "'";
                value = UTF8String.fromString((String) stored);
            }
            case BYTES -> {
                sql = "X'" + HexFormat.of().formatHex((byte[]) stored) + "'";
                value = stored;
            }
            case DATE -> {
                sql = "DATE'" + stored + "'";
                value = (int) ((LocalDate) stored).toEpochDay();
            }
            case DATETIME, TIMESTAMP -> {
                LocalDateTime dateTime = (LocalDateTime) stored;
                boolean instant = column.type().storageType() == ColumnType.TIMESTAMP;
                sql = (instant ? "TIMESTAMP'" : "TIMESTAMP_NTZ'") + dateTime + (instant ? "Z'" : "'");
                value = dateTime.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + dateTime.getNano() / 1000;
            }
            case TIME -> {
                Duration duration = (Duration) stored;
                long micros = duration.getSeconds() * 1_000_000L + duration.getNano() / 1000;
                sql = "INTERVAL '" + micros / 1_000_000.0 + "' SECOND";
                value = micros;
            }
            default -> throw new IllegalStateException("no default for " + column.type().storageType());
        }
        return new ColumnDefaultValue(sql, new LiteralValue<>(value, type));
    }

    private static Object internalInteger(BigDecimal number, DataType type) {
        if (type == DataTypes.ByteType) {
            return number.byteValueExact();
        }
        if (type == DataTypes.ShortType) {
            return number.shortValueExact();
        }
        if (type == DataTypes.IntegerType) {
            return number.intValueExact();
        }
        if (type == DataTypes.LongType) {
            return number.longValueExact();
        }
        return Decimal.apply(number, 20, 0);
    }

    public static StructField field(ColumnInfo column) {
        Metadata metadata = new MetadataBuilder().putString(MYSQL_TYPE, column.type().toSql()).build();
        StructField field = new StructField(column.name(), dataType(column.type()), !column.notNull(), metadata);
        return column.comment().isEmpty() ? field : field.withComment(column.comment());
    }

    public static DataType dataType(SqlType type) {
        return switch (type.name()) {
            case TINYINT -> type.unsigned() ? DataTypes.ShortType : DataTypes.ByteType;
            case SMALLINT -> type.unsigned() ? DataTypes.IntegerType : DataTypes.ShortType;
            case MEDIUMINT, YEAR -> DataTypes.IntegerType;
            case BIT -> DataTypes.LongType;
            case INT -> type.unsigned() ? DataTypes.LongType : DataTypes.IntegerType;
            case BIGINT -> type.unsigned() ? DataTypes.createDecimalType(20, 0) : DataTypes.LongType;
            case DECIMAL -> type.length() > SPARK_MAX_DECIMAL_PRECISION ? DataTypes.StringType
                    : DataTypes.createDecimalType(Math.max(1, type.length()), type.scale());
            case FLOAT -> DataTypes.FloatType;
            case DOUBLE -> DataTypes.DoubleType;
            case CHAR, VARCHAR, TEXT, JSON, ENUM, SET -> DataTypes.StringType;
            case BINARY, VARBINARY, BLOB -> DataTypes.BinaryType;
            case DATE -> DataTypes.DateType;
            case DATETIME -> DataTypes.TimestampNTZType;
            case TIMESTAMP -> DataTypes.TimestampType;
            case TIME -> DayTimeIntervalType.apply(DayTimeIntervalType.HOUR(), DayTimeIntervalType.SECOND());
            case NULL -> DataTypes.NullType;
        };
    }

    /** The coprocessor type a column is scanned as: unsigned integers as unsigned 64-bit values. */
    public static FieldType scanType(ColumnInfo column) {
        FieldType stored = StoredValues.columnType(column.type());
        return stored != null ? stored : ValueTypes.of(ValueType.UINT64);
    }
}
