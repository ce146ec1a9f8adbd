package io.duetdb.sql.prepare;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.types.SqlType;

/**
 * Between DuetDB's column types and Calcite's. Unsigned BIGINT becomes DECIMAL(20, 0) in Calcite, smaller
 * unsigned integers the next wider signed type, so that arithmetic needs no unsigned support.
 */
public final class TypeMapping {
    private static final SqlType TRUTH_VALUE = new SqlType(io.duetdb.common.types.SqlTypeName.BIGINT, 1, 0, false);

    private TypeMapping() {
    }

    public static RelDataType toCalcite(RelDataTypeFactory factory, SqlType type, boolean nullable) {
        RelDataType relType = switch (type.name()) {
            case TINYINT -> factory.createSqlType(type.unsigned() ? SqlTypeName.SMALLINT : SqlTypeName.TINYINT);
            case SMALLINT -> factory.createSqlType(type.unsigned() ? SqlTypeName.INTEGER : SqlTypeName.SMALLINT);
            case MEDIUMINT, INT -> factory.createSqlType(type.unsigned() ? SqlTypeName.BIGINT : SqlTypeName.INTEGER);
            case BIGINT -> type.unsigned() ? factory.createSqlType(SqlTypeName.DECIMAL, 20, 0)
                    : factory.createSqlType(SqlTypeName.BIGINT);
            case YEAR -> factory.createSqlType(SqlTypeName.SMALLINT);
            case BIT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.length(), type.scale());
            case FLOAT -> factory.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case CHAR -> factory.createSqlType(SqlTypeName.CHAR, type.length());
            case VARCHAR -> factory.createSqlType(SqlTypeName.VARCHAR, type.length());
            case TEXT -> factory.createSqlType(SqlTypeName.VARCHAR);
            case BINARY -> factory.createSqlType(SqlTypeName.BINARY, type.length());
            case VARBINARY -> factory.createSqlType(SqlTypeName.VARBINARY, type.length());
            case BLOB -> factory.createSqlType(SqlTypeName.VARBINARY);
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case DATETIME, TIMESTAMP -> factory.createSqlType(SqlTypeName.TIMESTAMP, type.fractionalSeconds());
            case TIME -> factory.createSqlType(SqlTypeName.TIME, type.fractionalSeconds());
            case JSON -> JsonTypes.json(factory, nullable);
            case ENUM, SET -> factory.createSqlType(SqlTypeName.VARCHAR, Math.max(1, type.length()));
            case NULL -> factory.createSqlType(SqlTypeName.NULL);
        };
        if (type.collation() != null && !type.collation().binary()) {
            relType = MySqlCollations.withCollation(factory, relType, type.collation(),
                    SqlCollation.Coercibility.IMPLICIT);
        }
        return factory.createTypeWithNullability(relType, nullable);
    }

    /** The DuetDB type of a computed value of a Calcite type (for result metadata and coercion). */
    public static SqlType fromCalcite(RelDataType type) {
        if (JsonTypes.isJson(type)) {
            return SqlType.JSON;
        }
        return calciteType(type).withCollation(MySqlCollations.of(type));
    }

    private static SqlType calciteType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            // MySQL's comparisons and logical operators give BIGINT 0 or 1.
            case BOOLEAN -> TRUTH_VALUE;
            case TINYINT -> new SqlType(io.duetdb.common.types.SqlTypeName.TINYINT, 4, 0, false);
            case SMALLINT -> new SqlType(io.duetdb.common.types.SqlTypeName.SMALLINT, 6, 0, false);
            case INTEGER -> SqlType.INT;
            case BIGINT -> SqlType.BIGINT;
            case UBIGINT -> SqlType.BIGINT_UNSIGNED;
            case DECIMAL -> SqlType.decimal(type.getPrecision(), Math.max(0, type.getScale()));
            case REAL, FLOAT -> new SqlType(io.duetdb.common.types.SqlTypeName.FLOAT, 12, 31, false);
            case DOUBLE -> SqlType.DOUBLE;
            case CHAR -> new SqlType(io.duetdb.common.types.SqlTypeName.CHAR, Math.max(type.getPrecision(), 0), 0,
                    false);
            case VARCHAR -> type.getPrecision() > 0 && type.getPrecision() <= SqlType.MAX_VARCHAR_LENGTH
                    ? SqlType.varchar(type.getPrecision()) : SqlType.LONGTEXT;
            case BINARY -> new SqlType(io.duetdb.common.types.SqlTypeName.BINARY, type.getPrecision(), 0, false);
            case VARBINARY -> new SqlType(io.duetdb.common.types.SqlTypeName.BLOB, 65535, 0, false);
            case DATE -> new SqlType(io.duetdb.common.types.SqlTypeName.DATE, 10, 0, false);
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> SqlType.datetime(Math.max(0, type.getPrecision()));
            case TIME -> new SqlType(io.duetdb.common.types.SqlTypeName.TIME, 10, Math.max(0, type.getPrecision()),
                    false);
            case NULL -> SqlType.NULL;
            default -> SqlType.LONGTEXT;
        };
    }
}
