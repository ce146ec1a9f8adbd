package io.duetdb.spark.internal;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
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
            case INT -> type.unsigned() ? DataTypes.LongType : DataTypes.IntegerType;
            case BIGINT -> type.unsigned() ? DataTypes.createDecimalType(20, 0) : DataTypes.LongType;
            case DECIMAL -> type.length() > SPARK_MAX_DECIMAL_PRECISION ? DataTypes.StringType
                    : DataTypes.createDecimalType(Math.max(1, type.length()), type.scale());
            case FLOAT -> DataTypes.FloatType;
            case DOUBLE -> DataTypes.DoubleType;
            case CHAR, VARCHAR, TEXT -> DataTypes.StringType;
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
